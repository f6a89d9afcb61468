// The reader's DecompressionStream (inflate.ts) must behave as the platform's does for every input
// pdfjs may hand it (a PDF's streams are the uploader's), and pdfjs must draw the same page with it.
import { deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { PDFDocument } from 'pdf-lib';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import sharp from 'sharp';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NativeDecompressionStream, OneCallDecompressionStream } from './inflate.js';
import { canvasFactory } from './visible/draw.js';
import type { Ctx } from './visible/pdfjs-internals.js';

type Ctor = new (format: string) => { readable: ReadableStream<Uint8Array>; writable: WritableStream<BufferSource> };

/** Feeds `bytes` as pdfjs does (one write, then close) and reads everything back: the bytes, or the error's name. */
async function inflate(Stream: Ctor, format: string, bytes: Uint8Array): Promise<{ bytes: Buffer } | { error: string }> {
  try {
    const { readable, writable } = new Stream(format);
    const writer = writable.getWriter();
    await writer.ready;
    writer
      .write(bytes as Uint8Array<ArrayBuffer>)
      .then(() => writer.close())
      .catch(() => undefined);
    const chunks: Uint8Array[] = [];
    const reader = readable.getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
    return { bytes: Buffer.concat(chunks) };
  } catch (e) {
    return { error: (e as Error).name };
  }
}

const text = Buffer.from('Certificate of Completion, awarded to a holder. '.repeat(500));
const packed = { deflate: deflateSync(text), 'deflate-raw': deflateRawSync(text), gzip: gzipSync(text) };

describe('one-call inflate (inflate.ts), against the platform DecompressionStream', () => {
  for (const [format, good] of Object.entries(packed)) {
    const inputs: Record<string, Uint8Array> = {
      whole: good,
      truncated: good.subarray(0, good.length - 10),
      'without its checksum': good.subarray(0, good.length - 4),
      'with bytes after its end': Buffer.concat([good, Buffer.from('endstream garbage')]),
      corrupt: Buffer.concat([good.subarray(0, 12), Buffer.alloc(24, 0xff), good.subarray(36)]),
      'not compressed at all': Buffer.from('BT /F1 12 Tf (hello) Tj ET'),
      empty: new Uint8Array(0),
    };
    for (const [name, input] of Object.entries(inputs)) {
      it(`${format}, ${name}: the same bytes or the same failure`, async () => {
        const native = await inflate(NativeDecompressionStream as unknown as Ctor, format, input);
        const ours = await inflate(OneCallDecompressionStream, format, input);
        expect(ours).toEqual(native);
        if (name === 'whole') expect(ours).toEqual({ bytes: text });
      });
    }
  }

  it('refuses a format it does not know as the platform does (pdfjs tries "brotli", then decodes itself)', async () => {
    expect(await inflate(OneCallDecompressionStream, 'brotli', packed.deflate)).toEqual({ error: 'TypeError' });
    expect(await inflate(NativeDecompressionStream as unknown as Ctor, 'brotli', packed.deflate)).toEqual({ error: 'TypeError' });
  });

  it('errors instead of holding more than its cap (a small deflate stream that inflates to a lot)', async () => {
    const bomb = deflateSync(Buffer.alloc(8 * 1024 * 1024)); // 8 MB of zeros in ~8 KB
    expect(bomb.length).toBeLessThan(16 * 1024);
    const capped = class extends OneCallDecompressionStream {
      constructor(format: string) {
        super(format, 1024 * 1024);
      }
    };
    expect(await inflate(capped, 'deflate', bomb)).toEqual({ error: 'RangeError' });
    const uncapped = await inflate(OneCallDecompressionStream, 'deflate', bomb);
    expect('bytes' in uncapped && uncapped.bytes.length).toBe(8 * 1024 * 1024);
  });
});

describe('pdfjs with the one-call inflate', () => {
  const installed = globalThis.DecompressionStream;
  afterEach(() => {
    globalThis.DecompressionStream = installed;
  });

  /** A page with a photo-like PNG (FlateDecode), drawn by pdfjs with `Stream` as the platform's DecompressionStream. */
  async function drawWith(Stream: Ctor, pdf: Uint8Array): Promise<{ pixels: Buffer; inflates: number }> {
    let inflates = 0;
    globalThis.DecompressionStream = class extends (Stream as unknown as typeof DecompressionStream) {
      constructor(format: CompressionFormat) {
        super(format);
        inflates++;
      }
    };
    const doc = await getDocument({ data: pdf.slice(), isEvalSupported: false, isOffscreenCanvasSupported: false, isImageDecoderSupported: false, disableFontFace: true, verbosity: 0 }).promise;
    const page = await doc.getPage(1);
    const viewport = page.getViewport({ scale: 1 });
    const canvas = canvasFactory()(Math.ceil(viewport.width), Math.ceil(viewport.height));
    const ctx = canvas.getContext('2d') as Ctx;
    await page.render({ canvas: null, canvasContext: ctx as unknown as CanvasRenderingContext2D, viewport }).promise;
    const pixels = Buffer.from(ctx.getImageData(0, 0, canvas.width, canvas.height).data);
    await doc.destroy();
    return { pixels, inflates };
  }

  it('draws a page with a compressed photo exactly as with the platform DecompressionStream', async () => {
    const raw = Buffer.alloc(300 * 200 * 3);
    let x = 99;
    for (let i = 0; i < raw.length; i++) raw[i] = (x = (x * 1103515245 + 12345) >>> 0) >>> 24;
    const doc = await PDFDocument.create();
    const p = doc.addPage([400, 300]);
    p.drawImage(await doc.embedPng(await sharp(raw, { raw: { width: 300, height: 200, channels: 3 } }).png().toBuffer()), { x: 50, y: 50, width: 300, height: 200 });
    const pdf = await doc.save();

    const platform = await drawWith(NativeDecompressionStream as unknown as Ctor, pdf);
    const oneCall = await drawWith(OneCallDecompressionStream, pdf);
    // Both really inflated the photo through the stream given (pdfjs did not fall back to its own decoder).
    expect(platform.inflates).toBeGreaterThan(0);
    expect(oneCall.inflates).toBe(platform.inflates);
    expect(oneCall.pixels.equals(platform.pixels)).toBe(true);
    expect(new Set(oneCall.pixels.subarray(400 * 4 * 150, 400 * 4 * 151)).size).toBeGreaterThan(50); // the photo is there
  });

  it('is what a reader process uses: loading read.ts installs it', async () => {
    globalThis.DecompressionStream = NativeDecompressionStream;
    vi.resetModules(); // read.ts (and a fresh inflate.ts) load anew, as in a reader process
    await import('./read.js');
    expect(globalThis.DecompressionStream).not.toBe(NativeDecompressionStream);
    expect(globalThis.DecompressionStream.name).toBe('OneCallDecompressionStream');
  });
});
