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
// pdfjs 5 draws every text-showing operator through CanvasGraphics.showText, each outline glyph
// through paintChar and each Type 3 glyph through executeOperatorList: those three (and the
// transparency groups' begin/end) are wrapped on the one CanvasGraphics of each drawing, reached
// through the render task once its first operator runs (operationsFilter). If pdfjs changes them,
// the drawing fails with "the PDF renderer changed" and the page's text is not compared.
//
// Thresholds (VISIBILITY) were set on pdf-lib, Chromium (Skia) and pdfTeX output: black to #d9d9d9
// text at 6–12 pt is visible; #e6e6e6 is borderline; white on white, 5 % opacity, 1–3 pt, a clip or
// an opaque shape over it are not.
import { createRequire } from 'node:module';
import { OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PDFPageProxy, TextItem } from 'pdfjs-dist/types/src/display/api';
import { HIDDEN_MARK } from './text.js';

export const VISIBILITY = {
  /** Pixels per PDF point (72 dpi): 8–10 pt text is 8–10 px high, stems about a pixel. */
  scale: 1,
  /** A larger page is drawn at a lower scale (about a 36 × 36 inch poster at scale 1). */
  maxPixels: 6_000_000,
  /**
   * Contrast (colour distance from what is beneath it, 0–255 with luminance weights 0.30/0.59/0.11)
   * a glyph must reach somewhere: the most any of its pixels differs between A and B. Black text
   * reaches 130–250 at 6–12 pt (anti-aliasing softens thin stems), grey #bfbfbf 40–65, #d9d9d9
   * 25–38, #e6e6e6 17–25, white on white or a tint within 5 % of its background under 13.
   */
  minContrast: 24,
  /** Its ink: pixels that differ by at least this share of its contrast (and at least 10)… */
  inkOfContrast: 0.4,
  minInkDistance: 10,
  /** …at least this many, and this share of its painted extent (a covered glyph keeps no more than a neighbour's edge). */
  minInkPixels: 2,
  inkShare: 0.03,
  /** Em height in points under which text is not readable on a page (a 1-pt disclaimer hides nothing). */
  minEmPt: 4,
  /** Em width (font size × horizontal scaling) under which text is squeezed unreadable. */
  minEmWidthPt: 2,
  /**
   * …and at least this share of its em square (a letter's ink covers 5–40 % of it, an "l" the least):
   * whatever size the font claims, a glyph its own font matrix shrinks to a speck is not readable.
   */
  inkOfEm: 0.02,
  /** Re-draws at most, to separate text drawn over other text. */
  maxRedraws: 6,
  /** Glyphs recorded per page at most; text past them counts as not visible. */
  maxGlyphs: 50_000,
  /** Pixels compared per page at most (a page of text is well under 1 M); glyphs past them count as not visible. */
  maxJudgedPixels: 30_000_000,
};

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

/** The page cannot be drawn (no canvas, a drawing error, out of time): its text cannot be judged. */
export class PageNotDrawnError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PageNotDrawnError';
  }
}

type Box = [number, number, number, number]; // x0, y0, x1, y1 in the page's pixels

interface GlyphRecord {
  op: number;
  text: string;
  /** Paint of the operator outside any glyph's own call: part of its extent, no text of its own. */
  extra?: true;
  /** The union of what it painted, or null when it painted nothing (invisible mode, not in the font). */
  box: Box | null;
  emPt: number;
  emWidthPt: number;
}

interface Matrix {
  a: number;
  b: number;
  c: number;
  d: number;
  e: number;
  f: number;
}

interface Ctx {
  canvas: { width: number; height: number };
  globalAlpha: number;
  lineWidth: number;
  getTransform(): Matrix;
  measureText(text: string): { actualBoundingBoxLeft: number; actualBoundingBoxRight: number; actualBoundingBoxAscent: number; actualBoundingBoxDescent: number };
  getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray };
  [method: string]: unknown;
}

interface PdfjsGlyph {
  unicode: string;
  fontChar: string;
  isInFont: boolean;
  operatorListId?: string;
  accent?: { fontChar: string } | null;
}

interface Gfx {
  ctx: Ctx;
  contentVisible: boolean;
  current: {
    textRenderingMode: number;
    textMatrix: number[] | null;
    fontSize: number;
    textHScale: number;
    font?: { isType3Font?: boolean; isInvalidPDFjsFont?: boolean; missingFile?: boolean; charProcOperatorList?: Record<string, unknown> };
  };
  [key: string | number]: unknown;
}

