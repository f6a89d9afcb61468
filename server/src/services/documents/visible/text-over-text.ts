// Text drawn over other text: which glyphs another operator's paint reaches, and batches of
// operators that can be drawn muted together (they paint nowhere near each other).
import { overlaps, type Box } from './geometry.js';
import type { GlyphRecord } from './record.js';
import { VISIBILITY } from './thresholds.js';

export const CROWDED = 'crowded';
const CELL = 32;
/** Boxes in a 32-px cell past which the cell counts as crowded (text stacked that deep is no layout). */
const CROWD = 1024;
/** Other operators' boxes over one glyph past which its own pixels are not worked out (it is redrawn). */
const MAX_EXCEPT = 64;

/** A grid of 32-px cells over the page, each listing the glyphs whose extent reaches into it. */
function grid(glyphs: GlyphRecord[], include: (i: number) => boolean, width: number, height: number) {
  const cols = Math.ceil(width / CELL);
  const rows = Math.ceil(height / CELL);
  const cells = new Map<number, number[]>();
  const visit = (box: Box, f: (cell: number) => void) => {
    const cx0 = Math.max(0, Math.floor(box[0] / CELL));
    const cy0 = Math.max(0, Math.floor(box[1] / CELL));
    const cx1 = Math.min(cols - 1, Math.floor(box[2] / CELL));
    const cy1 = Math.min(rows - 1, Math.floor(box[3] / CELL));
    for (let y = cy0; y <= cy1; y++) for (let x = cx0; x <= cx1; x++) f(y * cols + x);
  };
  glyphs.forEach((g, i) => {
    if (g.box && include(i)) visit(g.box, (c) => (cells.get(c) ?? cells.set(c, []).get(c)!).push(i));
  });
  return { cells, visit };
}

/**
 * For each candidate glyph that another operator's paint reaches, the extents of that paint (or
 * CROWDED when too much is stacked there to list).
 */
export function othersNear(glyphs: GlyphRecord[], candidate: boolean[], width: number, height: number): Map<number, Box[] | typeof CROWDED> {
  const { cells, visit } = grid(glyphs, () => true, width, height);
  const out = new Map<number, Box[] | typeof CROWDED>();
  glyphs.forEach((g, i) => {
    if (!candidate[i]) return;
    const seen = new Set<number>();
    let crowded = false;
    visit(g.box!, (c) => {
      const here = cells.get(c)!;
      if (here.length > CROWD) crowded ||= here.some((j) => glyphs[j].op !== g.op);
      else for (const j of here) if (glyphs[j].op !== g.op && overlaps(g.box!, glyphs[j].box!)) seen.add(j);
    });
    if (crowded || seen.size > MAX_EXCEPT) out.set(i, CROWDED);
    else if (seen.size) out.set(i, [...seen].map((j) => glyphs[j].box!));
  });
  return out;
}

/**
 * Contested operators in batches whose members' extents do not meet (greedy colouring of the graph
 * of operators whose extents meet): at most maxRedraws batches; operators past them are left over.
 */
export function batch(ops: Set<number>, glyphs: GlyphRecord[], width: number, height: number): { batches: Set<number>[]; left: Set<number> } {
  const { cells } = grid(glyphs, (i) => ops.has(glyphs[i].op), width, height);
  const meets = new Map<number, Set<number>>([...ops].map((op) => [op, new Set<number>()]));
  const left = new Set<number>();
  for (const here of cells.values()) {
    if (here.length > CROWD) {
      for (const j of here) left.add(glyphs[j].op); // not separated: counts as not visible
      continue;
    }
    for (let x = 0; x < here.length; x++) {
      for (let y = x + 1; y < here.length; y++) {
        const [p, q] = [glyphs[here[x]], glyphs[here[y]]];
        if (p.op !== q.op && overlaps(p.box!, q.box!)) {
          meets.get(p.op)!.add(q.op);
          meets.get(q.op)!.add(p.op);
        }
      }
    }
  }
  const colour = new Map<number, number>();
  const batches: Set<number>[] = [];
  for (const op of [...ops].sort((p, q) => p - q)) {
    if (left.has(op)) continue;
    const taken = new Set([...meets.get(op)!].map((o) => colour.get(o)));
    let c = 0;
    while (taken.has(c)) c++;
    if (c >= VISIBILITY.maxRedraws) {
      left.add(op);
      continue;
    }
    colour.set(op, c);
    (batches[c] ??= new Set()).add(op);
  }
  return { batches, left };
}
