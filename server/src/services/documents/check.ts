import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFStream, type PDFObject } from 'pdf-lib';
import { PDFDateString, VerbosityLevel, getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

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
}

export interface CheckDocumentOptions {
  /** Only the first N pages are read: certificates name things on page one. Default 10. */
  maxPages?: number;
  /** Total time budget for text extraction; pages after it are skipped. Default 5000 ms. */
  timeoutMs?: number;
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

  const extracted = await extractText(pdfBytes, maxPages, deadline);
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
  return {
    textMatches: {
      title: textNames(norm, claims.title),
      institution: textNames(norm, claims.institution_name),
      program: textNames(norm, claims.program_name),
    },
    text: extracted.text.slice(0, TEXT_PREVIEW_CHARS),
    tamperSignals: [...signals],
    pageCount: extracted.pageCount,
    pagesRead: extracted.pagesRead,
    ...(producer ? { producer } : {}),
    ...(creator ? { creator } : {}),
  };
}

interface PdfInfo {
  Producer?: string;
  Creator?: string;
  CreationDate?: string;
  ModDate?: string;
}

async function extractText(
  bytes: Uint8Array,
  maxPages: number,
  deadline: number,
): Promise<{ text: string; pageCount: number; pagesRead: number; info: PdfInfo; signals: string[] }> {
  const task = getDocument({
    data: new Uint8Array(bytes), // pdfjs may detach the buffer it is given
    isEvalSupported: false,
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
        return { text: '', pageCount: 0, pagesRead: 0, info: {}, signals: ['The PDF is password-protected, so its text could not be read.'] };
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
    return { text, pageCount, pagesRead, info, signals: [] };
  } finally {
    clearTimeout(timer);
    await task.destroy().catch(() => undefined);
  }
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
