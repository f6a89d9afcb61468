// Reading a PDF: its raw bytes, its structure (pdf-lib), its text and, for OCR, its page images
// (pdfjs). This runs inside a document reader process (readers.ts): parsing a hostile file can take
// seconds and gigabytes, which there cost a reader that is killed, not the server.
import { cpuMs, onCpuDeadline } from './cpu-clock.js';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFStream, type PDFObject } from 'pdf-lib';
import { PDFDateString, VerbosityLevel, getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PDFDocumentProxy, TextItem } from 'pdfjs-dist/types/src/display/api';
import { measurePdfStreams, type PdfStreamLimits } from '../files/pdf-streams.js';
import type { CheckedPdf } from '../files/rejection.js';
import { OcrTimeoutError, type RawImage } from '../ocr/types.js';
import { DocumentUnreadableError, UNREADABLE } from './errors.js';
import { installOneCallInflate } from './inflate.js';
import { largestPageImage } from './page-image.js';
import { ENCRYPTED, scanRawBytes } from './raw-scan.js';
import { HIDDEN_MARK, normaliseText, textNames } from './text.js';
import { PageNotDrawnError, visibleText } from './visible.js';

export interface ReadOptions {
  /** Only the first N pages are read. */
  maxPages: number;
  /** Budget for structure and text; pages after it are skipped. */
  timeoutMs: number;
  /** Page images for OCR when the text layer is thin: pages and budget (which recognition shares). */
  ocr: { maxPages: number; timeoutMs: number } | null;
  /** Decoded stream sizes past which the document is not read at all. */
  streamLimits: PdfStreamLimits;
  /**
   * What the holder claims: once the visible text of the pages read names every one of them, later
   * pages are not read (nothing on them could change the comparison), so they are not drawn either.
   */
  claims?: string[];
  /**
   * What the upload's checks measured of these very bytes (files/checked-pdfs.ts): when they measured
   * the streams against limits no looser than `streamLimits`, the streams are not measured again.
   */
  checkedAtUpload?: CheckedPdf;
}

export interface PdfInfo {
  Producer?: string;
  Creator?: string;
}

export interface ReadResult {
  /**
   * The text of the pages read that a person sees on them, whitespace tidied: the text layer less
   * what is not visible (visible.ts), each stretch of which is one HIDDEN_MARK (…). What the claims
   * are compared with.
   */
  text: string;
  /** The whole text layer, visible or not, of the pages read whose visible text was told apart. */
  layerText: string;
  /** How the visible text was told apart (visible.ts). */
  visibility: {
    /** Letters of the text layer that are not visible (invisible, white on white, covered, clipped, off the page, too small). */
    hiddenLetters: number;
    /** Pages drawn and drawings made. */
    pagesDrawn: number;
    draws: number;
    ms: number;
    /** Pages that could not be drawn (their text is left out of `text` and `layerText`) or text that could not be judged, for the log. */
    notes: string[];
  };
  pageCount: number;
  pagesRead: number;
  info: PdfInfo;
  /** CreationDate and ModDate (epoch ms) when both parse. */
  dates: { created?: number; modified?: number };
  /** Raw-byte, structure and extraction signals, in that order. */
  signals: string[];
  /**
   * The text layer was too thin and OCR is on: the largest image of each page (at most ocr.maxPages),
   * when the extraction began, and why it stopped early if it did.
   */
  ocr?: { images: RawImage[]; startedAt: number; note?: string };
}

export interface ReadHooks {
  /** Called when text extraction is done and page images are being extracted (its own budget). */
  phase(phase: 'images'): void;
}

installOneCallInflate(); // pdfjs inflates images in one zlib call (inflate.ts)

const require = createRequire(import.meta.url);
const pdfjsRoot = dirname(require.resolve('pdfjs-dist/package.json'));
// Real certificates use CJK and standard fonts; without these pdfjs cannot map their glyphs to text.
const PDFJS_ASSETS = {
  cMapUrl: join(pdfjsRoot, 'cmaps') + '/',
  cMapPacked: true,
  standardFontDataUrl: join(pdfjsRoot, 'standard_fonts') + '/',
};

