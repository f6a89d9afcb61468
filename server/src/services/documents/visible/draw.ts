// Drawing a page (pdfjs on @napi-rs/canvas) with some text operators muted, and, for the first
// drawing, its glyphs recorded (record.ts).
//
// pdfjs 5 draws every text-showing operator through CanvasGraphics.showText, each outline glyph
// through paintChar and each Type 3 glyph through executeOperatorList: those three (and the
// transparency groups' begin/end) are wrapped on the one CanvasGraphics of each drawing, reached
// through the render task once its first operator runs (operationsFilter). If pdfjs changes them,
// the drawing fails with "the PDF renderer changed" and the page's text is not compared.
import { cpuMs, onCpuDeadline } from '../cpu-clock.js';
import { createRequire } from 'node:module';
import { OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PDFPageProxy } from 'pdfjs-dist/types/src/display/api';
import type { Region } from './geometry.js';
import { ADD_TO_PATH, CLIP_ONLY, type Ctx, type Fn, type Gfx, type PdfjsGlyph } from './pdfjs-internals.js';
import type { Recorder } from './record.js';

/** The page cannot be drawn (no canvas, a drawing error, out of time): its text cannot be judged. */
export class PageNotDrawnError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PageNotDrawnError';
  }
}

let createCanvas: ((w: number, h: number) => { getContext(kind: '2d'): unknown; width: number; height: number }) | null = null;

export function canvasFactory() {
  if (!createCanvas) {
    try {
      createCanvas = (createRequire(import.meta.url)('@napi-rs/canvas') as { createCanvas: typeof createCanvas }).createCanvas;
    } catch (e) {
      throw new PageNotDrawnError(`pages cannot be drawn here (@napi-rs/canvas: ${e instanceof Error ? e.message : String(e)})`);
    }
  }
  return createCanvas!;
}

export interface Drawing {
  recorder?: Recorder;
  mute(op: number): boolean;
}

export async function draw(
  page: PDFPageProxy,
  viewport: ReturnType<PDFPageProxy['getViewport']>,
  ctx: Ctx,
  region: Region,
  drawing: Drawing,
  deadline: number,
): Promise<void> {
  // `deadline` is on the reader's CPU clock (../cpu-clock.ts), as every reading budget is.
  if (cpuMs() >= deadline) throw new PageNotDrawnError('out of time');
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
  let stopWatch: (() => void) | undefined;
  try {
    await Promise.race([
      task.promise,
      new Promise<never>((_, reject) => {
        stopWatch = onCpuDeadline(deadline, () => {
          task.cancel();
          reject(new PageNotDrawnError('out of time'));
        });
      }),
    ]);
  } catch (e) {
    if (state.failure) throw new PageNotDrawnError(state.failure.message);
    if (e instanceof PageNotDrawnError) throw e;
    throw new PageNotDrawnError(e instanceof Error ? e.message : String(e));
  } finally {
    stopWatch?.();
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
