import { PDFArray, PDFDict, PDFDocument, PDFInvalidObject, PDFName, PDFRef, PDFStream, type PDFObject } from 'pdf-lib';
import { measurePdfStreams, PDF_STREAM_LIMITS } from './pdf-streams.js';
import { corrupt, FileRejectedError, MAX_PDF_PAGES, type CheckedPdf } from './rejection.js';

// The PDF checks of an upload: it parses completely, has no active content (JavaScript, launch
// actions, attached files), a bounded page tree without loops, and no decompression bomb.

/** Real PDFs nest a handful of levels; parsers recurse on nesting, so a deep file is an attack. */
const MAX_PDF_NESTING = 100;
/** Incremental saves each add a cross-reference section; more than this is not a certificate. */
const MAX_XREF_SECTIONS = 1000;

/** Refuses what a certificate PDF may not be; what it measured of one it accepts (CheckedPdf). */
export async function checkPdf(bytes: Uint8Array): Promise<CheckedPdf> {
  // pdf-lib recovers objects from damaged files, so it alone would accept a truncated PDF:
  // a complete file ends with the %%EOF marker (allowing trailing whitespace/junk).
  const tail = Buffer.from(bytes.buffer, bytes.byteOffset + Math.max(0, bytes.length - 1024), Math.min(bytes.length, 1024)).toString('latin1');
  if (!tail.includes('%%EOF')) throw corrupt('pdf', 'the end of the file is missing');
  // Readers follow /Prev from section to section: a chain that loops never ends for some of them.
  if (xrefChainLoops(bytes)) throw corrupt('pdf', 'its cross-reference table points back to itself');
  // Decompression bombs, before any parser decodes a stream (pdf-lib inflates object streams on load).
  const streams = await measurePdfStreams(bytes);
  if (streams.over) throw tooComplex(streams.over);
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false, throwOnInvalidObject: false });
  } catch (err) {
    throw corrupt('pdf', 'it could not be read');
  }
  let pages: ReturnType<typeof countPages>;
  let found: ActiveContent;
  try {
    pages = countPages(doc);
    found = activeContent(doc);
  } catch {
    throw corrupt('pdf', 'it could not be read'); // e.g. no catalog: pdf-lib's getters throw
  }
  if (pages === 'loop') throw corrupt('pdf', 'its page tree loops back on itself');
  if (pages === 'too_many') throw tooManyPages(`more than ${MAX_PDF_PAGES}`);
  if (pages < 1) throw corrupt('pdf', 'it has no pages');
  if (found.tooDeep) throw corrupt('pdf', 'its structure is nested too deeply');
  if (found.javascript) {
    throw new FileRejectedError(
      'active_content',
      'This PDF contains JavaScript, which a certificate cannot carry. Please export it again without scripts (for example with "Print to PDF") and re-upload.',
    );
  }
  if (found.launch) {
    throw new FileRejectedError(
      'active_content',
      'This PDF contains an action that starts another program (Launch), which a certificate cannot carry. Please export it again without actions (for example with "Print to PDF") and re-upload.',
    );
  }
  if (found.embeddedFiles) {
    throw new FileRejectedError(
      'active_content',
      'This PDF contains attached files, which a certificate cannot carry. Please remove the attachments (or export it again with "Print to PDF") and re-upload.',
    );
  }
  // Many certificates are encrypted only to forbid editing (empty open password): those are fine.
  // One that needs a password to open cannot be read or verified, so say so now.
  if (doc.isEncrypted && (await needsOpenPassword(bytes))) {
    throw new FileRejectedError('password_protected', 'This PDF is password-protected. Please upload a copy that opens without a password.');
  }
  return { streamLimits: PDF_STREAM_LIMITS };
}

function tooComplex(over: 'decoded' | 'images'): FileRejectedError {
  const mb = (n: number) => `${Math.round(n / 1024 / 1024)} MB`;
  return new FileRejectedError(
    'too_complex',
    over === 'images'
      ? `This PDF's images expand to more than ${mb(PDF_STREAM_LIMITS.maxImageBytes)} when opened, too much to check. Please export it again with fewer or smaller images (a scan at 300 dpi is enough) and re-upload.`
      : `This PDF is too complex to check: its compressed contents expand to more than ${mb(PDF_STREAM_LIMITS.maxDecodedBytes)} when opened (a certificate's take a few MB). Please export it again (for example with "Print to PDF") and re-upload.`,
  );
}

