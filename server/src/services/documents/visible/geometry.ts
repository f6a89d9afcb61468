// Boxes and regions in the page's pixels: what a glyph painted, and which parts of a drawing are read.
import type { GlyphRecord } from './record.js';

export type Box = [number, number, number, number]; // x0, y0, x1, y1 in the page's pixels

/** A part of the page in whole pixels. */
export interface Region {
  x0: number;
  y0: number;
  width: number;
  height: number;
}
/** The whole page in pixels, and pixels per point. */
export interface Page extends Region {
  scale: number;
}

/** `box` in whole pixels within `page`, or null when none of it is. */
export function clip(box: Box, page: Region): Region | null {
  const x0 = Math.max(page.x0, Math.floor(box[0]));
  const y0 = Math.max(page.y0, Math.floor(box[1]));
  const x1 = Math.min(page.x0 + page.width, Math.ceil(box[2]));
  const y1 = Math.min(page.y0 + page.height, Math.ceil(box[3]));
  return x1 > x0 && y1 > y0 ? { x0, y0, width: x1 - x0, height: y1 - y0 } : null;
}

/** The part of the page (whole pixels) that holds `boxes`, with a margin. */
export function around(boxes: Box[], page: Region): Region {
  const x0 = Math.max(0, Math.floor(Math.min(...boxes.map((b) => b[0]))) - 2);
  const y0 = Math.max(0, Math.floor(Math.min(...boxes.map((b) => b[1]))) - 2);
  const x1 = Math.min(page.width, Math.ceil(Math.max(...boxes.map((b) => b[2]))) + 2);
  const y1 = Math.min(page.height, Math.ceil(Math.max(...boxes.map((b) => b[3]))) + 2);
  return { x0, y0, width: Math.max(1, x1 - x0), height: Math.max(1, y1 - y0) };
}

/**
 * Patches that hold every glyph's extent: one per text operator (a line or a run), merged where they
 * meet; past 256 of them, the one region that holds them all.
 */
export function patchesAround(glyphs: GlyphRecord[], page: Region): Region[] {
  const byOp = new Map<number, Box[]>();
  for (const g of glyphs) (byOp.get(g.op) ?? byOp.set(g.op, []).get(g.op)!).push(g.box!);
  let rects = [...byOp.values()].map((boxes) => clip([Math.min(...boxes.map((b) => b[0])), Math.min(...boxes.map((b) => b[1])), Math.max(...boxes.map((b) => b[2])), Math.max(...boxes.map((b) => b[3]))], page)).filter((r): r is Region => r !== null);
  if (!rects.length) return [];
  const meets = (p: Region, q: Region) => p.x0 <= q.x0 + q.width && q.x0 <= p.x0 + p.width && p.y0 <= q.y0 + q.height && q.y0 <= p.y0 + p.height;
  const join = (p: Region, q: Region): Region => {
    const x0 = Math.min(p.x0, q.x0);
    const y0 = Math.min(p.y0, q.y0);
    return { x0, y0, width: Math.max(p.x0 + p.width, q.x0 + q.width) - x0, height: Math.max(p.y0 + p.height, q.y0 + q.height) - y0 };
  };
  for (let merged = true; merged && rects.length > 1 && rects.length <= 256; ) {
    merged = false;
    const out: Region[] = [];
    for (const r of rects) {
      const k = out.findIndex((o) => meets(o, r));
      if (k >= 0) {
        out[k] = join(out[k], r);
        merged = true;
      } else out.push(r);
    }
    rects = out;
  }
  return rects.length <= 256 ? rects : [rects.reduce(join)];
}

export function overlaps(p: Box, q: Box): boolean {
  return p[0] < q[2] && q[0] < p[2] && p[1] < q[3] && q[1] < p[3];
}
