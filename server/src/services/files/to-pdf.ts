import sharp from 'sharp';
import { FileRejectedError, MAX_IMAGE_PIXELS, type FileType } from './rejection.js';

/** A4 portrait in points; landscape images get the box turned. Smaller images keep their size. */
const A4_SHORT = 595.28;
const A4_LONG = 841.89;
/** Fixed so that the same image always gives byte-identical PDFs (and so the same SHA-256). */
const FIXED_DATE = new Date('2024-01-01T00:00:00.000Z');
const PRODUCER = 'Attesta image-to-PDF';
const MAX_CONVERTED_SIDE = 3508;
const LOSSLESS_MAX_PIXELS = 4_000_000;

/** Page size in points for an image of w × h pixels (1 px = 1 pt), shrunk to fit A4, aspect kept. */
export function pageSizeFor(width: number, height: number): { width: number; height: number } {
  const [maxW, maxH] = width > height ? [A4_LONG, A4_SHORT] : [A4_SHORT, A4_LONG];
  const scale = Math.min(1, maxW / width, maxH / height);
  return { width: width * scale, height: height * scale };
}

/**
 * Converts an image (already accepted by inspectUpload) to a one-page PDF sized to it.
 * Upright JPEG and PNG up to 4 Mpx are embedded as-is (no quality loss); WEBP, GIF, larger PNGs and
 * JPEGs with an EXIF rotation are decoded by sharp first (PNG, or JPEG over 4 Mpx, at most A4 at 300 dpi).
 * A PDF is returned unchanged.
 */
export async function toPdf(bytes: Uint8Array, type: FileType): Promise<Uint8Array> {
  if (type === 'pdf') return bytes;
  const meta = await sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS }).metadata();
  const rotated = (meta.orientation ?? 1) > 1;
  // pdf-lib decodes and re-deflates a PNG in JavaScript, on the event loop: a 35 KB PNG of 36 Mpx
  // blocked the server for ~13 s. Only small PNGs go that way; larger ones are re-encoded by sharp.
  const small = (meta.width ?? 0) * (meta.height ?? 0) <= LOSSLESS_MAX_PIXELS;

  const { PDFDocument } = await import('pdf-lib');
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.setProducer(PRODUCER);
  doc.setCreator(PRODUCER);
  doc.setCreationDate(FIXED_DATE);
  doc.setModificationDate(FIXED_DATE);

  let image;
  try {
    if (type === 'jpeg' && !rotated) image = await doc.embedJpg(stripJpegMetadata(bytes));
    else if (type === 'png' && !rotated && small) image = await doc.embedPng(bytes);
  } catch {
    image = undefined; // unusual encodings pdf-lib cannot embed: fall back to a sharp re-encode
  }
  if (!image) {
    let out: { data: Buffer; info: sharp.OutputInfo };
    try {
      // 3508 px is A4 at 300 dpi: more only makes the PDF bigger. Large opaque images (photos of
      // certificates) become JPEG, since a 12 MP PNG would be tens of MB; the rest stay lossless PNG.
      const { width = 0, height = 0 } = meta;
      // Large images become JPEG (transparency flattened onto white, as a page shows it anyway),
      // since pdf-lib would decode a large PNG on the event loop (see above).
      const asJpeg = width * height > LOSSLESS_MAX_PIXELS;
      let base = sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS, animated: false })
        .autoOrient()
        .resize(MAX_CONVERTED_SIDE, MAX_CONVERTED_SIDE, { fit: 'inside', withoutEnlargement: true });
      if (asJpeg) base = base.flatten({ background: '#ffffff' });
      out = await (asJpeg ? base.jpeg({ quality: 90 }) : base.png({ compressionLevel: 6 })).toBuffer({ resolveWithObject: true });
      image = out.info.format === 'jpeg' ? await doc.embedJpg(out.data) : await doc.embedPng(out.data);
    } catch {
      throw new FileRejectedError('corrupt', 'This image could not be converted to PDF. Please export it again as PNG or JPG and re-upload.');
    }
  }

  const size = pageSizeFor(image.width, image.height);
  const page = doc.addPage([size.width, size.height]);
  page.drawImage(image, { x: 0, y: 0, width: size.width, height: size.height });
  return doc.save();
}

/**
 * Drops EXIF/XMP (APP1), IPTC (APP13) and comments from a JPEG without re-encoding it: certificate
 * PDFs are public and a phone photo's EXIF can hold the GPS position and device serials. Keeps APP0
 * (JFIF), APP2 (ICC colour profile) and APP14 (Adobe, needed to read CMYK correctly). Returns the
 * input unchanged if the marker structure is not what we expect.
 */
export function stripJpegMetadata(bytes: Uint8Array): Uint8Array {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return bytes;
  const kept: Uint8Array[] = [bytes.subarray(0, 2)];
  let i = 2;
  while (i + 4 <= bytes.length) {
    if (bytes[i] !== 0xff) return bytes;
    const marker = bytes[i + 1];
    if (marker === 0xff) {
      i++; // fill byte
      continue;
    }
    if (marker === 0xda) {
      kept.push(bytes.subarray(i)); // start of scan: the rest is image data
      return concat(kept);
    }
    const length = (bytes[i + 2] << 8) | bytes[i + 3];
    if (length < 2 || i + 2 + length > bytes.length) return bytes;
    const drop = marker === 0xe1 || marker === 0xed || marker === 0xfe;
    if (!drop) kept.push(bytes.subarray(i, i + 2 + length));
    i += 2 + length;
  }
  return bytes;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