type Fn = (this: Gfx, ...args: unknown[]) => unknown;

const INVISIBLE = 3;
const CLIP_ONLY = 7;
const ADD_TO_PATH = 4;

let createCanvas: ((w: number, h: number) => { getContext(kind: '2d'): unknown; width: number; height: number }) | null = null;

function canvasFactory() {
  if (!createCanvas) {
    try {
      createCanvas = (createRequire(import.meta.url)('@napi-rs/canvas') as { createCanvas: typeof createCanvas }).createCanvas;
    } catch (e) {
      throw new PageNotDrawnError(`pages cannot be drawn here (@napi-rs/canvas: ${e instanceof Error ? e.message : String(e)})`);
    }
  }
  return createCanvas!;
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
  const canvas = make(width, height);
  try {
    const ctx = canvas.getContext('2d') as Ctx;
    await draw(page, viewport, ctx, whole, { recorder, mute: () => false }, deadline);
    // Only the pixels around text are compared, so only those are read back (a whole page costs ~5 ms).
    // Letters and digits are judged (punctuation goes with them, see mapItems; a space paints nothing).
    judge = glyphs.map((g) => !g.extra && g.box !== null && /[\p{L}\p{N}]/u.test(g.text) && readableSize(g) && clip(g.box, whole) !== null);
    const patches = patchesAround(glyphs.filter((_, i) => judge[i]), whole);
    a = read(ctx, whole, patches);
    await draw(page, viewport, ctx, whole, { mute: () => true }, deadline);
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
        await draw(page, viewport, partCtx, region, { mute: (op) => ops.has(op) || elsewhere(op) }, deadline);
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
}

function readableSize(g: GlyphRecord): boolean {
  return g.emPt >= VISIBILITY.minEmPt && g.emWidthPt >= VISIBILITY.minEmWidthPt;
}

/** A part of the page in whole pixels. */
interface Region {
  x0: number;
  y0: number;
  width: number;
  height: number;
}
/** The whole page in pixels, and pixels per point. */
interface Page extends Region {
  scale: number;
}
/** Pixels (RGBA) read back from a drawing, in patches that each know where they sit on the page. */
type Pixels = (Region & { data: Uint8ClampedArray })[];

/** `box` in whole pixels within `page`, or null when none of it is. */
function clip(box: Box, page: Region): Region | null {
  const x0 = Math.max(page.x0, Math.floor(box[0]));
  const y0 = Math.max(page.y0, Math.floor(box[1]));
  const x1 = Math.min(page.x0 + page.width, Math.ceil(box[2]));
  const y1 = Math.min(page.y0 + page.height, Math.ceil(box[3]));
  return x1 > x0 && y1 > y0 ? { x0, y0, width: x1 - x0, height: y1 - y0 } : null;
}

/** The part of the page (whole pixels) that holds `boxes`, with a margin. */
function around(boxes: Box[], page: Region): Region {
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
function patchesAround(glyphs: GlyphRecord[], page: Region): Region[] {
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

/** Reads `rects` (page pixels) from a drawing of the region `origin`. */
function read(ctx: Ctx, origin: Region, rects: Region[]): Pixels {
  return rects.map((r) => ({ ...r, data: ctx.getImageData(r.x0 - origin.x0, r.y0 - origin.y0, r.width, r.height).data }));
}

function patchOf(pixels: Pixels, r: Region) {
  return pixels.find((p) => r.x0 >= p.x0 && r.y0 >= p.y0 && r.x0 + r.width <= p.x0 + p.width && r.y0 + r.height <= p.y0 + p.height);
}

/**
 * Readable contrast within the glyph's extent between drawings `a` and `b`, on enough pixels (see
 * VISIBILITY), counting only pixels outside the `except` boxes (the shares are still of the whole).
 */
function hasInk(page: Page, a: Pixels, b: Pixels, glyph: GlyphRecord, except: Box[] = []): boolean {
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

const CROWDED = 'crowded';
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
function othersNear(glyphs: GlyphRecord[], candidate: boolean[], width: number, height: number): Map<number, Box[] | typeof CROWDED> {
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
function batch(ops: Set<number>, glyphs: GlyphRecord[], width: number, height: number): { batches: Set<number>[]; left: Set<number> } {
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

function overlaps(p: Box, q: Box): boolean {
  return p[0] < q[2] && q[0] < p[2] && p[1] < q[3] && q[1] < p[3];
}

// ---- drawing -------------------------------------------------------------------------------------

interface Drawing {
  recorder?: Recorder;
  mute(op: number): boolean;
}

async function draw(
  page: PDFPageProxy,
  viewport: ReturnType<PDFPageProxy['getViewport']>,
  ctx: Ctx,
  region: Region,
  drawing: Drawing,
  deadline: number,
): Promise<void> {
  const left = deadline - Date.now();
  if (left <= 0) throw new PageNotDrawnError('out of time');
  // The drawing's CanvasGraphics exists once operators run: the first one installs the hooks.
  const state: { task?: ReturnType<PDFPageProxy['render']>; hooked: boolean; failure: Error | null } = { hooked: false, failure: null };
  const task = page.render({
    canvas: null,
    canvasContext: ctx as unknown as CanvasRenderingContext2D,
    viewport,
    ...(region.x0 || region.y0 ? { transform: [1, 0, 0, 1, -region.x0, -region.y0] } : {}),
    background: '#ffffff',
    operationsFilter: () => {
      if (!state.hooked) {
        state.hooked = true;
        try {
          hook((state.task as unknown as { _internalRenderTask?: { gfx?: Gfx } })._internalRenderTask?.gfx, drawing);
        } catch (e) {
          state.failure = e instanceof Error ? e : new Error(String(e));
          state.task?.cancel();
        }
      }
      return true;
    },
  });
  state.task = task;
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      task.promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          task.cancel();
          reject(new PageNotDrawnError('out of time'));
        }, left);
      }),
    ]);
  } catch (e) {
    if (state.failure) throw new PageNotDrawnError(state.failure.message);
    if (e instanceof PageNotDrawnError) throw e;
    throw new PageNotDrawnError(e instanceof Error ? e.message : String(e));
  } finally {
    clearTimeout(timer);
  }
  if (state.failure) throw new PageNotDrawnError(state.failure.message);
}