function tooManyPages(count: string): FileRejectedError {
  return new FileRejectedError(
    'too_many_pages',
    `This PDF has ${count} pages. A certificate can have at most ${MAX_PDF_PAGES} pages; please upload only the certificate's pages.`,
  );
}

/**
 * Follows startxref and each section's /Prev (tables and xref streams). True when an offset comes
 * back (or the chain is absurdly long). Offsets that point nowhere are left to the parsers, which
 * rebuild the table by scanning the file.
 */
function xrefChainLoops(bytes: Uint8Array): boolean {
  const text = (from: number, to: number) => Buffer.from(bytes.buffer, bytes.byteOffset + from, Math.max(0, Math.min(to, bytes.length) - from)).toString('latin1');
  const tail = text(Math.max(0, bytes.length - 1024), bytes.length);
  const start = /startxref\s+(\d+)\s+%%EOF(?![\s\S]*startxref)/.exec(tail);
  let offset = start ? Number(start[1]) : NaN;
  const seen = new Set<number>();
  while (Number.isSafeInteger(offset) && offset >= 0 && offset < bytes.length) {
    if (seen.has(offset) || seen.size >= MAX_XREF_SECTIONS) return true;
    seen.add(offset);
    // The section's dictionary: a table's trailer (before the next startxref) or an xref stream's dict.
    const head = text(offset, offset + 32);
    let dict: string;
    if (/^\s*xref\b/.test(head)) {
      const window = text(offset, offset + 4 * 1024 * 1024);
      const trailer = window.indexOf('trailer');
      if (trailer < 0) return false;
      const end = window.indexOf('startxref', trailer);
      dict = window.slice(trailer, end < 0 ? trailer + 4096 : end);
    } else if (/^\s*\d+\s+\d+\s+obj\b/.test(head)) {
      const window = text(offset, offset + 64 * 1024);
      const end = window.indexOf('stream');
      dict = window.slice(0, end < 0 ? 4096 : end);
    } else return false;
    const prev = /\/Prev\s+(\d+)/.exec(dict);
    offset = prev ? Number(prev[1]) : NaN;
  }
  return false;
}

const TYPE = PDFName.of('Type');
const KIDS = PDFName.of('Kids');
const PARENT = PDFName.of('Parent');

/**
 * Counts pages by walking the page tree from the catalog, never trusting /Count (it can lie) and
 * stopping early: a node met twice (a /Kids or /Parent cycle) is 'loop', more than MAX_PDF_PAGES
 * leaves is 'too_many'. A leaf listed several times counts each time, as readers show it so.
 */
function countPages(doc: PDFDocument): number | 'loop' | 'too_many' {
  const ctx = doc.context;
  const root = doc.catalog.get(PDFName.of('Pages'));
  const stack: { obj: PDFObject | undefined; path: Set<string> }[] = [{ obj: root, path: new Set() }];
  const seenNodes = new Set<string>();
  let pages = 0;
  while (stack.length) {
    const { obj, path } = stack.pop()!;
    const key = obj instanceof PDFRef ? obj.tag : null;
    const node = obj instanceof PDFRef ? ctx.lookup(obj) : obj;
    if (!(node instanceof PDFDict)) continue;
    if (key && path.has(key)) return 'loop';
    const kids = node.get(KIDS);
    const kidsArray = kids instanceof PDFRef ? ctx.lookup(kids) : kids;
    const isLeaf = node.get(TYPE) === PDFName.of('Page') || !(kidsArray instanceof PDFArray);
    if (isLeaf) {
      if (++pages > MAX_PDF_PAGES) return 'too_many';
      if (parentChainLoops(doc, node)) return 'loop';
      continue;
    }
    // An intermediate node reached twice is a cycle or a shared subtree: either way not a tree.
    if (key) {
      if (seenNodes.has(key)) return 'loop';
      seenNodes.add(key);
    }
    const childPath = new Set(path);
    if (key) childPath.add(key);
    if (childPath.size > MAX_PDF_NESTING) return 'loop';
    const arr = kidsArray as PDFArray;
    for (let i = arr.size() - 1; i >= 0; i--) stack.push({ obj: arr.get(i), path: childPath });
  }
  return pages;
}

