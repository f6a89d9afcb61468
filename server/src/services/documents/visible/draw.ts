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
import { FeatureTest, ImageKind, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PDFPageProxy } from 'pdfjs-dist/types/src/display/api';
import type { Region } from './geometry.js';
import { ADD_TO_PATH, CLIP_ONLY, type CanvasEntry, type CanvasFactory, type Ctx, type Fn, type Gfx, type PdfjsGlyph, type PdfjsImage } from './pdfjs-internals.js';
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
  /** Images already painted in an earlier drawing of the same page, painted again from here (ImageMemo). */
  images?: ImageMemo;
}

/** An image as pdfjs paints it: its pixels converted and scaled down to about the size it is drawn at. */
interface Scaled {
  img: { width: number; height: number };
  paintWidth: number;
  paintHeight: number;
}

/**
 * The images of one page as painted by its first drawing, for the drawings after it (draw B, the
 * re-draws). pdfjs converts an image's pixels for the canvas and scales them down at every paint: on a
 * certificate with a full-page background photo that is ~270 ms of each drawing. The same image at the
 * same size (the linear part of the transform: moving the region drawn does not change it) gives the
 * same pixels, so they are kept and painted again as pdfjs paints them: the drawings are the same pixel
 * for pixel (held by image-memo.test.ts). At most `maxBytes` of pixels are kept; `release()` frees them.
 */
export class ImageMemo {
  private readonly kept = new Map<object, Map<string, Scaled>>();
  private bytes = 0;
  /** Paints served from the memo (for tests: that the second drawing used it). */
  hits = 0;
  /** Images whose pixels were converted here, not by pdfjs (for tests: toCanvas). */
  converted = 0;
  constructor(private readonly maxBytes = 64 * 1024 * 1024) {}

  get(image: object, size: string): Scaled | undefined {
    return this.kept.get(image)?.get(size);
  }

  /** Keeps `scaled` when it fits in the budget; false when it does not (pdfjs then frees it as usual). */
  keep(image: object, size: string, scaled: Scaled): boolean {
    const bytes = scaled.img.width * scaled.img.height * 4;
    if (this.bytes + bytes > this.maxBytes) return false;
    this.bytes += bytes;
    (this.kept.get(image) ?? this.kept.set(image, new Map()).get(image)!).set(size, scaled);
    return true;
  }