/**
 * Wraps, on this drawing's CanvasGraphics only, the operator that shows text (to mute it and to
 * record its glyphs), the per-glyph painters (to know which glyph paints what) and transparency
 * groups (drawn on scratch canvases offset from the page).
 */
function hook(gfx: Gfx | undefined, drawing: Drawing) {
  if (!gfx) throw new Error('the PDF renderer changed (no graphics to follow)');
  const proto = Object.getPrototypeOf(gfx) as Record<string | number, Fn>;
  const showText = proto[OPS.showText];
  const paintChar = proto.paintChar;
  const execute = proto.executeOperatorList;
  const beginGroup = proto[OPS.beginGroup];
  const endGroup = proto[OPS.endGroup];
  for (const f of [showText, paintChar, execute, beginGroup, endGroup]) {
    if (typeof f !== 'function') throw new Error('the PDF renderer changed (text drawing cannot be followed)');
  }
  const recorder = drawing.recorder;
  const offsets: [number, number][] = [];
  let depth = 0;

  gfx[OPS.beginGroup] = function (this: Gfx, ...args: unknown[]) {
    const before = this.ctx;
    const t = before.getTransform();
    const r = beginGroup.apply(this, args);
    if (this.ctx !== before) {
      const g = this.ctx.getTransform();
      offsets.push([t.e - g.e, t.f - g.f]);
    }
    return r;
  };
  gfx[OPS.endGroup] = function (this: Gfx, ...args: unknown[]) {
    const before = this.ctx;
    const r = endGroup.apply(this, args);
    if (this.ctx !== before) offsets.pop();
    return r;
  };
  // While a muted operator runs: its glyphs are not painted at all (the fastest mute), or, for glyphs
  // that add to the clip (modes 4–7), painted in clip-only mode (every drawing must share the clip).
  let skipping = false;
  let inType3 = false;
  gfx[OPS.showText] = function (this: Gfx, opIdx: unknown, glyphs: unknown) {
    if (depth > 0) return showText.call(this, opIdx, glyphs); // text inside a Type 3 glyph: its glyph's
    depth++;
    const op = opIdx as number;
    const mute = drawing.mute(op);
    const mode = this.current.textRenderingMode;
    const alpha = this.ctx.globalAlpha;
    inType3 = !!this.current.font?.isType3Font;
    if (mute) {
      // Still advances the text position. Type 3 glyphs ignore the clip modes in pdfjs (and do not
      // advance in mode 3), so they are only skipped.
      if (mode & ADD_TO_PATH && !inType3) this.current.textRenderingMode = CLIP_ONLY;
      else skipping = true;
      this.ctx.globalAlpha = 0; // the one-string path of fonts pdfjs cannot use paints no glyph call
    }
    const offset = offsets.reduce<[number, number]>((s, o) => [s[0] + o[0], s[1] + o[1]], [0, 0]);
    recorder?.beginOp(this, op, glyphs as (PdfjsGlyph | number)[], offset, inType3);
    try {
      return showText.call(this, opIdx, glyphs);
    } finally {
      depth--;
      skipping = false;
      inType3 = false;
      recorder?.endOp();
      if (mute) {
        this.current.textRenderingMode = mode;
        this.ctx.globalAlpha = alpha;
      }
    }
  };
  gfx.paintChar = function (this: Gfx, ...args: unknown[]) {
    if (skipping) return undefined;
    if (!recorder) return paintChar.apply(this, args);
    recorder.beginGlyph(args[1] as string);
    try {
      return paintChar.apply(this, args);
    } finally {
      recorder.endGlyph();
    }
  };
  gfx.executeOperatorList = function (this: Gfx, ...args: unknown[]) {
    // Only a Type 3 glyph's procedure is executed with no other argument (showType3Text).
    if (args.length !== 1 || !inType3 || depth === 0) return execute.apply(this, args);
    if (skipping) return 0;
    if (!recorder) return execute.apply(this, args);
    recorder.beginGlyph(args[0]);
    try {
      return execute.apply(this, args);
    } finally {
      recorder.endGlyph();
    }
  };
}

