// What each glyph paints: the Recorder (hooked into the drawing as it is, A, by draw.ts) and the
// device-space extent of each canvas painting call.
import type { Box } from './geometry.js';
import { INVISIBLE, type Ctx, type Gfx, type PdfjsGlyph } from './pdfjs-internals.js';
import { VISIBILITY } from './thresholds.js';

export interface GlyphRecord {
  op: number;
  text: string;
  /** Paint of the operator outside any glyph's own call: part of its extent, no text of its own. */
  extra?: true;
  /** The union of what it painted, or null when it painted nothing (invisible mode, not in the font). */
  box: Box | null;
  emPt: number;
  emWidthPt: number;
}

const PAINTERS = ['fill', 'stroke', 'fillText', 'strokeText', 'fillRect', 'strokeRect', 'drawImage'] as const;
const hookedContexts = new WeakMap<object, Recorder>();

/** Records, for render A, each glyph and the extent of what it paints. */
export class Recorder {
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
