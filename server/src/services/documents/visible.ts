// Which of a page's text a person looking at the page sees.
//
// The text layer (getTextContent) holds every string a content stream shows, whether or not it ends
// up on the page: text in rendering mode 3 (invisible), white on white, under an opaque shape drawn
// after it, clipped away, outside the page, in a hidden optional-content layer, or a point high.
// Only the rendered page says what a reader sees, so the page is drawn (pdfjs on @napi-rs/canvas)
// twice: as it is (A), and with every text-showing operator muted (B: it still moves the text
// position and keeps its clipping, but paints nothing). Where text adds nothing to the picture, A and
// B are the same. While drawing A, every glyph's painted extent is recorded (the bounds of the paths,
// text and images its operator paints, font outlines and Type 3 procedures alike): a glyph is
// visible when, within its own extent, enough pixels of A differ from B by a readable contrast, and
// its em is a readable size.
//
// A glyph whose extent overlaps what another text operator paints (text drawn over text) might owe
// its contrast to the other one. It is visible when the pixels of its extent that no other operator
// paints on show enough ink; otherwise its operator is drawn muted again, on its own (in batches whose
// members paint nowhere near each other), and the glyph is judged by what its own operator adds.
// Text items (getTextContent) are then matched to the glyphs that drew them (both follow the content
// stream's order) and keep only their visible characters; each stretch of hidden ones becomes a mark.
//
// This file combines the parts, in visible/: thresholds.ts (VISIBILITY), draw.ts (drawing a page with text muted),
// record.ts (each glyph's painted extent), ink.ts (contrast within an extent), text-over-text.ts
// (separating text drawn over text), match.ts (text items to glyphs), geometry.ts (boxes and
// regions), pdfjs-internals.ts (the renderer internals relied on).
import type { PDFPageProxy, TextItem } from 'pdfjs-dist/types/src/display/api';
import { canvasFactory, draw, ImageMemo, PageNotDrawnError } from './visible/draw.js';
import { around, clip, overlaps, patchesAround, type Box, type Page } from './visible/geometry.js';
import { hasInk, read, readableSize, type Pixels } from './visible/ink.js';
import { mapItems } from './visible/match.js';
import type { Ctx } from './visible/pdfjs-internals.js';
import { Recorder } from './visible/record.js';
import { batch, CROWDED, othersNear } from './visible/text-over-text.js';
import { VISIBILITY } from './visible/thresholds.js';

export { PageNotDrawnError, VISIBILITY };

export interface PageVisibility {
  /**
   * For each text item, its visible characters; a letter or digit known not to be visible is
   * HIDDEN_MARK. '' for an item that could not be judged (not matched to what the page draws).
   */
  visible: string[];
  /** Letters of the text layer that are not visible. */
  hiddenLetters: number;
  /** Drawings made (2 + re-draws). */
  draws: number;
  /** Why some text could not be judged (and counts as not visible), for the log. */
  note?: string;
}

/**
 * The visible part of each of `items` (the page's getTextContent items, text items only). Throws
 * PageNotDrawnError when the page cannot be drawn or the deadline passes while drawing.
 */