const PAINTERS = ['fill', 'stroke', 'fillText', 'strokeText', 'fillRect', 'strokeRect', 'drawImage'] as const;
const hookedContexts = new WeakMap<object, Recorder>();

/** Records, for render A, each glyph and the extent of what it paints. */
class Recorder {
  glyphs: GlyphRecord[] = [];
  truncated = false;
  private op: { records: GlyphRecord[]; order: number[]; keys: unknown[]; next: number; extra: GlyphRecord; byOp: boolean } | null = null;
  private sink: GlyphRecord | null = null;
  private offset: [number, number] = [0, 0];

  constructor(private readonly scale: number) {}

  beginOp(gfx: Gfx, op: number, glyphs: (PdfjsGlyph | number)[], offset: [number, number], type3: boolean) {
    this.offset = offset;
    const cur = gfx.current;
    const font = cur.font ?? {};
    const t = gfx.ctx.getTransform();
    const tm = cur.textMatrix ?? [1, 0, 0, 1, 0, 0];
    // The em's axes on the page: (ctx × Tm) applied to (fontSize × horizontal scale, 0) and (0, fontSize).
    const lin = (x: number, y: number) => Math.hypot(t.a * (tm[0] * x + tm[2] * y) + t.c * (tm[1] * x + tm[3] * y), t.b * (tm[0] * x + tm[2] * y) + t.d * (tm[1] * x + tm[3] * y));
    const emWidthPt = lin(cur.fontSize * cur.textHScale, 0) / this.scale;
    const emPt = lin(0, cur.fontSize) / this.scale;
    const records: GlyphRecord[] = [];
    const order: number[] = [];
    const keys: unknown[] = [];
    for (const g of glyphs) {
      if (typeof g === 'number') continue;
      if (this.glyphs.length + records.length >= VISIBILITY.maxGlyphs) {
        this.truncated = true;
        break;
      }
      const r: GlyphRecord = { op, text: g.unicode ?? '', box: null, emPt, emWidthPt };
      records.push(r);
      // The calls that paint it, in the order pdfjs makes them (see showText / showType3Text).
      if (cur.fontSize === 0 || font.isInvalidPDFjsFont) continue;
      const expect = (key: unknown) => {
        order.push(records.length - 1);
        keys.push(key);
      };
      if (type3) {
        const list = font.charProcOperatorList?.[g.operatorListId ?? ''];
        if (list && gfx.contentVisible && cur.textRenderingMode !== INVISIBLE) expect(list);
      } else if (gfx.contentVisible && (g.isInFont || font.missingFile)) {
        expect(g.fontChar);
        if (g.accent) expect(g.accent.fontChar);
      }
    }
    this.glyphs.push(...records);
    // Paint outside a glyph's own call (the one-string path of fonts pdfjs cannot use) belongs to
    // every glyph of the operator; any other stray paint only counts as this operator's extent.
    const extra: GlyphRecord = { op, text: '', box: null, emPt, emWidthPt, extra: true };
    this.op = { records, order, keys, next: 0, extra, byOp: !!font.isInvalidPDFjsFont };
    this.hookContext(gfx.ctx);
  }

