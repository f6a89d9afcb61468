import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFStream, type PDFObject } from 'pdf-lib';
import { PDFDateString, VerbosityLevel, getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PDFDocumentProxy } from 'pdfjs-dist/types/src/display/api';
import { OcrTimeoutError, recognizeText } from '../ocr/index.js';
import { largestPageImage } from './page-image.js';

export interface DocumentClaims {
  title: string;
  institution_name: string;
  program_name: string;
}

export interface DocumentCheck {
  textMatches: { title: boolean; institution: boolean; program: boolean };
  /** The first ~2000 characters of the extracted text, whitespace collapsed. */
  text: string;
  /** Short human sentences; empty when nothing looks edited. */
  tamperSignals: string[];
  pageCount: number;
  /** Pages whose text was read (capped by maxPages and the time budget). */
  pagesRead: number;
  producer?: string;
  creator?: string;
  /**
   * Where `text` came from: the PDF's text layer, OCR of its page images (no text layer: converted
   * photos, scans), or nowhere usable ('none': no text layer and OCR off, failed or read too little).
   */
  textSource: TextSource;
  /** Mean OCR word confidence (0–100) when OCR ran and produced text. */
  ocrConfidence?: number;
  /** Time spent on OCR (page images + recognition) when it ran. */
  ocrMs?: number;
  /** Pages whose image was recognised. */
  ocrPages?: number;
  /** Why OCR gave no usable text (timeout, failure, too little text), for the log. */
  ocrNote?: string;
}

export type TextSource = 'pdf' | 'ocr' | 'none';

export interface CheckDocumentOptions {
  /** Only the first N pages are read: certificates name things on page one. Default 10. */
  maxPages?: number;
  /** Total time budget for text extraction; pages after it are skipped. Default 5000 ms. */
  timeoutMs?: number;
  /** OCR the page images when the PDF has no text layer. Default true. */
  ocr?: boolean;
  /** Pages OCR reads at most (largest image of each). Default 3. */
  ocrMaxPages?: number;
  /** Total OCR budget across pages. Default 30 000 ms (a page takes ~1–3 s on an idle core). */
  ocrTimeoutMs?: number;
}

/** The PDF could not be opened at all (not even its page tree). `message` is user-facing. */
export class DocumentUnreadableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DocumentUnreadableError';
  }
}

export const TEXT_PREVIEW_CHARS = 2000;
/** Edited-after-created threshold: generators often write ModDate a few seconds after CreationDate. */
const MOD_DATE_SLACK_MS = 60 * 60 * 1000;

// Tools people use to alter an existing PDF; as Producer they rewrite the file they opened.
const EDITING_TOOLS: Array<[RegExp, string]> = [
  [/acrobat (pro|standard|dc)|adobe acrobat(?! (distiller|pdfmaker|paper capture))/i, 'Adobe Acrobat'],
  [/pdfelement|wondershare/i, 'PDFelement'],
  [/foxit (phantompdf|pdf editor)/i, 'Foxit PDF Editor'],
  [/nitro/i, 'Nitro PDF'],
  [/sejda/i, 'Sejda'],
  [/smallpdf/i, 'Smallpdf'],
  [/ilovepdf/i, 'iLovePDF'],
  [/pdf-xchange/i, 'PDF-XChange Editor'],
  [/pdfescape/i, 'PDFescape'],
  [/pdffiller/i, 'pdfFiller'],
  [/soda pdf/i, 'Soda PDF'],
  [/master pdf editor/i, 'Master PDF Editor'],
  [/photoshop/i, 'Photoshop'],
  [/canva/i, 'Canva'],
];

const require = createRequire(import.meta.url);
const pdfjsRoot = dirname(require.resolve('pdfjs-dist/package.json'));
// Real certificates use CJK and standard fonts; without these pdfjs cannot map their glyphs to text.
const PDFJS_ASSETS = {
  cMapUrl: join(pdfjsRoot, 'cmaps') + '/',
  cMapPacked: true,
  standardFontDataUrl: join(pdfjsRoot, 'standard_fonts') + '/',
};