/** A scan often carries a stray page number or stamp as text: under this many letters the page images are read instead. */
const THIN_TEXT_LETTERS = 10;

/** Reads `bytes`; throws DocumentUnreadableError when it cannot be opened or is too large to read. */
export async function readPdf(bytes: Uint8Array, opts: ReadOptions, hooks: ReadHooks): Promise<ReadResult> {
  // Decompression bombs: measured (never held) before pdf-lib or pdfjs decode anything, here or at upload.
  const unlimited = opts.streamLimits.maxDecodedBytes === Infinity && opts.streamLimits.maxImageBytes === Infinity;
  const measured = opts.checkedAtUpload && noLooser(opts.checkedAtUpload.streamLimits, opts.streamLimits);
  const streams = unlimited || measured ? { over: null } : await measurePdfStreams(bytes, opts.streamLimits);
  if (streams.over) {
    const limit = streams.over === 'images' ? opts.streamLimits.maxImageBytes : opts.streamLimits.maxDecodedBytes;
    throw new DocumentUnreadableError(UNREADABLE.tooLarge(Math.round(limit / 1024 / 1024)));
  }
  // Budgets count this reader's CPU time (cpu-clock.ts): a busy machine does not cut a reading short.
  // They are for the structure and the text, and start after the measure, so that a document reads the
  // same whether its streams were measured here or at upload.
  const deadline = cpuMs() + opts.timeoutMs;

  const signals = new Set<string>(scanRawBytes(bytes));
  // pdf-lib parses every object (yielding between batches); abandon it past the budget.
  let stopBudget: (() => void) | undefined;
  const structure = await Promise.race([
    scanStructure(bytes),
    new Promise<string[]>((r) => {
      stopBudget = onCpuDeadline(deadline, () => r(['The PDF is too complex to inspect fully for scripts and attachments.']));
    }),
  ]).finally(() => stopBudget?.());
  for (const s of structure) signals.add(s);

  const read = await extractText(bytes, opts, deadline, hooks);
  for (const s of read.signals) signals.add(s);
  return { ...read, signals: [...signals] };
}

