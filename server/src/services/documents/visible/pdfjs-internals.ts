// The parts of pdfjs's CanvasGraphics and of the canvas context that the drawing (draw.ts) and the
// recording (record.ts) rely on: not pdfjs's public API, so they are typed here, once.

interface Matrix {
  a: number;
  b: number;
  c: number;
  d: number;
  e: number;
  f: number;
}

export interface Ctx {
  canvas: { width: number; height: number };
  globalAlpha: number;
  lineWidth: number;
  getTransform(): Matrix;
  measureText(text: string): { actualBoundingBoxLeft: number; actualBoundingBoxRight: number; actualBoundingBoxAscent: number; actualBoundingBoxDescent: number };
  getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray };
  [method: string]: unknown;
}

export interface PdfjsGlyph {
  unicode: string;
  fontChar: string;
  isInFont: boolean;
  operatorListId?: string;
  accent?: { fontChar: string } | null;
}

export interface Gfx {
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

export type Fn = (this: Gfx, ...args: unknown[]) => unknown;

/** An image as pdfjs's worker sends it: `kind` is pdfjs's ImageKind (1 bit grey, RGB, RGBA). */
export interface PdfjsImage {
  width: number;
  height: number;
  kind?: number;
  interpolate?: boolean;
  data?: Uint8Array | Uint8ClampedArray;
  bitmap?: unknown;
}
export interface CanvasEntry {
  canvas: unknown;
  context: { createImageData(w: number, h: number): { data: Uint8ClampedArray }; putImageData(data: unknown, x: number, y: number): void };
}
export interface CanvasFactory {
  create(w: number, h: number): CanvasEntry;
  destroy(entry: CanvasEntry): void;
}

/** Text rendering modes: 3 paints nothing; the 4 bit (modes 4–7) adds the glyphs to the clip; 7 only does that. */
export const INVISIBLE = 3;
export const CLIP_ONLY = 7;
export const ADD_TO_PATH = 4;