/** Lowercase, no accents, ligatures unfolded (NFKD), punctuation and line breaks as single spaces. */
export function normaliseText(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * Does the text name the claim? Word-bounded on the normalised text; failing that, with all spaces
 * removed (words split across lines or letter-spaced headings), but only for claims long enough
 * that a coincidental substring is unlikely.
 */
export function textNames(normalisedText: string, claim: string): boolean {
  const c = normaliseText(claim);
  if (!c) return false;
  if (` ${normalisedText} `.includes(` ${c} `)) return true;
  const compactClaim = c.replace(/ /g, '');
  return compactClaim.length >= 6 && normalisedText.replace(/ /g, '').includes(compactClaim);
}

/** OCR text is scanned only this far for fuzzy matches (bounds the quadratic edit distances). */
const FUZZY_SCAN_CHARS = 6000;

/**
 * `textNames` for OCR output, which misreads letters and splits or joins words: also accepts a
 * run of words whose letters (spaces removed) are within about one edit per 8 letters of the
 * claim's. Claims under 8 letters must still match exactly. The run may have one word more or
 * fewer than the claim.
 */
export function textNamesFuzzy(normalisedText: string, claim: string): boolean {
  if (textNames(normalisedText, claim)) return true;
  const c = normaliseText(claim);
  const compactClaim = c.replace(/ /g, '');
  const maxEdits = Math.floor(compactClaim.length / 8);
  if (maxEdits === 0) return false;
  const words = normalisedText.slice(0, FUZZY_SCAN_CHARS).split(' ').filter(Boolean);
  const n = c.split(' ').length;
  for (let i = 0; i < words.length; i++) {
    for (let len = Math.max(1, n - 1); len <= n + 1 && i + len <= words.length; len++) {
      const run = words.slice(i, i + len).join('');
      if (Math.abs(run.length - compactClaim.length) > maxEdits) continue;
      if (editDistance(run, compactClaim, maxEdits) <= maxEdits) return true;
    }
  }
  return false;
}

/** Levenshtein distance, giving up (returning max + 1) once every path exceeds `max`. */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      cur.push(v);
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    prev = cur;
  }
  return prev[b.length];
}

/**
 * OCR of an image without text still emits a few stray glyphs; below this there is nothing to
 * compare with the claims, so the document counts as unread rather than as not naming them.
 */
function enoughOcrText(text: string, confidence: number): boolean {
  const words = normaliseText(text).split(' ').filter((w) => /\p{L}{3,}/u.test(w));
  return confidence >= 30 && words.length >= 2 && words.join('').length >= 10;
}

/**
 * Reads a PDF's text (pdfjs) and structure (pdf-lib, raw bytes) and reports whether it names the
 * claimed title, institution and program, plus signs that it was edited or carries active content.
 * Work is capped (pages and time) so a huge PDF cannot stall the server.
 */