  endOp() {
    const op = this.op;
    this.op = null;
    this.sink = null;
    if (!op) return;
    if (op.extra.box) {
      if (op.byOp) for (const r of op.records) r.box = op.extra.box;
      else this.glyphs.push(op.extra);
    }
  }

  /** A paint call for the next glyph: `key` is its fontChar (outlines) or its procedure (Type 3). */
  beginGlyph(key: unknown) {
    const op = this.op;
    if (!op) return;
    let k = op.next;
    while (k < op.keys.length && op.keys[k] !== key) k++;
    if (k < op.keys.length) {
      this.sink = op.records[op.order[k]];
      op.next = k + 1;
    } else this.sink = op.extra; // not the call expected: counted for the operator, not a glyph
  }

  endGlyph() {
    this.sink = null;
  }

  private add(box: Box) {
    const target = this.sink ?? this.op?.extra;
    if (!target) return;
    const b: Box = [box[0] + this.offset[0], box[1] + this.offset[1], box[2] + this.offset[0], box[3] + this.offset[1]];
    target.box = target.box ? [Math.min(target.box[0], b[0]), Math.min(target.box[1], b[1]), Math.max(target.box[2], b[2]), Math.max(target.box[3], b[3])] : b;
  }

  /** Wraps the context's painting methods once; they report only while an operator is recorded. */
  private hookContext(ctx: Ctx) {
    if (hookedContexts.get(ctx) === this) return;
    hookedContexts.set(ctx, this);
    for (const name of PAINTERS) {
      const original = (Object.getPrototypeOf(ctx) as Record<string, (...a: unknown[]) => unknown>)[name];
      if (typeof original !== 'function') continue;
      ctx[name] = (...args: unknown[]) => {
        if (this.op) {
          try {
            this.add(paintedBox(ctx, name, args));
          } catch {
            this.add([-Infinity, -Infinity, Infinity, Infinity]);
          }
        }
        return original.apply(ctx, args);
      };
    }
  }
}

const EVERYWHERE: Box = [-Infinity, -Infinity, Infinity, Infinity];

const pathBounds = new WeakMap<object, [number, number, number, number]>();

/** The device-space bounds of what a painting call covers (unclipped; everywhere when unknown). */
function paintedBox(ctx: Ctx, name: (typeof PAINTERS)[number], args: unknown[]): Box {
  const t = ctx.getTransform();
  // The rectangle x0..x1 × y0..y1 (grown by `pad`) through the transform, plus a pixel of anti-aliasing.
  const rect = (x0: number, y0: number, x1: number, y1: number, pad = 0): Box => {
    x0 -= pad;
    y0 -= pad;
    x1 += pad;
    y1 += pad;
    const ax = t.a * x0;
    const bx = t.a * x1;
    const cy = t.c * y0;
    const dy = t.c * y1;
    const ay = t.b * x0;
    const by = t.b * x1;
    const ey = t.d * y0;
    const fy = t.d * y1;
    return [Math.min(ax, bx) + Math.min(cy, dy) + t.e - 1, Math.min(ay, by) + Math.min(ey, fy) + t.f - 1, Math.max(ax, bx) + Math.max(cy, dy) + t.e + 1, Math.max(ay, by) + Math.max(ey, fy) + t.f + 1];
  };
  switch (name) {
    case 'fill':
    case 'stroke': {
      const path = args[0] as { getBounds?: () => [number, number, number, number] } | undefined;
      if (!path || typeof path !== 'object' || typeof path.getBounds !== 'function') return EVERYWHERE;
      let bounds = pathBounds.get(path);
      if (!bounds) pathBounds.set(path, (bounds = path.getBounds()));
      const [l, tp, r, b] = bounds;
      return rect(l, tp, r, b, name === 'stroke' ? ctx.lineWidth / 2 : 0);
    }
    case 'fillText':
    case 'strokeText': {
      const [text, x, y] = args as [string, number, number];
      const m = ctx.measureText(text);
      return rect(x - m.actualBoundingBoxLeft, y - m.actualBoundingBoxAscent, x + m.actualBoundingBoxRight, y + m.actualBoundingBoxDescent, name === 'strokeText' ? ctx.lineWidth / 2 : 0);
    }
    case 'fillRect':
    case 'strokeRect': {
      const [x, y, w, h] = args as number[];
      return rect(Math.min(x, x + w), Math.min(y, y + h), Math.max(x, x + w), Math.max(y, y + h), name === 'strokeRect' ? ctx.lineWidth / 2 : 0);
    }
    case 'drawImage': {
      const img = args[0] as { width: number; height: number };
      const n = args.length;
      const [x, y, w, h] = n >= 9 ? (args.slice(5, 9) as number[]) : n >= 5 ? (args.slice(1, 5) as number[]) : [args[1] as number, args[2] as number, img.width, img.height];
      return rect(Math.min(x, x + w), Math.min(y, y + h), Math.max(x, x + w), Math.max(y, y + h));
    }
  }
}

