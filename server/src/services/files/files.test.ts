import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { makeEncryptedPdf, makeImage, makePdf, makePngBomb } from '../../../test/fixtures/files.js';
import { FileRejectedError, inspectUpload, pageSizeFor, PDF_STREAM_LIMITS, sanitizePhoto, sha256Hex, stripJpegMetadata, toPdf } from './index.js';

async function rejection(p: Promise<unknown>): Promise<FileRejectedError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(FileRejectedError);
    return err as FileRejectedError;
  }
  throw new Error('expected the file to be rejected');
}

describe('inspectUpload', () => {
  it('accepts each certificate type by its bytes', async () => {
    const pdf = await makePdf();
    // With what its checks measured (the document reader takes that instead of measuring again).
    expect(await inspectUpload(pdf, { kind: 'certificate' })).toEqual({ type: 'pdf', mime: 'application/pdf', size: pdf.length, pdf: { streamLimits: PDF_STREAM_LIMITS } });
    for (const f of ['png', 'jpeg', 'webp'] as const) {
      const img = await makeImage(f);
      const r = await inspectUpload(img, { kind: 'certificate' });
      expect(r.type).toBe(f);
      expect(r.mime).toBe(`image/${f}`);
      expect(r.size).toBe(img.length);
      expect(r.pdf).toBeUndefined();
    }
  });

  it('accepts photo types including GIF, and refuses a PDF as a photo', async () => {
    for (const f of ['png', 'jpeg', 'webp', 'gif'] as const) {
      expect((await inspectUpload(await makeImage(f), { kind: 'photo' })).type).toBe(f);
    }
    const e = await rejection(inspectUpload(await makePdf(), { kind: 'photo' }));
    expect(e.code).toBe('unsupported_type');
    expect(e.message).toContain('JPG, PNG, GIF or WEBP');
  });

  it('refuses a GIF certificate and names the accepted types', async () => {
    const e = await rejection(inspectUpload(await makeImage('gif'), { kind: 'certificate' }));
    expect(e.code).toBe('unsupported_type');
    expect(e.message).toContain('PDF, JPG, JPEG, PNG or WEBP');
  });

  it('refuses an empty file', async () => {
    const e = await rejection(inspectUpload(new Uint8Array(0), { kind: 'certificate' }));
    expect(e.code).toBe('empty');
  });

  it('enforces the size limits with the exact messages', async () => {
    const big = new Uint8Array(10 * 1024 * 1024 + 1);
    big.set(Buffer.from('%PDF-1.7\n'));
    const e = await rejection(inspectUpload(big, { kind: 'certificate' }));
    expect(e.code).toBe('too_large');
    expect(e.message).toBe('File is too large. The maximum size is 10 MB.');

    const photo = new Uint8Array(2 * 1024 * 1024 + 1);
    photo.set([0xff, 0xd8, 0xff]);
    const p = await rejection(inspectUpload(photo, { kind: 'photo' }));
    expect(p.code).toBe('too_large');
    expect(p.message).toBe('Photo is too large. The maximum size is 2 MB.');
  });

  it('refuses disguised files whatever they claim to be (a ZIP, an executable, text)', async () => {
    const zip = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 4, 5, 6]);
    const z = await rejection(inspectUpload(zip, { kind: 'certificate' }));
    expect(z.code).toBe('unsupported_type');
    expect(z.message).toContain('ZIP');
    const exe = new Uint8Array(Buffer.from('MZ\x90\x00 this is not a pdf'));
    expect((await rejection(inspectUpload(exe, { kind: 'certificate' }))).code).toBe('unsupported_type');
    const text = new Uint8Array(Buffer.from('Certificate of completion, honest'));
    expect((await rejection(inspectUpload(text, { kind: 'certificate' }))).code).toBe('unsupported_type');
  });

  it('refuses a truncated PDF', async () => {
    const pdf = await makePdf({ lines: ['Certificate of Completion', 'Jane Doe'] });
    const cut = pdf.subarray(0, Math.floor(pdf.length * 0.6));
    const e = await rejection(inspectUpload(cut, { kind: 'certificate' }));
    expect(e.code).toBe('corrupt');
    expect(e.message).toMatch(/PDF is damaged or incomplete/);
  });

  it('refuses a PDF header followed by garbage, even with an %%EOF', async () => {
    const junk = new Uint8Array(Buffer.from('%PDF-1.7\n' + 'x'.repeat(500) + '\n%%EOF\n'));
    expect((await rejection(inspectUpload(junk, { kind: 'certificate' }))).code).toBe('corrupt');
  });

  it('refuses a PDF that needs a password to open, accepts one encrypted only against editing', async () => {
    const locked = await makeEncryptedPdf({ userPassword: 'hunter2' });
    const e = await rejection(inspectUpload(locked, { kind: 'certificate' }));
    expect(e.code).toBe('password_protected');
    expect(e.message).toBe('This PDF is password-protected. Please upload a copy that opens without a password.');
    const editLocked = await makeEncryptedPdf({ userPassword: '' });
    expect((await inspectUpload(editLocked, { kind: 'certificate' })).type).toBe('pdf');
  });

  it('refuses truncated PNG and JPEG images', async () => {
    for (const f of ['png', 'jpeg'] as const) {
      const img = await makeImage(f, 400, 300);
      const cut = img.subarray(0, Math.floor(img.length / 2));
      const e = await rejection(inspectUpload(cut, { kind: 'certificate' }));
      expect(e.code).toBe('corrupt');
    }
  });

  it('refuses a decompression bomb from its header, without decoding it', async () => {
    const bomb = makePngBomb(50_000, 50_000); // 2.5 gigapixels in ~1 KB
    expect(bomb.length).toBeLessThan(2000);
    const started = Date.now();
    const e = await rejection(inspectUpload(bomb, { kind: 'certificate' }));
    expect(e.code).toBe('too_many_pixels');
    expect(e.message).toContain('50000 × 50000');
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('toPdf', () => {
  it('embeds a PNG into one page sized to the image, and the PDF passes inspection', async () => {
    const png = await makeImage('png', 300, 200);
    const pdf = await toPdf(png, 'png');
    const doc = await PDFDocument.load(pdf, { updateMetadata: false });
    expect(doc.getPageCount()).toBe(1);
    expect(doc.getPage(0).getSize()).toEqual({ width: 300, height: 200 });
    expect(doc.getProducer()).toBe('Attesta image-to-PDF');
    expect((await inspectUpload(pdf, { kind: 'certificate' })).type).toBe('pdf');
  });

  it('shrinks big images to fit A4, keeping the aspect ratio and orientation', async () => {
    expect(pageSizeFor(100, 50)).toEqual({ width: 100, height: 50 });
    const portrait = pageSizeFor(2480, 3508);
    expect(portrait.width).toBeLessThanOrEqual(595.28);
    expect(portrait.height).toBeCloseTo(841.89, 5);
    expect(portrait.height / portrait.width).toBeCloseTo(3508 / 2480, 5);
    const landscape = pageSizeFor(4000, 1000);
    expect(landscape.width).toBeCloseTo(841.89, 1);
    expect(landscape.height).toBeCloseTo(841.89 / 4, 1);
  });

  it('converts JPEG, WEBP and GIF, and is deterministic (same image, same bytes)', async () => {
    for (const f of ['jpeg', 'webp', 'gif'] as const) {
      const img = await makeImage(f, 120, 80);
      const a = await toPdf(img, f);
      const b = await toPdf(img, f);
      expect(sha256Hex(a)).toBe(sha256Hex(b));
      const doc = await PDFDocument.load(a);
      expect(doc.getPage(0).getSize()).toEqual({ width: 120, height: 80 });
    }
  });

  it('leaves no EXIF (GPS, owner) from a phone JPEG in the public PDF, and keeps the pixels as-is', async () => {
    const plain = await makeImage('jpeg', 120, 80);
    const tagged = new Uint8Array(
      await sharp(plain).withExif({ IFD0: { Copyright: 'SECRET-OWNER-42' }, IFD3: { GPSLatitudeRef: 'N' } }).jpeg().toBuffer(),
    );
    expect(Buffer.from(tagged).toString('latin1')).toContain('SECRET-OWNER-42');
    const pdf = Buffer.from(await toPdf(tagged, 'jpeg')).toString('latin1');
    expect(pdf).not.toContain('SECRET-OWNER-42');
    expect(pdf).not.toContain('Exif');
    // the embedded image data is the original scan, byte for byte (no re-encoding)
    const stripped = Buffer.from(stripJpegMetadata(tagged));
    const scan = stripped.indexOf(Buffer.from([0xff, 0xda]));
    expect(pdf).toContain(stripped.subarray(scan).toString('latin1'));
  });

  it('applies the EXIF rotation of a phone JPEG', async () => {
    const img = await makeImage('jpeg', 120, 80, { orientation: 6 }); // stored landscape, shown portrait
    expect((await sharp(img).metadata()).orientation).toBe(6);
    const doc = await PDFDocument.load(await toPdf(img, 'jpeg'));
    expect(doc.getPage(0).getSize()).toEqual({ width: 80, height: 120 });
  });

  it('keeps a large photo-like WEBP reasonable: JPEG inside, capped at A4 300 dpi, still deterministic', async () => {
    const webp = await makeImage('webp', 3600, 1200);
    const a = await toPdf(webp, 'webp');
    expect(sha256Hex(await toPdf(webp, 'webp'))).toBe(sha256Hex(a));
    expect(Buffer.from(a).toString('latin1')).toContain('/DCTDecode');
    expect(Buffer.from(a).toString('latin1')).toMatch(/\/Width 3508/);
    const doc = await PDFDocument.load(a);
    const { width, height } = doc.getPage(0).getSize();
    expect(width).toBeCloseTo(841.89, 1); // 3:1 in a landscape A4 box: width-bound
    expect(height / width).toBeCloseTo(1200 / 3600, 2);
  });

  it('returns a PDF unchanged', async () => {
    const pdf = await makePdf();
    expect(await toPdf(pdf, 'pdf')).toBe(pdf);
  });
});

describe('sanitizePhoto', () => {
  it('removes EXIF from photos of every type, keeping them valid and upright', async () => {
    for (const f of ['jpeg', 'png', 'webp'] as const) {
      const tagged = new Uint8Array(await sharp(await makeImage(f, 60, 40)).withExif({ IFD0: { Copyright: 'SECRET-OWNER-42' } }).toFormat(f).toBuffer());
      expect(Buffer.from(tagged).toString('latin1')).toContain('SECRET-OWNER-42');
      const clean = await sanitizePhoto(tagged, f);
      expect(Buffer.from(clean).toString('latin1')).not.toContain('SECRET-OWNER-42');
      expect((await inspectUpload(clean, { kind: 'photo' })).type).toBe(f);
    }
    const rotated = await makeImage('jpeg', 60, 40, { orientation: 6 });
    const upright = await sharp(await sanitizePhoto(rotated, 'jpeg')).metadata();
    expect([upright.width, upright.height, upright.orientation ?? 1]).toEqual([40, 60, 1]);
  });
});

describe('sha256Hex', () => {
  it('hashes bytes to lowercase hex', () => {
    expect(sha256Hex(new TextEncoder().encode('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