export async function checkDocument(
  pdfBytes: Uint8Array,
  claims: DocumentClaims,
  opts: CheckDocumentOptions = {},
): Promise<DocumentCheck> {
  const maxPages = opts.maxPages ?? 10;
  const timeoutMs = opts.timeoutMs ?? 5000;
  const deadline = Date.now() + timeoutMs;

  const signals = new Set<string>();
  for (const s of scanRawBytes(pdfBytes)) signals.add(s);
  // pdf-lib parses every object (yielding between batches); abandon it past the budget.
  let budget: NodeJS.Timeout | undefined;
  const structure = await Promise.race([
    scanStructure(pdfBytes),
    new Promise<string[]>((r) => {
      budget = setTimeout(() => r(['The PDF is too complex to inspect fully for scripts and attachments.']), timeoutMs);
    }),
  ]).finally(() => clearTimeout(budget));
  for (const s of structure) signals.add(s);

  const ocr = opts.ocr === false ? null : { maxPages: opts.ocrMaxPages ?? 3, timeoutMs: opts.ocrTimeoutMs ?? 30_000 };
  const extracted = await extractText(pdfBytes, maxPages, deadline, ocr);
  for (const s of extracted.signals) signals.add(s);

  const info = extracted.info;
  const producer = info.Producer?.trim() || undefined;
  const creator = info.Creator?.trim() || undefined;
  const editor = producer ? EDITING_TOOLS.find(([re]) => re.test(producer)) : undefined;
  if (editor && creator && !editor[0].test(creator)) {
    signals.add(`Saved by an editing tool (${editor[1]}) after being created by ${creator}.`);
  }
  const created = parsePdfDate(info.CreationDate);
  const modified = parsePdfDate(info.ModDate);
  if (created && modified && modified.getTime() - created.getTime() > MOD_DATE_SLACK_MS) {
    signals.add(`Modified ${describeGap(modified.getTime() - created.getTime())} after it was created.`);
  }

  const norm = normaliseText(extracted.text);
  const names = extracted.textSource === 'ocr' ? textNamesFuzzy : textNames;
  return {
    textMatches: {
      title: names(norm, claims.title),
      institution: names(norm, claims.institution_name),
      program: names(norm, claims.program_name),
    },
    text: extracted.text.slice(0, TEXT_PREVIEW_CHARS),
    tamperSignals: [...signals],
    pageCount: extracted.pageCount,
    pagesRead: extracted.pagesRead,
    ...(producer ? { producer } : {}),
    ...(creator ? { creator } : {}),
    textSource: extracted.textSource,
    ...extracted.ocr,
  };
}

interface PdfInfo {
  Producer?: string;
  Creator?: string;
  CreationDate?: string;
  ModDate?: string;
}

const THIN_TEXT_LETTERS = 10;

interface OcrInfo {
  ocrConfidence?: number;
  ocrMs?: number;
  ocrPages?: number;
  ocrNote?: string;
}

interface Extracted {
  text: string;
  pageCount: number;
  pagesRead: number;
  info: PdfInfo;
  signals: string[];
  textSource: TextSource;
  ocr: OcrInfo;
}

async function extractText(
  bytes: Uint8Array,
  maxPages: number,
  deadline: number,
  ocr: { maxPages: number; timeoutMs: number } | null,
): Promise<Extracted> {
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
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DocumentUnreadableError('Reading this PDF took too long. Please upload a simpler export of the certificate.')), Math.max(1, deadline - Date.now()) + 5000);
  });
  try {
    let doc;
    try {
      doc = await Promise.race([task.promise, timeout]);
    } catch (err) {
      if (err instanceof DocumentUnreadableError) throw err;
      if ((err as { name?: string })?.name === 'PasswordException') {
        return { text: '', pageCount: 0, pagesRead: 0, info: {}, signals: ['The PDF is password-protected, so its text could not be read.'], textSource: 'none', ocr: {} };
      }
      throw new DocumentUnreadableError('This PDF could not be opened. Please export it again and re-upload.');
    }
    const meta = await Promise.race([doc.getMetadata().catch(() => ({ info: {} })), timeout]);
    const info = (meta.info ?? {}) as PdfInfo;
    const pageCount = doc.numPages;
    const parts: string[] = [];
    let pagesRead = 0;
    for (let n = 1; n <= Math.min(pageCount, maxPages) && Date.now() < deadline; n++) {
      try {
        const page = await Promise.race([doc.getPage(n), timeout]);
        const content = await Promise.race([page.getTextContent(), timeout]);
        for (const item of content.items) {
          if ('str' in item) parts.push(item.str, item.hasEOL ? '\n' : ' ');
        }
        page.cleanup();
      } catch (err) {
        if (err instanceof DocumentUnreadableError) break; // time is up: keep what we have
        // one damaged page should not hide the text of the others
      }
      pagesRead = n;
      parts.push('\n');
    }
    const text = parts.join('').replace(/[ \t\f\v\u00a0]+/g, ' ').replace(/\s*\n\s*/g, '\n').trim();
    const pdfResult: Extracted = { text, pageCount, pagesRead, info, signals: [], textSource: text ? 'pdf' : 'none', ocr: {} };
    // A scan often carries a stray page number or stamp as text: under this many letters the
    // text layer cannot name anything, so the page images are read instead.
    if (!ocr || pagesRead === 0 || normaliseText(text).replace(/[^\p{L}]/gu, '').length >= THIN_TEXT_LETTERS) return pdfResult;
    const read = await ocrPages(doc, Math.min(pagesRead, ocr.maxPages), ocr.timeoutMs);
    if (!read.text) return { ...pdfResult, ocr: read.info };
    return { ...pdfResult, text: [text, read.text].filter(Boolean).join('\n'), textSource: 'ocr', ocr: read.info };
  } finally {
    clearTimeout(timer);
    await task.destroy().catch(() => undefined);
  }
}

