// pdfjs inflates a PDF's images (FlateDecode) through the web platform's DecompressionStream. In
// Node that is zlib run in 16 KB chunks, each a trip through the thread pool and a web-stream promise:
// ~6 ms of CPU for a 1 MB photo, where zlib's one-call inflate takes ~1 ms (measured on this machine).
// A reader process gives pdfjs a DecompressionStream that gathers the input and inflates it in one
// call at the end. It is installed only where pdfjs runs (read.ts: reader processes and their tests).
//
// What goes in has been measured first (measurePdfStreams, in read.ts or for these very bytes at
// upload: decompression bombs are refused before pdfjs decodes anything); the output is capped as
// well, so that nothing here can be made to hold more than the largest stream a read may decode.
// Errors are those of the stream it replaces: corrupt or truncated data errors the readable side, and
// pdfjs falls back to its own decoder.
import { inflateRawSync, inflateSync, gunzipSync, type ZlibOptions } from 'node:zlib';
import { PDF_STREAM_LIMITS } from '../files/pdf-streams.js';

type Format = 'deflate' | 'deflate-raw' | 'gzip';
const ONE_CALL: Record<Format, (bytes: Buffer, opts: ZlibOptions) => Buffer> = {
  deflate: inflateSync,
  'deflate-raw': inflateRawSync,
  gzip: gunzipSync,
};

/** The most one stream may inflate to (larger input errors, as a broken stream does). */
export const MAX_INFLATED_BYTES = Math.max(PDF_STREAM_LIMITS.maxDecodedBytes, PDF_STREAM_LIMITS.maxImageBytes);

/** DecompressionStream's shape and formats, inflated in one call once the input has ended. */
export class OneCallDecompressionStream extends TransformStream<BufferSource, Uint8Array> {
  constructor(format: string, maxBytes = MAX_INFLATED_BYTES) {
    const inflate = ONE_CALL[format as Format];
    // Same as the platform's for any other name: a TypeError (pdfjs asks for "brotli", then falls back).
    if (!inflate) throw new TypeError(`The provided value '${format}' is not a valid enum value of type CompressionFormat.`);
    const chunks: Buffer[] = [];
    super({
      transform(chunk) {
        const view = ArrayBuffer.isView(chunk) ? chunk : new Uint8Array(chunk);
        chunks.push(Buffer.from(view.buffer, view.byteOffset, view.byteLength));
      },
      flush(controller) {
        const out = inflate(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks), { maxOutputLength: maxBytes });
        chunks.length = 0;
        controller.enqueue(new Uint8Array(out.buffer, out.byteOffset, out.byteLength));
      },
    });
  }
}

/** Makes pdfjs (and anything else in this process) inflate in one call. */
export function installOneCallInflate(): void {
  globalThis.DecompressionStream = OneCallDecompressionStream as unknown as typeof DecompressionStream;
}

/** The platform's own (taken before anything installs this one), for tests that compare against it. */
export const NativeDecompressionStream = globalThis.DecompressionStream;
