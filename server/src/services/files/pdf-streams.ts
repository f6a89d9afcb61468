// What a PDF's streams decode to, measured without holding the output: decompression bombs (a small
// file whose content stream inflates to gigabytes) are found before any PDF reader decodes them.
//
// Streams are found in the raw bytes (`<< … >> stream … endstream`): streams are always top-level
// objects (never inside object streams), so a byte scan sees them all, whatever the cross-reference
// table says. Each stream's filters are applied in order with a byte cap: Flate through zlib's
// streaming inflate (in the thread pool, off the event loop), ASCIIHex, ASCII85, LZW and RunLength in
// JavaScript; the decoded bytes of the last filter are only counted. Image codecs (DCT, JPX, JBIG2,
// CCITT) end the chain: readers bound what those decode by pixels (pdfjs maxImageSize). Encrypted
// streams do not inflate (their bytes are ciphertext) and count as their stored size.
import { createInflate } from 'node:zlib';
import { decodeInJs, type Decoded } from './pdf-filters.js';

const MB = 1024 * 1024;

/** The bytes as a string of one character per byte (what the stream scan searches). */
const latin1 = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('latin1');

export interface PdfStreamLimits {
  /** Everything but images together (content streams, fonts, object streams, …). */
  maxDecodedBytes: number;
  /** Image streams together; each must also stay within the raw size its /Width and /Height declare. */
  maxImageBytes: number;
  /** Largest image an image stream may declare (pixels); a larger one counts as non-image data. */
  maxImagePixels: number;
}

/**
 * A certificate's content streams and fonts decode to a few MB at most; scanned pages are images
 * (an A4 page at 300 dpi in RGB is ~26 MB raw).
 */
export const PDF_STREAM_LIMITS: PdfStreamLimits = { maxDecodedBytes: 50 * MB, maxImageBytes: 256 * MB, maxImagePixels: 40_000_000 };

export interface PdfStreamMeasure {
  /** Streams found. */
  streams: number;
  /** Decoded bytes of non-image streams (up to the point the limit was passed). */
  decodedBytes: number;
  /** Decoded bytes of image streams. */
  imageBytes: number;
  /** Which limit was passed, if any (measuring stops there). */
  over: null | 'decoded' | 'images';
}

/** Measures every stream of `bytes` against `limits`; stops at the first limit passed. */
export async function measurePdfStreams(bytes: Uint8Array, limits: PdfStreamLimits = PDF_STREAM_LIMITS): Promise<PdfStreamMeasure> {
  const raw = latin1(bytes);
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const result: PdfStreamMeasure = { streams: 0, decodedBytes: 0, imageBytes: 0, over: null };
  const countDecoded = (n: number) => {
    result.decodedBytes += n;
    if (result.decodedBytes > limits.maxDecodedBytes) result.over = 'decoded';
  };
  for (let at = raw.indexOf('stream'); at >= 0; at = raw.indexOf('stream', at + 6)) {
    if (raw.slice(Math.max(0, at - 3), at) === 'end') continue; // "endstream"
    // Readers skip whatever follows the keyword up to the end of the line (pdfjs does).
    const eol = /\r\n|\n|\r/.exec(raw.slice(at + 6, at + 6 + 1024));
    if (!eol) continue;
    const start = at + 6 + eol.index + eol[0].length;
    const dict = dictionaryBefore(raw, at);
    if (dict === null) {
      // No dictionary found (a comment trick, or the word inside some string): Flate data is still
      // recognised by its zlib header. Scanning goes on inside it, so a real stream is not skipped.
      const end = streamEnd(raw, '', start);
      const data = buf.subarray(start, end);
      if (!isZlibHeader(data)) continue;
      result.streams++;
      countDecoded(await decodedLength(data, ['flate'], limits.maxDecodedBytes - result.decodedBytes));
      if (result.over) return result;
      continue;
    }
    const end = streamEnd(raw, dict, start);
    at = Math.max(at, end - 6); // the stream's bytes are data, not syntax
    result.streams++;
    const data = buf.subarray(start, end);
    const filters = filtersOf(dict);
    const image = imageBound(dict, limits.maxImagePixels);
    if (image !== null) {
      // An image may decode to its declared raw size and no more; past that it is not what it says
      // and counts with everything else below.
      const budgetLeft = limits.maxImageBytes - result.imageBytes;
      const cap = Math.min(image, budgetLeft);
      const n = await decodedLength(data, filters, cap);
      if (n <= cap) {
        result.imageBytes += n;
        continue;
      }
      if (budgetLeft < image) {
        result.imageBytes += n;
        result.over = 'images';
        return result;
      }
    }
    countDecoded(await decodedLength(data, filters, limits.maxDecodedBytes - result.decodedBytes));
    if (result.over) return result;
  }
  return result;
}

/**
 * The dictionary right before a `stream` keyword (`<< … >>`, nesting balanced), or null. Whitespace
 * and comments may stand between them (`>> % note` on the line before).
 */