  release() {
    for (const sizes of this.kept.values()) for (const s of sizes.values()) s.img.width = s.img.height = 0;
    this.kept.clear();
    this.bytes = 0;
  }
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
  if (drawing.images) paintImagesFrom(gfx, proto, drawing.images);
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

/**
 * Paints images through `memo` (ImageMemo): the first paint of an image at a size is pdfjs's own (its
 * RGB or RGBA pixels converted here: toCanvas), its scaled pixels kept (pdfjs frees them otherwise);
 * a later paint at that size gives pdfjs the kept
 * pixels as the image's bitmap and as its scaling's result, so it draws them as it drew the first time.
 * An image painted with a transfer function (TR) is not kept (its pixels are filtered as they are
 * converted). If pdfjs changes these methods, images are painted as pdfjs paints them, nothing kept.
 */
function paintImagesFrom(gfx: Gfx, proto: Record<string | number, Fn>, memo: ImageMemo) {
  const paint = proto.paintInlineImageXObject;
  const scale = proto._scaleImage;
  const factory = gfx.canvasFactory as { create?: CanvasFactory['create']; destroy?: (entry: { canvas?: unknown }) => void } | undefined;
  if (typeof paint !== 'function' || typeof scale !== 'function' || typeof factory?.destroy !== 'function' || typeof factory.create !== 'function') return;
  const destroy = factory.destroy;
  gfx.paintInlineImageXObject = function (this: Gfx, opIdx: unknown, imgData: unknown) {
    const image = imgData as PdfjsImage | null;
    if (!image?.data || image.bitmap || (this.current as { transferMaps?: string }).transferMaps !== 'none') return paint.call(this, opIdx, imgData);
    const t = this.ctx.getTransform();
    const size = `${t.a},${t.b},${t.c},${t.d}`;
    const kept = memo.get(image, size);
    if (kept) {
      memo.hits++;
      this._scaleImage = () => ({ img: kept.img, paintWidth: kept.paintWidth, paintHeight: kept.paintHeight, tmpCanvas: null });
      try {
        return paint.call(this, opIdx, { width: image.width, height: image.height, interpolate: image.interpolate, bitmap: kept.img });
      } finally {
        delete this._scaleImage;
      }
    }
    // Its pixels as a canvas, converted in one pass (pdfjs would convert them byte by byte), painted by
    // pdfjs as a bitmap: the same pixels reach the same paint (image-memo.test.ts compares them).
    const converted = toCanvas(factory as CanvasFactory, image);
    if (converted) {
      memo.converted++;
      imgData = { width: image.width, height: image.height, interpolate: image.interpolate, bitmap: converted.canvas };
    }
    let mine: unknown = null; // the kept pixels' canvas: pdfjs must not free it after this paint
    this._scaleImage = function (this: Gfx, ...args: unknown[]) {
      const r = scale.apply(this, args) as Scaled & { tmpCanvas: unknown };
      if (!memo.keep(image, size, r)) return r;
      mine = r.img;
      return { ...r, tmpCanvas: null };
    };
    factory.destroy = function (this: unknown, entry: { canvas?: unknown }) {
      if (mine !== null && entry?.canvas === mine) return; // unscaled: the converted canvas itself is kept
      return destroy.call(this, entry);
    };
    try {
      return paint.call(this, opIdx, imgData);
    } finally {
      delete this._scaleImage;
      delete (factory as { destroy?: unknown }).destroy;
      if (factory.destroy !== destroy) factory.destroy = destroy;
      if (converted && mine !== converted.canvas) destroy.call(factory, converted);
    }
  };
}

/** Pixels converted and put at a time: the scratch stays ~1 MB however large the picture (as pdfjs's chunks). */
const CHUNK_PIXELS = 256 * 1024;

/**
 * An RGB or RGBA image's pixels put on a canvas of its size, as pdfjs's putBinaryImageData puts them
 * (RGB gets alpha 255; RGBA is copied as it is), but a pixel at a time instead of a byte at a time
 * (pdfjs's loop, in 16-row chunks: ~6 ms for the bench's 580 × 580 picture in a reader; this ~1.5 ms).
 * null for other kinds (pdfjs converts those).
 */
function toCanvas(factory: CanvasFactory, image: PdfjsImage): CanvasEntry | null {
  const { width, height, kind, data } = image;
  if (!data || !FeatureTest.isLittleEndian || !(width > 0 && height > 0)) return null;
  if (kind !== ImageKind.RGB_24BPP && kind !== ImageKind.RGBA_32BPP) return null;
  const bytesPerPixel = kind === ImageKind.RGB_24BPP ? 3 : 4;
  if (data.length < width * height * bytesPerPixel) return null;
  const entry = factory.create(width, height);
  const rows = Math.max(1, Math.min(height, Math.floor(CHUNK_PIXELS / width)));
  const chunk = entry.context.createImageData(width, rows);
  const out = new Uint32Array(chunk.data.buffer, chunk.data.byteOffset, width * rows);
  for (let y = 0; y < height; y += rows) {
    const n = Math.min(rows, height - y);
    if (kind === ImageKind.RGBA_32BPP) chunk.data.set(data.subarray(y * width * 4, (y + n) * width * 4));
    else for (let r = 0; r < n; r++) rgbRow(out, r * width, data, (y + r) * width * 3, width);
    // Rows past the picture's last (a short last chunk) fall outside the canvas, as pdfjs's do.
    entry.context.putImageData(chunk, 0, y);
  }
  return entry;
}

/**
 * One row of RGB to RGBA. A function per row, not one loop per image: a reader runs the loop once a
 * picture, and V8 optimises a long loop in a function called that rarely only while it runs (and
 * forgets it at the next full collection), so one loop over the bench's picture ran 4–18 ms; called per
 * row, this function is optimised early and stays so: ~1 ms.
 */
function rgbRow(out: Uint32Array, at: number, data: Uint8Array | Uint8ClampedArray, from: number, width: number) {
  for (let i = at, j = from, end = at + width; i < end; i++, j += 3) out[i] = 0xff000000 | (data[j + 2] << 16) | (data[j + 1] << 8) | data[j];
}