// ---- matching text items to glyphs -----------------------------------------------------------------

/** Characters that take part in matching: NFKC, no white space or format marks. */
function compact(s: string): string {
  return s.normalize('NFKC').replace(/[\s\p{Cf}]/gu, '');
}

/**
 * Each text item to the glyphs that drew it: the content stream's order is shared, so each item's
 * characters are looked for in the glyphs' from where the previous item ended (then reversed, for
 * right-to-left text, then from the start). An item that matches nothing counts as not visible.
 */
function mapItems(items: TextItem[], glyphs: GlyphRecord[], visible: boolean[], painted: boolean[]): { visible: string[]; hiddenLetters: number; unmatched: number } {
  const owner: number[] = [];
  let stream = '';
  glyphs.forEach((g, i) => {
    const c = compact(g.text);
    stream += c;
    for (let k = 0; k < c.length; k++) owner.push(i);
  });
  let from = 0;
  let hiddenLetters = 0;
  let unmatched = 0;
  const out = items.map((item) => {
    const points = [...item.str];
    const parts = points.map(compact);
    const s = parts.join('');
    if (!s) return item.str;
    let at = stream.indexOf(s, from);
    let reversed = false;
    if (at >= 0) from = at + s.length;
    else {
      const r = [...parts].reverse().map((p) => [...p].reverse().join('')).join('');
      reversed = true;
      at = stream.indexOf(r, from);
      if (at >= 0) from = at + r.length;
      else {
        at = stream.indexOf(s, 0);
        reversed = false;
        if (at < 0) {
          at = stream.indexOf(r, 0);
          reversed = at >= 0;
        }
      }
    }
    if (at < 0) {
      unmatched++;
      hiddenLetters += (item.str.match(/\p{L}/gu) ?? []).length;
      return '';
    }
    // Code unit `u` of `s` is drawn by glyph owner[at + u] (mirrored when the item is reversed).
    const glyphOf = (u: number) => owner[reversed ? at + s.length - 1 - u : at + u];
    const every = (test: (glyph: number) => boolean) => {
      let u = 0;
      return parts.map((part) => {
        let all = part.length > 0;
        for (let j = 0; j < part.length; j++) all = test(glyphOf(u + j)) && all;
        u += part.length;
        return all;
      });
    };
    const ok = every((g) => visible[g]);
    // Letters and digits are shown when drawn visibly; punctuation and symbols (a full stop is a
    // pixel or two, not judged) go with them: shown when any letter or digit of the item is, or, in
    // an item of punctuation alone, when painted on the page.
    const word = points.map((p) => /[\p{L}\p{N}]/u.test(p));
    if (!word.some(Boolean)) {
      const drawn = every((g) => painted[g]);
      return points.filter((p, k) => /\s/u.test(p) || drawn[k]).join('');
    }
    if (!points.some((_, k) => word[k] && ok[k])) {
      hiddenLetters += points.filter((p) => /\p{L}/u.test(p)).length;
      return HIDDEN_MARK;
    }
    return points
      .map((p, k) => {
        if (/\s/u.test(p)) return p;
        if (!parts[k]) return ''; // a format mark
        if (!word[k] || ok[k]) return p;
        if (/\p{L}/u.test(p)) hiddenLetters++;
        return HIDDEN_MARK;
      })
      .join('');
  });
  return { visible: out, hiddenLetters, unmatched };
}
