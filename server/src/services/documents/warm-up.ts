// A reader's warm-up, before it says it is ready: documents read as a holder's would be. A reader's
// first document costs several times its next (pdfjs, its fonts and the canvas load and compile on
// it): a small certificate-like document (text in a standard font over an image) pays that. The
// reader kept warm goes further (deep): V8 optimises the loops that decode, convert and compare
// pixels only once they have run on pictures of a real size, over several documents, so it also reads
// a page-sized certificate with a photo a few times.
import { concatTransformationMatrix, drawObject, PDFDocument, popGraphicsState, pushGraphicsState, StandardFonts } from 'pdf-lib';
import { PDF_STREAM_LIMITS } from '../files/pdf-streams.js';
import { readPdf } from './read.js';

// An 8 × 8 PNG (solid colour): the image path of the drawing, decoded and painted.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEUlEQVR4nGPQiFqAFTEMLQkANmxIgVKCRJUAAAAASUVORK5CYII=', 'base64');

export async function warmUpDocument(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([420, 300]);
  page.drawImage(await doc.embedPng(PNG), { x: 260, y: 120, width: 120, height: 120 });
  const font = await doc.embedFont(StandardFonts.Helvetica);
  let y = 250;
  for (const line of ['Warm-up University', 'Certificate of Warming Up', 'awarded to the document reader']) page.drawText(line, { x: 20, y: (y -= 40), size: 14, font });
  return doc.save();
}

/** Noise (it compresses as a photo does, not as a flat colour), deterministic. */
function noise(bytes: number): Uint8Array {
  const out = new Uint8Array(bytes);
  let x = 2463534242;
  for (let i = 0; i < bytes; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/** A landscape A4 certificate: a 480 × 360 photo, and four lines of text, the last running over the photo. */
export async function photoCertificateDocument(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([842, 595]);
  const [w, h] = [480, 360];
  // Not compressed: deflating noise would cost the reader's start ~100 ms, and inflating a photo is zlib's work, not JavaScript's.
  const photo = doc.context.stream(noise(w * h * 3), { Type: 'XObject', Subtype: 'Image', Width: w, Height: h, ColorSpace: 'DeviceRGB', BitsPerComponent: 8 });
  const name = page.node.newXObject('Photo', doc.context.register(photo));
  page.pushOperators(pushGraphicsState(), concatTransformationMatrix(320, 0, 0, 240, 480, 160), drawObject(name), popGraphicsState());
  const font = await doc.embedFont(StandardFonts.Helvetica);
  let y = 520;
  for (const line of ['Warm-up University', 'Certificate of Warming Up', 'Reading Documents Quickly', 'awarded to the document reader, whose name runs over the photo']) page.drawText(line, { x: 40, y: (y -= 40), size: 20, font });
  return doc.save();
}

/** Readings of the photo certificate in a deep warm-up. */
export const DEEP_WARM_UP_READS = 6;

/** The warm-up; whatever happens is ignored (a real document starts afresh). */
export async function warmUp(deep = false): Promise<void> {
  const read = (bytes: Uint8Array) => readPdf(bytes, { maxPages: 1, timeoutMs: 5000, ocr: null, streamLimits: PDF_STREAM_LIMITS, claims: ['Warm-up University'] }, { phase: () => undefined });
  try {
    await read(await warmUpDocument());
    if (!deep) return;
    const certificate = await photoCertificateDocument();
    for (let i = 0; i < DEEP_WARM_UP_READS; i++) await read(certificate.slice());
  } catch {
    /* nothing learned from a failed warm-up */
  }
}
