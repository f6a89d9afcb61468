import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import { OcrTimeoutError, type RawImage } from './types.js';

export { OcrTimeoutError, type RawImage } from './types.js';

export interface OcrOptions {
  /** Budget for preprocessing + recognition (worker start-up included). Default 20 000 ms. */
  timeoutMs?: number;
}

export interface OcrResult {
  text: string;
  /** Tesseract's mean word confidence, 0–100. */
  confidence: number;
  /** Wall time of this call, queueing behind other OCR calls excluded. */
  ms: number;
  /** Size of the image that was recognised (after preprocessing). */
  width: number;
  height: number;
}

/** Decompression bombs: refuse to decode more than this many input pixels. */
export const OCR_MAX_INPUT_PIXELS = 50_000_000;
/** Long side after preprocessing: more costs time (recognition is ~linear in pixels) without helping. */
export const OCR_MAX_SIDE = 4000;
/**
 * Small images are enlarged to at least this long side (at most ×4): LSTM Tesseract wants text
 * ≥ ~30 px high, and a 64-px-high heading on a 1200-px certificate photo is already at the limit
 * once body text is considered.
 */
export const OCR_MIN_SIDE = 2000;
const MAX_UPSCALE = 4;
const DEFAULT_TIMEOUT_MS = 20_000;

const require = createRequire(import.meta.url);
// The language data ships in an npm package so nothing is fetched from a CDN at run time.
// 4.0.0_best_int is the LSTM model (what OEM.LSTM_ONLY loads); the file is gzipped.
const ENG_DATA_DIR = join(dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');

let workerPromise: Promise<Worker> | null = null;
/** One recognition at a time on the shared worker; a timed-out call terminates the worker. */
let queue: Promise<unknown> = Promise.resolve();

function getWorker(): Promise<Worker> {
  if (!workerPromise) {
    const p = createWorker('eng', OEM.LSTM_ONLY, {
      langPath: ENG_DATA_DIR,
      gzip: true,
      // 'none': never read or write ./eng.traineddata in the process's working directory.
      cacheMethod: 'none',
      logger: () => undefined,
      errorHandler: () => undefined,
    }).then(async (w) => {
      // Certificates are sparse layouts (headings scattered over the page), not columns of prose.
      await w.setParameters({ tessedit_pageseg_mode: PSM.SPARSE_TEXT, user_defined_dpi: '300' });
      return w;
    });
    workerPromise = p;
    // A failed start must not poison later calls.
    p.catch(() => {
      if (workerPromise === p) workerPromise = null;
    });
  }
  return workerPromise;
}

/** Drops the shared worker (after a timeout or on shutdown); the next call starts a new one. */
async function discardWorker(): Promise<void> {
  const p = workerPromise;
  workerPromise = null;
  if (!p) return;
  const w = await p.catch(() => null);
  await w?.terminate().catch(() => undefined);
}

/**
 * Grayscale, contrast-stretched PNG sized for Tesseract: transparent areas become white (black
 * text on a transparent PNG would otherwise turn into black on black), small images are enlarged,
 * huge ones reduced.
 */
export async function prepareForOcr(image: Uint8Array | RawImage): Promise<{ png: Buffer; width: number; height: number }> {
  const input =
    image instanceof Uint8Array
      ? sharp(image, { limitInputPixels: OCR_MAX_INPUT_PIXELS, animated: false }).autoOrient()
      : sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels }, limitInputPixels: OCR_MAX_INPUT_PIXELS });
  const { width: w0 = 0, height: h0 = 0, orientation } = image instanceof Uint8Array ? await input.metadata() : { width: image.width, height: image.height, orientation: 1 };
  const [w, h] = (orientation ?? 1) >= 5 ? [h0, w0] : [w0, h0];
  if (!w || !h) throw new Error('The image has no pixels.');
  const long = Math.max(w, h);
  const scale = long > OCR_MAX_SIDE ? OCR_MAX_SIDE / long : long < OCR_MIN_SIDE ? Math.min(MAX_UPSCALE, OCR_MIN_SIDE / long) : 1;
  const width = Math.max(1, Math.round(w * scale));
  const height = Math.max(1, Math.round(h * scale));
  const png = await input
    .flatten({ background: '#ffffff' })
    .grayscale()
    .resize(width, height, { fit: 'fill', kernel: scale > 1 ? 'cubic' : 'lanczos3' })
    .normalise()
    // One channel: a third of the bytes to encode and for Tesseract to decode.
    .toColourspace('b-w')
    // Fast to write and to read back; the bytes never leave the process.
    .png({ compressionLevel: 1 })
    .toBuffer();
  return { png, width, height };
}

/**
 * Recognises English text in an encoded image (PNG, JPEG, WEBP, …) or raw pixels, offline.
 * Calls are serialised on one lazily started worker; past `timeoutMs` the worker is terminated
 * (the only way to stop a running recognition) and `OcrTimeoutError` is thrown.
 */
export function recognizeText(image: Uint8Array | RawImage, opts: OcrOptions = {}): Promise<OcrResult> {
  const run = queue.then(() => recognizeNow(image, opts.timeoutMs ?? DEFAULT_TIMEOUT_MS));
  queue = run.catch(() => undefined);
  return run;
}

async function recognizeNow(image: Uint8Array | RawImage, timeoutMs: number): Promise<OcrResult> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  let timedOut = false;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      timedOut = true;
      reject(new OcrTimeoutError(timeoutMs));
    }, Math.max(0, timeoutMs));
  });
  try {
    const prepared = await Promise.race([prepareForOcr(image), timeout]);
    const worker = await Promise.race([getWorker(), timeout]);
    const { data } = await Promise.race([worker.recognize(prepared.png), timeout]);
    return {
      text: data.text.replace(/[ \t\f\v]+/g, ' ').replace(/\s*\n\s*/g, '\n').trim(),
      confidence: Math.round(data.confidence ?? 0),
      ms: Date.now() - started,
      width: prepared.width,
      height: prepared.height,
    };
  } finally {
    clearTimeout(timer);
    // A recognition may still be running inside the worker: kill it so it cannot hold the CPU.
    if (timedOut) await discardWorker();
  }
}

/** Terminates the shared worker (server shutdown). Safe to call repeatedly; OCR restarts on demand. */
export async function closeOcr(): Promise<void> {
  await queue.catch(() => undefined);
  await discardWorker();
}

/** Whether the shared worker is running (tests, health). */
export function ocrWorkerStarted(): boolean {
  return workerPromise !== null;
}