/** Readers climb /Parent to inherit page attributes (MediaBox, Resources): that climb must end. */
function parentChainLoops(doc: PDFDocument, page: PDFDict): boolean {
  const seen = new Set<string>();
  let parent = page.get(PARENT);
  for (let steps = 0; parent instanceof PDFRef; steps++) {
    if (seen.has(parent.tag) || steps > MAX_PDF_NESTING) return true;
    seen.add(parent.tag);
    const dict = doc.context.lookup(parent);
    parent = dict instanceof PDFDict ? dict.get(PARENT) : undefined;
  }
  return false;
}

interface ActiveContent {
  javascript: boolean;
  launch: boolean;
  embeddedFiles: boolean;
  tooDeep: boolean;
}

/**
 * Walks every object pdf-lib parsed (also those inside compressed object streams) for scripts,
 * launch actions and attachments, by structure rather than by searching the bytes: compressed
 * data can contain "/JS" by chance, and object streams hide the real names from a byte search.
 */
function activeContent(doc: PDFDocument): ActiveContent {
  const found: ActiveContent = { javascript: false, launch: false, embeddedFiles: false, tooDeep: false };
  const JS = PDFName.of('JS');
  const S = PDFName.of('S');
  const JAVASCRIPT = PDFName.of('JavaScript');
  const visit = (obj: PDFObject | undefined, depth: number): void => {
    if (!obj || found.tooDeep) return;
    if (depth > MAX_PDF_NESTING) {
      found.tooDeep = true;
      return;
    }
    if (obj instanceof PDFStream) return visit(obj.dict, depth + 1);
    if (obj instanceof PDFArray) {
      for (let i = 0; i < obj.size(); i++) visit(obj.get(i), depth + 1);
      return;
    }
    if (!(obj instanceof PDFDict)) return;
    const s = obj.get(S);
    // /JavaScript as a key is the document-level script name tree (in /Names).
    if (obj.has(JS) || s === JAVASCRIPT || obj.has(JAVASCRIPT)) found.javascript = true;
    if (s === PDFName.of('Launch')) found.launch = true;
    const type = obj.get(TYPE);
    if (type === PDFName.of('EmbeddedFile') || obj.has(PDFName.of('EmbeddedFiles')) || (type === PDFName.of('Filespec') && obj.has(PDFName.of('EF')))) {
      found.embeddedFiles = true;
    }
    for (const [, value] of obj.entries()) visit(value, depth + 1);
  };
  for (const [, obj] of doc.context.enumerateIndirectObjects()) {
    // An object pdf-lib could not parse (it keeps the raw bytes): refused when that is because of nesting.
    if (obj instanceof PDFInvalidObject) {
      if (rawNesting(obj) > MAX_PDF_NESTING) found.tooDeep = true;
      continue;
    }
    visit(obj, 0);
  }
  return found;
}

/** Deepest [ / << nesting in raw PDF syntax (strings skipped roughly: enough to spot an attack). */
function rawNesting(obj: PDFInvalidObject): number {
  const raw = new Uint8Array(obj.sizeInBytes());
  obj.copyBytesInto(raw, 0);
  let depth = 0;
  let max = 0;
  let inString = 0;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (inString) {
      if (c === 0x5c) i++; // backslash escape
      else if (c === 0x28) inString++;
      else if (c === 0x29) inString--;
      continue;
    }
    if (c === 0x28) inString = 1;
    else if (c === 0x5b || (c === 0x3c && raw[i + 1] === 0x3c)) {
      if (c === 0x3c) i++;
      if (++depth > max) max = depth;
    } else if (c === 0x5d || (c === 0x3e && raw[i + 1] === 0x3e)) {
      if (c === 0x3e) i++;
      depth--;
    }
  }
  return max;
}

async function needsOpenPassword(bytes: Uint8Array): Promise<boolean> {
  const { getDocument, VerbosityLevel } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const task = getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, verbosity: VerbosityLevel.ERRORS });
  try {
    await task.promise;
    return false;
  } catch (err) {
    return (err as { name?: string })?.name === 'PasswordException';
  } finally {
    await task.destroy().catch(() => undefined);
  }
}