async function extractText(bytes: Uint8Array, opts: ReadOptions, deadline: number, hooks: ReadHooks): Promise<ReadResult> {
  const task = getDocument({
    data: new Uint8Array(bytes), // pdfjs may detach the buffer it is given
    isEvalSupported: false,
    // Decode images to plain pixels (for OCR) rather than browser bitmaps; cap what is decoded.
    isOffscreenCanvasSupported: false,
    isImageDecoderSupported: false,
    maxImageSize: 40_000_000,
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: false,
    verbosity: VerbosityLevel.ERRORS,
    ...PDFJS_ASSETS,
  });
  let stopTimeout: (() => void) | undefined;
  const timeout = new Promise<never>((_, reject) => {
    stopTimeout = onCpuDeadline(deadline + 5000, () => reject(new DocumentUnreadableError('Reading this PDF took too long. Please upload a simpler export of the certificate.')));
  });
  try {
    let doc;
    try {
      doc = await Promise.race([task.promise, timeout]);
    } catch (err) {
      if (err instanceof DocumentUnreadableError) throw err;
      if ((err as { name?: string })?.name === 'PasswordException') {
        return { text: '', layerText: '', visibility: noVisibility(), pageCount: 0, pagesRead: 0, info: {}, dates: {}, signals: ['The PDF is password-protected, so its text could not be read.'] };
      }
      throw new DocumentUnreadableError('This PDF could not be opened. Please export it again and re-upload.');
    }
    const meta = await Promise.race([doc.getMetadata().catch(() => ({ info: {} })), timeout]);
    const raw = (meta.info ?? {}) as PdfInfo & { CreationDate?: string; ModDate?: string };
    const info: PdfInfo = {};
    if (typeof raw.Producer === 'string') info.Producer = raw.Producer;
    if (typeof raw.Creator === 'string') info.Creator = raw.Creator;
    const dates = { created: parsePdfDate(raw.CreationDate), modified: parsePdfDate(raw.ModDate) };
    const pageCount = doc.numPages;
    const parts: string[] = [];
    const layer: string[] = [];
    const visibility = noVisibility();
    const claims = (opts.claims ?? []).filter((c) => normaliseText(c));
    let pagesRead = 0;
    for (let n = 1; n <= Math.min(pageCount, opts.maxPages) && cpuMs() < deadline; n++) {
      try {
        const page = await Promise.race([doc.getPage(n), timeout]);
        try {
          const content = await Promise.race([page.getTextContent(), timeout]);
          const items = content.items.filter((item): item is TextItem => 'str' in item);
          // What of it a person sees: the page drawn with the page objects already loaded. A page that
          // was started gets until shortly before the reader gives up (the deadline + 5 s) to be drawn.
          const started = cpuMs();
          let shown: string[];
          try {
            const v = await visibleText(page, items, Math.min(Math.max(deadline, started) + DRAW_GRACE_MS, deadline + 4500));
            shown = v.visible;
            for (const item of items) layer.push(item.str, item.hasEOL ? '\n' : ' ');
            visibility.hiddenLetters += v.hiddenLetters;
            visibility.draws += v.draws;
            if (v.draws) visibility.pagesDrawn++;
            if (v.note) visibility.notes.push(`Page ${n}: ${v.note}.`);
          } catch (err) {
            // Its text cannot be told visible or not: it is not compared, and the log says why.
            const why = err instanceof PageNotDrawnError ? err.message : `the drawing failed: ${err instanceof Error ? err.message : String(err)}`;
            shown = items.map(() => '');
            visibility.notes.push(`Page ${n} could not be drawn (${why}), so its text was not compared.`);
          } finally {
            visibility.ms += cpuMs() - started;
          }
          items.forEach((item, i) => parts.push(shown[i], item.hasEOL ? '\n' : ' '));
        } finally {
          page.cleanup();
        }
      } catch (err) {
        if (err instanceof DocumentUnreadableError) break; // time is up: keep what we have
        // one damaged page should not hide the text of the others
      }
      pagesRead = n;
      parts.push('\n');
      layer.push('\n');
      if (claims.length && claims.every((c) => textNames(normaliseText(parts.join(' ')), c))) break;
    }
    const text = tidy(parts);
    const result: ReadResult = { text, layerText: tidy(layer), visibility, pageCount, pagesRead, info, dates, signals: [] };
    if (!opts.ocr || pagesRead === 0 || normaliseText(text).replace(/[^\p{L}]/gu, '').length >= THIN_TEXT_LETTERS) return result;
    stopTimeout?.(); // the images have their own budget (opts.ocr.timeoutMs)
    hooks.phase('images');
    return { ...result, ocr: await pageImages(doc, Math.min(pagesRead, opts.ocr.maxPages), opts.ocr.timeoutMs) };
  } finally {
    stopTimeout?.();
    await task.destroy().catch(() => undefined);
  }
}

/**
 * What passed `measured` passes `limits`: each budget at most as large, and images told apart the same
 * way (the pixel bound decides which streams count as images, so it must be the same).
 */
function noLooser(measured: PdfStreamLimits, limits: PdfStreamLimits): boolean {
  return measured.maxDecodedBytes <= limits.maxDecodedBytes && measured.maxImageBytes <= limits.maxImageBytes && measured.maxImagePixels === limits.maxImagePixels;
}

/** A page whose text was read gets this long past the text budget to be drawn (the reader gives up at + 5 s). */
const DRAW_GRACE_MS = 3000;

