import { PDF_STREAM_LIMITS, type PdfStreamLimits } from '../files/pdf-streams.js';
import type { CheckedPdf } from '../files/rejection.js';
import { OcrTimeoutError, recognizeText, type RawImage } from '../ocr/index.js';
import { READER_HEAP_MB, readInReader } from './readers.js';
import { HIDDEN_MARK, normaliseText, textNames, textNamesFuzzy, textNamesPerson } from './text.js';

export { DocumentUnreadableError } from './errors.js';
export { normaliseText, textNames, textNamesFuzzy, textNamesPerson, editDistance } from './text.js';

export interface DocumentClaims {
  title: string;
  institution_name: string;
  program_name: string;
  /** The holder's name as their profile gives it: a certificate names the person it was awarded to (the pipeline always asks). */
  holder_name?: string;
}

export type ClaimField = 'title' | 'institution' | 'program' | 'holder';

export interface DocumentCheck {
  /** Whether the text a person sees on the pages read (or OCR reads off their images) names each claim. */
  textMatches: { title: boolean; institution: boolean; program: boolean; holder?: boolean };
  /**
   * The first ~2000 characters of that text, whitespace collapsed: the text layer with each stretch
   * of text that is not visible on the page replaced by one HIDDEN_MARK (…, no word: never matched or
   * quoted), plus OCR text when the visible text is too thin. Empty when nothing could be read.
   */
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
  /**
   * Some of the text layer is not visible on the page (invisible, white on white, covered, clipped,
   * off the page or too small to read) and was left out of `text` and the comparison.
   */
  hiddenTextIgnored?: true;
  /** A sentence for the log when hiddenTextIgnored: HIDDEN_TEXT_NOTE. */
  hiddenTextNote?: string;
  /** Claims that only text which is not visible names (the visible text does not); also a tamper signal. */
  namedOnlyByHiddenText?: ClaimField[];
  /** Pages drawn to tell visible text apart, and the time it took (ms). */
  pagesDrawn: number;
  drawMs: number;
  /** Why some text could not be judged visible (a page that could not be drawn…): it counts as not visible. */
  visibilityNote?: string;
}

export const HIDDEN_TEXT_NOTE = 'Text that is not visible on the page was ignored (invisible, white on white, or covered).';

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
  /**
   * Limits of the reader process that parses the PDF: its heap in MB (default 256), the decoded stream
   * sizes past which it is not read at all (default PDF_STREAM_LIMITS, as at upload) and the wall
   * clock after which it is terminated (default 2 × timeoutMs + 8 s; page images for OCR: ocrTimeoutMs
   * + 8 s). Past any of them: DocumentUnreadableError saying the document is too complex/large.
   */
  limits?: { heapMb?: number; streams?: Partial<PdfStreamLimits>; timeMs?: number };
  /** What the upload's checks measured of these very bytes (files/checked-pdfs.ts), so the reader need not measure it again. */
  checkedAtUpload?: CheckedPdf;
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
 * claimed title, institution and program and the holder's name, plus signs that it was edited or carries active content.
 * The PDF is parsed in a reader process (readers.ts) with a heap, time and decoded-size limit, so a
 * hostile file cannot stall, exhaust or crash the server; page images without a text layer are read
 * with OCR here (tesseract has its own worker). Work is capped (pages and time).
 */