/**
 * No text layer: recognise the largest image of each of the first pages. Failures and timeouts
 * leave the document unread (textSource 'none') rather than failing the check.
 */
async function ocrPages(doc: PDFDocumentProxy, pages: number, timeoutMs: number): Promise<{ text: string; info: OcrInfo }> {
  const started = Date.now();
  const deadline = started + timeoutMs;
  const texts: string[] = [];
  const confidences: number[] = [];
  let ocrPages = 0;
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
      if (!image) continue;
      const r = await recognizeText(image, { timeoutMs: Math.max(1, deadline - Date.now()) });
      ocrPages++;
      if (r.text) {
        texts.push(r.text);
        confidences.push(r.confidence);
      }
    } catch (err) {
      note = err instanceof OcrTimeoutError ? `OCR stopped after ${timeoutMs} ms.` : `OCR failed: ${err instanceof Error ? err.message : String(err)}`;
      if (err instanceof OcrTimeoutError) break;
    }
  }
  const text = texts.join('\n');
  const confidence = confidences.length ? Math.round(confidences.reduce((a, b) => a + b, 0) / confidences.length) : 0;
  const info: OcrInfo = { ocrMs: Date.now() - started, ocrPages };
  if (confidences.length) info.ocrConfidence = confidence;
  if (text && enoughOcrText(text, confidence)) return { text, info };
  if (!note) note = ocrPages ? 'OCR found too little text to compare.' : 'The PDF has no page image to read.';
  return { text: '', info: { ...info, ocrNote: note } };
}

/** Incremental updates and encryption are visible in the raw bytes even when objects are compressed. */
function scanRawBytes(bytes: Uint8Array): string[] {
  const raw = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('latin1');
  const signals: string[] = [];
  const eofs = count(raw, '%%EOF');
  const startxrefs = count(raw, 'startxref');
  // A linearized ("fast web view") file legitimately has two sections.
  const linearized = /\/Linearized\b/.test(raw.slice(0, 2048));
  const updates = Math.max(eofs, startxrefs) - (linearized ? 2 : 1);
  if (updates > 0) {
    signals.push(`Changed after it was first saved (${updates} incremental update${updates === 1 ? '' : 's'}).`);
  }
  if (/\/Encrypt\s*(\d+\s+\d+\s+R|<<)/.test(raw)) signals.push('The PDF is encrypted.');
  if (/\/(JavaScript|JS)\b/.test(raw)) signals.push('Contains JavaScript.');
  if (/\/(EmbeddedFiles?)\b/.test(raw)) signals.push('Contains embedded files.');
  return signals;
}

function count(haystack: string, needle: string): number {
  let n = 0;
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + needle.length)) n++;
  return n;
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
  if (doc.isEncrypted) signals.push('The PDF is encrypted.');
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

function parsePdfDate(value: unknown): Date | null {
  if (typeof value !== 'string' || !value) return null;
  try {
    const d = PDFDateString.toDateObject(value);
    return d && !Number.isNaN(d.getTime()) ? d : null;
  } catch {
    return null;
  }
}

function describeGap(ms: number): string {
  const hours = ms / 3_600_000;
  if (hours < 48) return `${Math.round(hours)} hour${Math.round(hours) === 1 ? '' : 's'}`;
  const days = Math.round(hours / 24);
  return `${days} days`;
}
