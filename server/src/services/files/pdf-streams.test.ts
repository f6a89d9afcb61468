import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { makeImage, makePdf } from '../../../test/fixtures/files.js';
import { measurePdfStreams, PDF_STREAM_LIMITS, type PdfStreamLimits } from './pdf-streams.js';
import { toPdf } from './to-pdf.js';

const MB = 1024 * 1024;
const small: PdfStreamLimits = { maxDecodedBytes: 1 * MB, maxImageBytes: 4 * MB, maxImagePixels: 40_000_000 };

/** A PDF of raw stream objects (dictionary text + data), enough for the byte scan. */
function pdfWithStreams(streams: { dict: string; data: Uint8Array }[]): Uint8Array {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n', 'latin1')];
  streams.forEach((s, i) => {
    parts.push(Buffer.from(`${i + 2} 0 obj\n<< ${s.dict} /Length ${s.data.length} >>\nstream\n`, 'latin1'), Buffer.from(s.data), Buffer.from('\nendstream\nendobj\n', 'latin1'));
  });
  parts.push(Buffer.from('trailer\n<< /Root 1 0 R >>\n%%EOF\n', 'latin1'));
  return new Uint8Array(Buffer.concat(parts));
}

const zeros = (n: number) => Buffer.alloc(n);

/** A plain LZW encoder (PDF's: 9–12 bit codes, early change), to check the decoder's lengths. */
function lzwEncode(input: Uint8Array): Uint8Array {
  const out: number[] = [];
  let acc = 0;
  let accBits = 0;
  let bits = 9;
  const put = (code: number) => {
    acc = (acc << bits) | code;
    accBits += bits;
    while (accBits >= 8) {
      out.push((acc >>> (accBits - 8)) & 0xff);
      accBits -= 8;
    }
    acc &= (1 << accBits) - 1;
  };
  let dict = new Map<number, number>(); // (prefix code << 8 | byte) → code
  let next = 258;
  put(256);
  let w = -1;
  for (const byte of input) {
    const known = w < 0 ? byte : dict.get((w << 8) | byte);
    if (known !== undefined) {
      w = known;
      continue;
    }
    put(w);
    dict.set((w << 8) | byte, next++);
    // The encoder's table is one entry ahead of the decoder's: it widens at 2^bits.
    if (next >= 1 << bits && bits < 12) bits++;
    if (next >= 4094) {
      put(256);
      dict = new Map();
      next = 258;
      bits = 9;
    }
    w = byte;
  }
  if (w >= 0) put(w);
  put(257);
  if (accBits) out.push((acc << (8 - accBits)) & 0xff);
  return Uint8Array.from(out);
}