function noVisibility(): ReadResult['visibility'] {
  return { hiddenLetters: 0, pagesDrawn: 0, draws: 0, ms: 0, notes: [] };
}

function tidy(parts: string[]): string {
  return parts
    .join('')
    .replace(/[ \t\f\v\u00a0]+/g, ' ')
    .replace(/\s*\n\s*/g, '\n')
    .replace(new RegExp(`${HIDDEN_MARK}(?:\\s*${HIDDEN_MARK})+`, 'g'), HIDDEN_MARK) // one mark per stretch of hidden text
    .trim();
}

/**
 * The largest image of each of the first pages (a converted photo or a scan is one full-page image).
 * Past the budget, or on a failure, what was found so far is returned with a note for the log.
 */
async function pageImages(doc: PDFDocumentProxy, pages: number, timeoutMs: number): Promise<NonNullable<ReadResult['ocr']>> {
  const startedAt = Date.now();
  const deadline = startedAt + timeoutMs;
  const images: RawImage[] = [];
  let note: string | undefined;
  for (let n = 1; n <= pages; n++) {
    const left = deadline - Date.now();
    if (left <= 0) {
      note ??= `OCR stopped after ${timeoutMs} ms.`;
      break;
    }
    try {
      const page = await doc.getPage(n);
      let image;
      try {
        image = await largestPageImage(page, left);
      } finally {
        page.cleanup();
      }
      // Its own buffer: pdfjs's may be a view on a larger one, which would be sent whole.
      if (image) images.push({ ...image, data: image.data.slice() });
    } catch (err) {
      note = err instanceof OcrTimeoutError ? `OCR stopped after ${timeoutMs} ms.` : `OCR failed: ${err instanceof Error ? err.message : String(err)}`;
      if (err instanceof OcrTimeoutError) break;
    }
  }
  return { images, startedAt, ...(note ? { note } : {}) };
}

/** Walks every object pdf-lib parsed (including those inside compressed object streams). */
async function scanStructure(bytes: Uint8Array): Promise<string[]> {
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false, throwOnInvalidObject: false });
  } catch {
    return [];
  }
  const signals: string[] = [];
  if (doc.isEncrypted) signals.push(ENCRYPTED);
  const found = { js: false, embedded: false, launch: false };
  const JS = PDFName.of('JS');
  const S = PDFName.of('S');
  const TYPE = PDFName.of('Type');
  const visit = (obj: PDFObject | undefined, depth: number): void => {
    if (!obj || depth > 32) return;
    if (obj instanceof PDFStream) return visit(obj.dict, depth + 1);
    if (obj instanceof PDFArray) {
      for (let i = 0; i < obj.size(); i++) visit(obj.get(i), depth + 1);
      return;
    }
    if (!(obj instanceof PDFDict)) return;
    const s = obj.get(S);
    const type = obj.get(TYPE);
    if (obj.has(JS) || s === PDFName.of('JavaScript')) found.js = true;
    if (s === PDFName.of('Launch')) found.launch = true;
    if (type === PDFName.of('EmbeddedFile') || type === PDFName.of('Filespec') && obj.has(PDFName.of('EF')) || obj.has(PDFName.of('EmbeddedFiles'))) found.embedded = true;
    for (const [, value] of obj.entries()) visit(value, depth + 1);
  };
  for (const [, obj] of doc.context.enumerateIndirectObjects()) visit(obj, 0);
  if (found.js) signals.push('Contains JavaScript.');
  if (found.embedded) signals.push('Contains embedded files.');
  if (found.launch) signals.push('Contains an action that launches another program.');
  return signals;
}

function parsePdfDate(value: unknown): number | undefined {
  if (typeof value !== 'string' || !value) return undefined;
  try {
    const d = PDFDateString.toDateObject(value);
    return d && !Number.isNaN(d.getTime()) ? d.getTime() : undefined;
  } catch {
    return undefined;
  }
}