export async function checkDocument(
  pdfBytes: Uint8Array,
  claims: DocumentClaims,
  opts: CheckDocumentOptions = {},
): Promise<DocumentCheck> {
  const read = await readInReader(pdfBytes, {
    maxPages: opts.maxPages ?? 10,
    timeoutMs: opts.timeoutMs ?? 5000,
    ocr: opts.ocr === false ? null : { maxPages: opts.ocrMaxPages ?? 3, timeoutMs: opts.ocrTimeoutMs ?? 30_000 },
    streamLimits: { ...PDF_STREAM_LIMITS, ...opts.limits?.streams },
    claims: [claims.title, claims.institution_name, claims.program_name, claims.holder_name ?? ''],
    heapMb: opts.limits?.heapMb ?? READER_HEAP_MB,
    ...(opts.checkedAtUpload ? { checkedAtUpload: opts.checkedAtUpload } : {}),
    ...(opts.limits?.timeMs !== undefined ? { timeLimitMs: opts.limits.timeMs } : {}),
  });

  const signals = new Set<string>(read.signals);
  const producer = read.info.Producer?.trim() || undefined;
  const creator = read.info.Creator?.trim() || undefined;
  const editor = producer ? EDITING_TOOLS.find(([re]) => re.test(producer)) : undefined;
  if (editor && creator && !editor[0].test(creator)) {
    signals.add(`Saved by an editing tool (${editor[1]}) after being created by ${creator}.`);
  }
  const { created, modified } = read.dates;
  if (created !== undefined && modified !== undefined && modified - created > MOD_DATE_SLACK_MS) {
    signals.add(`Modified ${describeGap(modified - created)} after it was created.`);
  }

  let text = read.text;
  let textSource: TextSource = text ? 'pdf' : 'none';
  let ocr: OcrInfo = {};
  if (read.ocr) {
    const recognised = await recognisePages(read.ocr, opts.ocrTimeoutMs ?? 30_000);
    ocr = recognised.info;
    if (recognised.text) {
      text = [text, recognised.text].filter(Boolean).join('\n');
      textSource = 'ocr';
    } else if (read.ocr.images.length) {
      // The page's image could not be read: what it shows is unknown, whatever text hides behind it
      // (a scan's invisible OCR layer). Unread, not "shows nothing".
      text = text.replaceAll(HIDDEN_MARK, ' ').replace(/[ \t]+/g, ' ').replace(/\s*\n\s*/g, '\n').trim();
      textSource = text ? 'pdf' : 'none';
    }
  }

  const norm = normaliseText(text);
  const fuzzy = textSource === 'ocr';
  // The holder's name counts only outside the claimed title, institution and program: a profile named
  // "Computer Science" is not found in "Bachelor of Science in Computer Science".
  const otherClaims = [claims.title, claims.institution_name, claims.program_name];
  const namedIn = (normalised: string, field: ClaimField, claim: string, asOcr: boolean) =>
    field === 'holder' ? textNamesPerson(withoutPhrases(normalised, otherClaims), claim, asOcr) : asOcr ? textNamesFuzzy(normalised, claim) : textNames(normalised, claim);
  const claimed: [ClaimField, string][] = [
    ['title', claims.title],
    ['institution', claims.institution_name],
    ['program', claims.program_name],
    ...(claims.holder_name !== undefined ? [['holder', claims.holder_name] as [ClaimField, string]] : []),
  ];
  const textMatches = Object.fromEntries(claimed.map(([field, claim]) => [field, namedIn(norm, field, claim, fuzzy)])) as DocumentCheck['textMatches'];
  // OCR misreads letters, so a scan's text may name a claim only approximately: said as a flag (it
  // reaches the verdict's flags, the note and the NFT), so that "the text names the claims" is never
  // read as an exact match ("Stamford" for "Stanford" passes within OCR's tolerance).
  const approximate = fuzzy ? claimed.filter(([field, claim]) => textMatches[field as keyof typeof textMatches] && !namedIn(norm, field, claim, false)).map(([field]) => field) : [];
  if (approximate.length) {
    const names = listOf(approximate.map((f) => (f === 'holder' ? "holder's name" : f)));
    signals.add(`Read from an image (OCR): the claimed ${names} ${approximate.length === 1 ? 'matches' : 'match'} the text read only approximately (some letters differ), so check ${approximate.length === 1 ? 'it' : 'them'} against the document.`);
  }

  // Text only the check could see: the claims the text layer names that the visible text does not.
  const layer = normaliseText(read.layerText);
  const hiddenOnly = claimed.filter(([field, claim]) => !textMatches[field as keyof typeof textMatches] && namedIn(layer, field, claim, false)).map(([field]) => field);
  if (hiddenOnly.length) {
    signals.add(`Contains hidden text: the claimed ${listOf(hiddenOnly.map((f) => (f === 'holder' ? "holder's name" : f)))} ${hiddenOnly.length === 1 ? 'is' : 'are'} named only by text that is not visible on the page.`);
  }
  for (const note of read.visibility.notes) signals.add(note);

  return {
    textMatches,
    text: text.slice(0, TEXT_PREVIEW_CHARS),
    tamperSignals: [...signals],
    pageCount: read.pageCount,
    pagesRead: read.pagesRead,
    ...(producer ? { producer } : {}),
    ...(creator ? { creator } : {}),
    textSource,
    ...ocr,
    ...(read.visibility.hiddenLetters > 0 ? { hiddenTextIgnored: true as const, hiddenTextNote: HIDDEN_TEXT_NOTE } : {}),
    ...(hiddenOnly.length ? { namedOnlyByHiddenText: hiddenOnly } : {}),
    pagesDrawn: read.visibility.pagesDrawn,
    drawMs: read.visibility.ms,
    ...(read.visibility.notes.length ? { visibilityNote: read.visibility.notes.join(' ') } : {}),
  };
}

/** `normalised` with each whole-word occurrence of `phrases` cut out (a '|' left in its place: no word). */
function withoutPhrases(normalised: string, phrases: string[]): string {
  let out = ` ${normalised} `;
  for (const p of phrases.map(normaliseText).filter(Boolean)) out = out.split(` ${p} `).join(' | ');
  return out.trim();
}

function listOf(fields: readonly string[]): string {
  return fields.length <= 1 ? fields.join('') : `${fields.slice(0, -1).join(', ')} and ${fields.at(-1)}`;
}

interface OcrInfo {
  ocrConfidence?: number;
  ocrMs?: number;
  ocrPages?: number;
  ocrNote?: string;
}

/**
 * No text layer: recognise the page images the reader extracted, within what is left of the OCR
 * budget (it began with the extraction). Failures and timeouts leave the document unread
 * (textSource 'none') rather than failing the check.
 */
async function recognisePages(found: { images: RawImage[]; startedAt: number; note?: string }, timeoutMs: number): Promise<{ text: string; info: OcrInfo }> {
  const deadline = found.startedAt + timeoutMs;
  const texts: string[] = [];
  const confidences: number[] = [];
  let ocrPages = 0;
  let note = found.note;
  for (const image of found.images) {
    const left = deadline - Date.now();
    if (left <= 0) {
      note ??= `OCR stopped after ${timeoutMs} ms.`;
      break;
    }
    try {
      const r = await recognizeText(image, { timeoutMs: left });
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
  const info: OcrInfo = { ocrMs: Date.now() - found.startedAt, ocrPages };
  if (confidences.length) info.ocrConfidence = confidence;
  if (text && enoughOcrText(text, confidence)) return { text, info };
  if (!note) note = ocrPages ? 'OCR found too little text to compare.' : 'The PDF has no page image to read.';
  return { text: '', info: { ...info, ocrNote: note } };
}

function describeGap(ms: number): string {
  const hours = ms / 3_600_000;
  if (hours < 48) return `${Math.round(hours)} hour${Math.round(hours) === 1 ? '' : 's'}`;
  const days = Math.round(hours / 24);
  return `${days} days`;
}
