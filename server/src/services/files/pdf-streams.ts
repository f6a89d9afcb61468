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

const MB = 1024 * 1024;

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
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const raw = buf.toString('latin1');
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

interface Decoded {
  length: number;
  /** The output, when kept for a next filter. */
  bytes?: Uint8Array;
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

/** The filters decoded in JavaScript (all bounded by `cap`; only counted when not kept). */
function decodeInJs(f: 'hex' | 'a85' | 'lzw' | 'rl', data: Uint8Array, cap: number, keep: boolean): Decoded {
  const out = new Sink(cap, keep);
  if (f === 'hex') hexDecode(data, out);
  else if (f === 'a85') a85Decode(data, out);
  else if (f === 'lzw') lzwDecode(data, out);
  else runLengthDecode(data, out);
  return out.result();
}

/** Collects (or only counts) decoded bytes; `full` once past the cap. */
class Sink {
  length = 0;
  private parts: Uint8Array[] = [];
  private pending: number[] = [];
  constructor(
    private readonly cap: number,
    readonly keep: boolean,
  ) {}
  get full() {
    return this.length > this.cap;
  }
  byte(b: number) {
    this.length++;
    if (this.keep) {
      this.pending.push(b);
      if (this.pending.length >= 64 * 1024) this.flush();
    }
  }
  bytes(b: Uint8Array) {
    this.length += b.length;
    if (this.keep) {
      this.flush();
      this.parts.push(b);
    }
  }
  /** `count` bytes whose values do not matter (counting only). */
  skip(count: number, value: number) {
    if (!this.keep) this.length += count;
    else for (let i = 0; i < count && !this.full; i++) this.byte(value);
  }
  private flush() {
    if (this.pending.length) this.parts.push(Uint8Array.from(this.pending));
    this.pending = [];
  }
  result(): Decoded {
    this.flush();
    return { length: this.length, bytes: this.keep ? new Uint8Array(Buffer.concat(this.parts)) : undefined };
  }
}

function hexDecode(data: Uint8Array, out: Sink) {
  let high = -1;
  for (let i = 0; i < data.length && !out.full; i++) {
    const c = data[i];
    if (c === 0x3e) break; // '>'
    const v = c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x41 && c <= 0x46 ? c - 0x37 : c >= 0x61 && c <= 0x66 ? c - 0x57 : -1;
    if (v < 0) continue;
    if (high < 0) high = v;
    else {
      out.byte((high << 4) | v);
      high = -1;
    }
  }
  if (high >= 0 && !out.full) out.byte(high << 4);
}

function a85Decode(data: Uint8Array, out: Sink) {
  const group: number[] = [];
  for (let i = 0; i < data.length && !out.full; i++) {
    const c = data[i];
    if (c === 0x7e) break; // '~>'
    if (c === 0x7a && group.length === 0) {
      out.skip(4, 0); // 'z': four zero bytes
      continue;
    }
    if (c < 0x21 || c > 0x75) continue;
    group.push(c - 0x21);
    if (group.length === 5) {
      const v = group.reduce((n, d) => n * 85 + d, 0);
      for (let k = 3; k >= 0; k--) out.byte(Math.floor(v / 256 ** k) & 0xff);
      group.length = 0;
    }
  }
  if (group.length > 1 && !out.full) {
    const n = group.length;
    while (group.length < 5) group.push(84);
    const v = group.reduce((acc, d) => acc * 85 + d, 0);
    for (let k = 3; k > 4 - n; k--) out.byte(Math.floor(v / 256 ** k) & 0xff);
  }
}

function runLengthDecode(data: Uint8Array, out: Sink) {
  for (let i = 0; i < data.length && !out.full; ) {
    const n = data[i++];
    if (n === 128) break;
    if (n < 128) {
      out.bytes(data.subarray(i, i + n + 1));
      i += n + 1;
    } else {
      out.skip(257 - n, data[i] ?? 0);
      i++;
    }
  }
}

/** PDF LZW (early change 1, the default): variable codes of 9–12 bits, 256 clear, 257 end. */
function lzwDecode(data: Uint8Array, out: Sink) {
  const prefix = new Int32Array(4096);
  const suffix = new Uint8Array(4096);
  const first = new Uint8Array(4096);
  const length = new Int32Array(4096);
  for (let i = 0; i < 256; i++) {
    prefix[i] = -1;
    suffix[i] = i;
    first[i] = i;
    length[i] = 1;
  }
  const scratch = new Uint8Array(4097);
  /** Writes the string of `code` (plus `extra` when ≥ 0: the KwKwK case). */
  const emit = (code: number, extra: number) => {
    const n = length[code];
    if (!out.keep) return out.skip(n + (extra >= 0 ? 1 : 0), 0);
    for (let c = code, k = n - 1; k >= 0; k--, c = prefix[c]) scratch[k] = suffix[c];
    if (extra >= 0) scratch[n] = extra;
    out.bytes(scratch.slice(0, extra >= 0 ? n + 1 : n));
  };
  let next = 258;
  let bits = 9;
  let prev = -1;
  let acc = 0;
  let accBits = 0;
  for (let i = 0; i < data.length && !out.full; i++) {
    acc = ((acc << 8) | data[i]) >>> 0;
    accBits += 8;
    while (accBits >= bits && !out.full) {
      const code = (acc >>> (accBits - bits)) & ((1 << bits) - 1);
      accBits -= bits;
      acc &= (1 << accBits) - 1;
      if (code === 256) {
        next = 258;
        bits = 9;
        prev = -1;
        continue;
      }
      if (code === 257) return;
      let head: number;
      if (code < next) {
        emit(code, -1);
        head = first[code];
      } else if (code === next && prev >= 0) {
        head = first[prev]; // KwKwK: the previous string plus its own first byte
        emit(prev, head);
      } else return; // damaged
      if (prev >= 0 && next < 4096) {
        prefix[next] = prev;
        suffix[next] = head;
        first[next] = first[prev];
        length[next] = length[prev] + 1;
        next++;
      }
      prev = code;
      if (next + 1 >= 1 << bits && bits < 12) bits++;
    }
  }
}
