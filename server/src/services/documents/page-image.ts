import { ImageKind, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PDFPageProxy } from 'pdfjs-dist/types/src/display/api';
import { OcrTimeoutError, type RawImage } from '../ocr/types.js';
import type { PdfjsImage } from './visible/pdfjs-internals.js';

/** Images smaller than this are logos, seals and signatures, not the scanned page. */
const MIN_IMAGE_SIDE = 200;

/**
 * The largest image painted on a page, as raw pixels (what pdfjs decoded: JPEG, Flate/PNG, CCITT,
 * JBIG2 alike), or null when the page paints none worth reading; OcrTimeoutError past the budget. A converted photo or a scan is one
 * full-page image; taking the largest skips logos and signatures drawn over it.
 */
export async function largestPageImage(page: PDFPageProxy, timeoutMs: number): Promise<RawImage | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new OcrTimeoutError(timeoutMs)), Math.max(1, timeoutMs));
  });
  try {
    return await Promise.race([findLargest(page), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function findLargest(page: PDFPageProxy): Promise<RawImage | null> {
  const ops = await page.getOperatorList();
  let best: { area: number; get: () => Promise<PdfjsImage | null> } | null = null;
  for (let i = 0; i < ops.fnArray.length; i++) {
    const fn = ops.fnArray[i];
    const args = ops.argsArray[i] as unknown[];
    let candidate: { width: number; height: number; get: () => Promise<PdfjsImage | null> } | null = null;
    if (fn === OPS.paintImageXObject || fn === OPS.paintImageXObjectRepeat) {
      const [objId, width, height] = args as [string, number, number];
      candidate = { width, height, get: () => resolveObj(page, objId) };
    } else if (fn === OPS.paintInlineImageXObject) {
      const img = args[0] as PdfjsImage;
      candidate = { width: img.width, height: img.height, get: async () => img };
    }
    if (!candidate || Math.min(candidate.width, candidate.height) < MIN_IMAGE_SIDE) continue;
    const area = candidate.width * candidate.height;
    if (!best || area > best.area) best = { area, get: candidate.get };
  }
  if (!best) return null;
  const img = await best.get();
  return img ? toRaw(img) : null;
}

/** Shared images ("g_…") live in the document's common objects, the rest in the page's. */
function resolveObj(page: PDFPageProxy, objId: string): Promise<PdfjsImage | null> {
  const objs = objId.startsWith('g_') ? (page as unknown as { commonObjs: PDFPageProxy['objs'] }).commonObjs : page.objs;
  return new Promise((resolve) => {
    try {
      objs.get(objId, (data: PdfjsImage | null) => resolve(data ?? null));
    } catch {
      resolve(null);
    }
  });
}

function toRaw(img: PdfjsImage): RawImage | null {
  const { width, height, data, kind } = img;
  if (!data || !width || !height) return null; // e.g. an ImageBitmap, which Node never gets
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (kind === ImageKind.RGBA_32BPP && bytes.length >= width * height * 4) return { data: bytes, width, height, channels: 4 };
  if (kind === ImageKind.RGB_24BPP && bytes.length >= width * height * 3) return { data: bytes, width, height, channels: 3 };
  if (kind === ImageKind.GRAYSCALE_1BPP) {
    // Packed bits, rows padded to whole bytes; pdfjs has already applied /Decode, so 1 is white.
    const rowBytes = (width + 7) >> 3;
    if (bytes.length < rowBytes * height) return null;
    const out = new Uint8Array(width * height);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        out[y * width + x] = (bytes[y * rowBytes + (x >> 3)] >> (7 - (x & 7))) & 1 ? 255 : 0;
      }
    }
    return { data: out, width, height, channels: 1 };
  }
  return null;
}
