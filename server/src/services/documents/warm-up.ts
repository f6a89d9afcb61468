// A reader's warm-up: a small certificate-like document (text in a standard font over an image) read
// as a holder's would be, before the reader says it is ready. A reader's first document costs several
// times its next (pdfjs, its fonts and the canvas load and compile on it); this one pays that instead.
import { PDFDocument, StandardFonts } from 'pdf-lib';
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

/** Reads the warm-up document as a certificate is read; whatever happens is ignored (a real document starts afresh). */
export async function warmUp(): Promise<void> {
  try {
    await readPdf(await warmUpDocument(), { maxPages: 1, timeoutMs: 5000, ocr: null, streamLimits: PDF_STREAM_LIMITS, claims: ['Warm-up University'] }, { phase: () => undefined });
  } catch {
    /* nothing learned from a failed warm-up */
  }
}