function dictionaryBefore(raw: string, at: number): string | null {
  let i = at - 1;
  for (let lines = 0; ; lines++) {
    while (i >= 0 && /\s/.test(raw[i])) i--;
    if (raw[i] === '>' && raw[i - 1] === '>') break;
    // A comment runs from '%' to the end of its line: drop it and look again.
    const lineStart = Math.max(raw.lastIndexOf('\n', i), raw.lastIndexOf('\r', i)) + 1;
    const comment = raw.indexOf('%', lineStart);
    if (lines >= 16 || comment < 0 || comment > i) return null;
    i = comment - 1;
  }
  const close = i + 1;
  let depth = 0;
  const stop = Math.max(0, at - 64 * 1024);
  for (; i > stop; i--) {
    if (raw[i] === '>' && raw[i - 1] === '>') {
      depth++;
      i--;
    } else if (raw[i] === '<' && raw[i - 1] === '<') {
      depth--;
      i--;
      if (depth === 0) return raw.slice(i, close);
    }
  }
  return null;
}

/** Where the stream's data ends: its /Length when that lands on `endstream`, else the next `endstream`. */
function streamEnd(raw: string, dict: string, start: number): number {
  const declared = /\/Length\s+(\d+)\b(?!\s+\d+\s+R)/.exec(dict);
  if (declared) {
    const end = start + Number(declared[1]);
    if (end <= raw.length && /^\s*endstream/.test(raw.slice(end, end + 32))) return end;
  }
  const found = raw.indexOf('endstream', start);
  if (found < 0) return raw.length;
  let end = found;
  if (raw[end - 1] === '\n') end--;
  if (raw[end - 1] === '\r') end--;
  return Math.max(start, end);
}

const FILTER_NAMES: Record<string, Filter> = {
  FlateDecode: 'flate',
  Fl: 'flate',
  ASCIIHexDecode: 'hex',
  AHx: 'hex',
  ASCII85Decode: 'a85',
  A85: 'a85',
  LZWDecode: 'lzw',
  LZW: 'lzw',
  RunLengthDecode: 'rl',
  RL: 'rl',
};
type Filter = 'flate' | 'hex' | 'a85' | 'lzw' | 'rl' | 'other' | 'sniff';

/** The stream's filters in order. An indirect or unreadable /Filter: guess Flate from the zlib header. */
function filtersOf(dict: string): Filter[] {
  const m = /\/Filter\s*(\[[^\]]*\]|\/[^\s/<>[\]()]+|\d+\s+\d+\s+R)/.exec(dict);
  if (!m) return [];
  if (/R$/.test(m[1])) return ['sniff'];
  return [...m[1].matchAll(/\/([^\s/<>[\]()]+)/g)].map((n) => FILTER_NAMES[n[1]] ?? 'other');
}

/** Largest raw size an image stream may decode to (4 components, 16-bit, PNG predictor bytes), or null when not an image. */
function imageBound(dict: string, maxPixels: number): number | null {
  if (!/\/Subtype\s*\/Image\b/.test(dict)) return null;
  const width = Number(/\/Width\s+(\d+)/.exec(dict)?.[1] ?? NaN);
  const height = Number(/\/Height\s+(\d+)/.exec(dict)?.[1] ?? NaN);
  if (!(width > 0 && height > 0) || width * height > maxPixels) return null;
  const bpc = Number(/\/BitsPerComponent\s+(\d+)/.exec(dict)?.[1] ?? 8);
  const bytesPerPixel = 4 * (bpc > 8 ? 2 : 1);
  return (width * bytesPerPixel + 1) * height + 4096;
}

const isZlibHeader = (b: Uint8Array) => b.length >= 2 && (b[0] & 0x0f) === 8 && ((b[0] << 8) | b[1]) % 31 === 0;

/**
 * Decoded length of `data` through `filters`, or a number over `cap` as soon as it passes it. Damaged
 * data counts what decoded before the damage.
 */
async function decodedLength(data: Uint8Array, filters: Filter[], cap: number): Promise<number> {
  let cur: Uint8Array = data;
  for (let i = 0; i < filters.length; i++) {
    const last = i === filters.length - 1;
    const f: Exclude<Filter, 'sniff'> = filters[i] === 'sniff' ? (isZlibHeader(cur) ? 'flate' : 'other') : (filters[i] as Exclude<Filter, 'sniff'>);
    if (f === 'other') break; // an image codec or a filter we do not decode: its input is what counts
    const out = f === 'flate' ? await inflateCapped(cur, cap, !last) : decodeInJs(f, cur, cap, !last);
    if (out.length > cap || last) return out.length;
    cur = out.bytes!;
  }
  return cur.length;
}

/** zlib inflate (thread pool), stopping once more than `cap` bytes came out. */
function inflateCapped(data: Uint8Array, cap: number, keep: boolean): Promise<Decoded> {
  return new Promise((resolve) => {
    const inflate = createInflate({ chunkSize: 64 * 1024 });
    const parts: Buffer[] = [];
    let length = 0;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      resolve({ length, bytes: keep ? Buffer.concat(parts) : undefined });
    };
    inflate.on('data', (chunk: Buffer) => {
      if (done) return;
      length += chunk.length;
      if (keep) parts.push(chunk);
      if (length > cap) {
        finish();
        inflate.destroy();
      }
    });
    inflate.on('end', finish);
    inflate.on('error', finish); // damaged or encrypted data: what came out so far
    inflate.on('close', finish);
    inflate.end(data);
  });
}