describe('measurePdfStreams', () => {
  it('measures real PDFs (text, converted images) far under the product limits', async () => {
    for (const pdf of [await makePdf({ lines: ['Certificate of Completion'], pages: 20 }), await toPdf(await makeImage('png', 1200, 900), 'png'), await toPdf(await makeImage('jpeg', 2400, 1800), 'jpeg')]) {
      const m = await measurePdfStreams(pdf);
      expect(m.over).toBeNull();
      expect(m.streams).toBeGreaterThan(0);
      expect(m.decodedBytes).toBeLessThan(PDF_STREAM_LIMITS.maxDecodedBytes / 10);
    }
  });

  it('counts what each stream decodes to and stops past the limit without holding it', async () => {
    const ok = await measurePdfStreams(pdfWithStreams([{ dict: '/Filter /FlateDecode', data: deflateSync(zeros(MB / 2)) }]), small);
    expect(ok).toEqual({ streams: 1, decodedBytes: MB / 2, imageBytes: 0, over: null });
    const bomb = pdfWithStreams([{ dict: '/Filter /FlateDecode', data: deflateSync(zeros(1 * MB)) }, { dict: '/Filter [/FlateDecode]', data: deflateSync(zeros(64 * MB)) }]);
    const m = await measurePdfStreams(bomb, small);
    expect(m.over).toBe('decoded');
    expect(m.decodedBytes).toBeGreaterThan(small.maxDecodedBytes);
    expect(m.decodedBytes).toBeLessThan(small.maxDecodedBytes + 1 * MB); // stopped near the limit, not at 65 MB
  });

  it('follows filter chains: Flate inside Flate, or hidden behind ASCIIHex / ASCII85', async () => {
    const inner = deflateSync(zeros(8 * MB));
    const twice = deflateSync(inner);
    expect((await measurePdfStreams(pdfWithStreams([{ dict: '/Filter [/FlateDecode /FlateDecode]', data: twice }]), small)).over).toBe('decoded');
    const hex = Buffer.from(inner.toString('hex') + '>', 'latin1');
    expect((await measurePdfStreams(pdfWithStreams([{ dict: '/Filter [/ASCIIHexDecode /FlateDecode]', data: hex }]), small)).over).toBe('decoded');
    expect((await measurePdfStreams(pdfWithStreams([{ dict: '/Filter [/AHx /Fl]', data: Buffer.from(deflateSync(zeros(1000)).toString('hex'), 'latin1') }]), small)).decodedBytes).toBe(1000);
    // ASCII85: 'z' is four zero bytes.
    expect((await measurePdfStreams(pdfWithStreams([{ dict: '/Filter /ASCII85Decode', data: Buffer.from('z'.repeat(1000) + '~>', 'latin1') }]), small)).decodedBytes).toBe(4000);
    // An indirect /Filter: Flate is recognised by its zlib header.
    expect((await measurePdfStreams(pdfWithStreams([{ dict: '/Filter 9 0 R', data: deflateSync(zeros(2 * MB)) }]), small)).over).toBe('decoded');
  });

  it('decodes LZW and RunLength lengths', async () => {
    const text = Buffer.from('Certificate of Completion '.repeat(2000) + 'ABABABABABABABAB'.repeat(500), 'latin1');
    const lzw = lzwEncode(text);
    expect((await measurePdfStreams(pdfWithStreams([{ dict: '/Filter /LZWDecode', data: lzw }]), small)).decodedBytes).toBe(text.length);
    const zerosLzw = lzwEncode(zeros(3 * MB));
    expect(zerosLzw.length).toBeLessThan(30_000);
    expect((await measurePdfStreams(pdfWithStreams([{ dict: '/Filter /LZWDecode', data: zerosLzw }]), small)).over).toBe('decoded');
    // RunLength: 129..255 repeats the next byte 257 - n times; 128 ends.
    const runs = Buffer.from([...Array(5000).fill([129, 0x41]).flat(), 2, 0x42, 0x43, 0x44, 128]);
    expect((await measurePdfStreams(pdfWithStreams([{ dict: '/Filter /RunLengthDecode', data: runs }]), small)).decodedBytes).toBe(5000 * 128 + 3);
  });

  it('lets images decode to the size they declare (their own budget), not more', async () => {
    const w = 1000;
    const h = 1000;
    const raw = deflateSync(zeros(w * h * 3)); // 3 MB of RGB: over the 1 MB non-image limit, within the image budget
    const image = `/Type /XObject /Subtype /Image /Width ${w} /Height ${h} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode`;
    const ok = await measurePdfStreams(pdfWithStreams([{ dict: image, data: raw }]), small);
    expect(ok).toEqual({ streams: 1, decodedBytes: 0, imageBytes: w * h * 3, over: null });
    // Two such images pass the 4 MB image budget.
    expect((await measurePdfStreams(pdfWithStreams([{ dict: image, data: raw }, { dict: image, data: raw }]), small)).over).toBe('images');
    // An "image" of 10 × 10 that inflates to 3 MB is not an image: it counts as everything else.
    const liar = await measurePdfStreams(pdfWithStreams([{ dict: image.replace(`/Width ${w} /Height ${h}`, '/Width 10 /Height 10'), data: raw }]), small);
    expect(liar.over).toBe('decoded');
  });

  it('finds streams the way readers do: junk after the keyword, a comment before it, a decoy before the bomb', async () => {
    const bomb = deflateSync(zeros(4 * MB));
    const raw = (text: string, data: Uint8Array) => new Uint8Array(Buffer.concat([Buffer.from(text, 'latin1'), Buffer.from(data), Buffer.from('\nendstream\nendobj\n%%EOF\n', 'latin1')]));
    // pdfjs skips anything after `stream` up to the end of the line.
    expect((await measurePdfStreams(raw(`%PDF-1.7\n4 0 obj\n<< /Filter /FlateDecode /Length ${bomb.length} >>\nstream   junk\n`, bomb), small)).over).toBe('decoded');
    // A comment between the dictionary and the keyword.
    expect((await measurePdfStreams(raw(`%PDF-1.7\n4 0 obj\n<< /Filter /FlateDecode >> % note\n% another\nstream\n`, bomb), small)).over).toBe('decoded');
    // The word in a string before the real stream neither hides it nor is mistaken for it.
    expect((await measurePdfStreams(raw(`%PDF-1.7\n3 0 obj\n<< /Title (a stream\nof words) >>\nendobj\n4 0 obj\n<< /Filter /FlateDecode >>\nstream\n`, bomb), small)).over).toBe('decoded');
    // No dictionary found at all: Flate data is still recognised by its zlib header.
    expect((await measurePdfStreams(raw(`%PDF-1.7\n4 0 obj\n<< /Filter /FlateDecode /Note (100% sure) >> % x\nstream\n`, bomb), small)).over).toBe('decoded');
  });

  it('ignores damaged or encrypted data (counts what decoded) and a stored stream counts as its size', async () => {
    const cut = deflateSync(zeros(MB / 4)).subarray(0, 40);
    const m = await measurePdfStreams(pdfWithStreams([{ dict: '/Filter /FlateDecode', data: cut }, { dict: '/Filter /FlateDecode', data: Buffer.from('not zlib at all') }, { dict: '', data: zeros(1000) }]), small);
    expect(m.over).toBeNull();
    expect(m.streams).toBe(3);
    expect(m.decodedBytes).toBeGreaterThanOrEqual(1000);
  });
});
