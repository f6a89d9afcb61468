// Contrast measurement: whether a glyph shows readable ink, comparing the drawing with text (A)
// against one without it (B) within the glyph's painted extent.
import { clip, type Box, type Page, type Region } from './geometry.js';
import type { Ctx } from './pdfjs-internals.js';
import type { GlyphRecord } from './record.js';
import { VISIBILITY } from './thresholds.js';

/** Pixels (RGBA) read back from a drawing, in patches that each know where they sit on the page. */
export type Pixels = (Region & { data: Uint8ClampedArray })[];

export function readableSize(g: GlyphRecord): boolean {
  return g.emPt >= VISIBILITY.minEmPt && g.emWidthPt >= VISIBILITY.minEmWidthPt;
}

/** Reads `rects` (page pixels) from a drawing of the region `origin`. */
export function read(ctx: Ctx, origin: Region, rects: Region[]): Pixels {
  return rects.map((r) => ({ ...r, data: ctx.getImageData(r.x0 - origin.x0, r.y0 - origin.y0, r.width, r.height).data }));
}

function patchOf(pixels: Pixels, r: Region) {
  return pixels.find((p) => r.x0 >= p.x0 && r.y0 >= p.y0 && r.x0 + r.width <= p.x0 + p.width && r.y0 + r.height <= p.y0 + p.height);
}

/**
 * Readable contrast within the glyph's extent between drawings `a` and `b`, on enough pixels (see
 * VISIBILITY), counting only pixels outside the `except` boxes (the shares are still of the whole).
 */
export function hasInk(page: Page, a: Pixels, b: Pixels, glyph: GlyphRecord, except: Box[] = []): boolean {
  const r = clip(glyph.box!, page);
  const pa = r && patchOf(a, r);
  const pb = r && patchOf(b, r);
  if (!r || !pa || !pb) return false; // off the page
  const { x0, y0, width: w, height: h } = r;
  let mask: Uint8Array | null = null;
  if (except.length) {
    mask = new Uint8Array(w * h);
    for (const e of except) {
      const ex = clip(e, r);
      if (!ex) continue;
      for (let y = ex.y0; y < ex.y0 + ex.height; y++) mask.fill(1, (y - y0) * w + (ex.x0 - x0), (y - y0) * w + (ex.x0 - x0) + ex.width);
    }
  }
  // Squared distances (luminance weights), twice: the largest, then the pixels near enough to it.
  const d = new Float32Array(w * h);
  let max = 0;
  for (let y = y0, k = 0; y < y0 + h; y++) {
    let i = ((y - pa.y0) * pa.width + (x0 - pa.x0)) * 4;
    let j = ((y - pb.y0) * pb.width + (x0 - pb.x0)) * 4;
    for (let x = 0; x < w; x++, k++, i += 4, j += 4) {
      if (mask && mask[k]) continue;
      const dr = pa.data[i] - pb.data[j];
      const dg = pa.data[i + 1] - pb.data[j + 1];
      const db = pa.data[i + 2] - pb.data[j + 2];
      const v = 0.3 * dr * dr + 0.59 * dg * dg + 0.11 * db * db;
      d[k] = v;
      if (v > max) max = v;
    }
  }
  if (max < VISIBILITY.minContrast ** 2) return false;
  const floor = Math.max(VISIBILITY.minInkDistance ** 2, max * VISIBILITY.inkOfContrast ** 2);
  const em = glyph.emPt * glyph.emWidthPt * page.scale * page.scale;
  const need = Math.max(VISIBILITY.minInkPixels, Math.ceil(w * h * VISIBILITY.inkShare), Math.ceil(em * VISIBILITY.inkOfEm));
  let ink = 0;
  for (let k = 0; k < d.length; k++) if (d[k] >= floor && ++ink >= need) return true;
  return false;
}