export async function visibleText(page: PDFPageProxy, items: TextItem[], deadline: number): Promise<PageVisibility> {
  const hasLetters = items.some((i) => /[\p{L}\p{N}]/u.test(i.str));
  if (!hasLetters) return { visible: items.map((i) => i.str), hiddenLetters: 0, draws: 0 };

  let scale = VISIBILITY.scale;
  const unit = page.getViewport({ scale: 1 });
  if (unit.width * unit.height * scale * scale > VISIBILITY.maxPixels) scale = Math.sqrt(VISIBILITY.maxPixels / (unit.width * unit.height));
  const viewport = page.getViewport({ scale });
  const width = Math.max(1, Math.ceil(viewport.width));
  const height = Math.max(1, Math.ceil(viewport.height));
  const make = canvasFactory();
  const whole: Page = { x0: 0, y0: 0, width, height, scale: viewport.scale };
  const recorder = new Recorder(viewport.scale);
  const glyphs = recorder.glyphs;
  let judge: boolean[];
  let a: Pixels;
  let b: Pixels;
  // Draw B and the re-draws paint the page's images from draw A's pixels (draw.ts: ImageMemo).
  const images = new ImageMemo();
  try {
    const canvas = make(width, height);
    try {
      const ctx = canvas.getContext('2d') as Ctx;
      await draw(page, viewport, ctx, whole, { recorder, mute: () => false, images }, deadline);
      // Only the pixels around text are compared, so only those are read back (a whole page costs ~5 ms).
      // Letters and digits are judged (punctuation goes with them, see mapItems; a space paints nothing).
      judge = glyphs.map((g) => !g.extra && g.box !== null && /[\p{L}\p{N}]/u.test(g.text) && readableSize(g) && clip(g.box, whole) !== null);
      const patches = patchesAround(glyphs.filter((_, i) => judge[i]), whole);
      a = read(ctx, whole, patches);
      await draw(page, viewport, ctx, whole, { mute: () => true, images }, deadline);
      b = read(ctx, whole, patches);
    } finally {
      canvas.width = canvas.height = 0; // its memory is returned now, not when collected
    }
    let draws = 2;
    const notes: string[] = [];
    if (recorder.truncated) notes.push(`only the first ${VISIBILITY.maxGlyphs} characters of the page were checked`);

    // First judgement: what all the text together adds at each glyph's place.
    let budget = VISIBILITY.maxJudgedPixels;
    const candidate = glyphs.map((g, i) => {
      if (!judge[i]) return false;
      const r = clip(g.box!, whole)!;
      if ((budget -= r.width * r.height) < 0) return false;
      return hasInk(whole, a, b, g);
    });
    if (budget < 0) notes.push('the page has more text area than is compared; the rest counts as not visible');
    const visible = candidate.slice();

    // Text over text: where another text operator paints too, a glyph's contrast may be that one's. The
    // pixels of its extent that no other operator paints on are its own: enough ink there, and it is
    // visible. Otherwise it is judged again by what its own operator adds: the part of the page around
    // it drawn again with that operator muted (with others that paint nowhere near it).
    const near = othersNear(glyphs, candidate, width, height);
    const contested = new Set<number>();
    for (const [i, others] of near) {
      if (others === CROWDED || !hasInk(whole, a, b, glyphs[i], others)) contested.add(glyphs[i].op);
    }
    if (contested.size) {
      const { batches, left } = batch(contested, glyphs, width, height);
      let unresolved = 0;
      const giveUp = (ops: Set<number>) =>
        glyphs.forEach((g, i) => {
          if (candidate[i] && ops.has(g.op)) {
            visible[i] = false;
            unresolved++;
          }
        });
      // Operators that paint nowhere in the part redrawn are muted too (what they paint is not looked at).
      const extents = new Map<number, Box[]>();
      for (const g of glyphs) if (g.box) (extents.get(g.op) ?? extents.set(g.op, []).get(g.op)!).push(g.box);
      for (const ops of batches) {
        const judged = glyphs.filter((g, i) => candidate[i] && ops.has(g.op));
        const region = around(judged.map((g) => g.box!), whole);
        const part = make(region.width, region.height);
        const area: Box = [region.x0, region.y0, region.x0 + region.width, region.y0 + region.height];
        const elsewhere = (op: number) => !(extents.get(op) ?? []).some((box) => overlaps(box, area));
        try {
          const partCtx = part.getContext('2d') as Ctx;
          await draw(page, viewport, partCtx, region, { mute: (op) => ops.has(op) || elsewhere(op), images }, deadline);
          const r = read(partCtx, region, [region]);
          draws++;
          glyphs.forEach((g, i) => {
            if (candidate[i] && ops.has(g.op)) visible[i] = hasInk(whole, a, r, g);
          });
        } catch (e) {
          if (!(e instanceof PageNotDrawnError)) throw e;
          giveUp(ops);
        } finally {
          part.width = part.height = 0;
        }
      }
      giveUp(left);
      if (unresolved) notes.push('some text drawn over other text could not be separated from it, and counts as not visible');
    }

    const painted = glyphs.map((g) => g.box !== null && clip(g.box, whole) !== null);
    const mapped = mapItems(items, glyphs, visible, painted);
    if (mapped.unmatched) notes.push(`${mapped.unmatched} text item${mapped.unmatched === 1 ? '' : 's'} could not be matched to what the page draws`);
    return { visible: mapped.visible, hiddenLetters: mapped.hiddenLetters, draws, ...(notes.length ? { note: notes.join('; ') } : {}) };
  } finally {
    images.release();
  }
}
