/**
 * OCR: reads the text of certificate images offline (tesseract.js, English LSTM model from the
 * `@tesseract.js-data/eng` package; no CDN).
 *
 * - `recognizeText(image | {data,width,height,channels}, {timeoutMs?})` → `{text, confidence, ms, width, height}`;
 *   throws `OcrTimeoutError` past the budget (default 20 s; the worker is then terminated and restarted on demand).
 * - One shared worker, started on first use, calls serialised. `closeOcr()` on shutdown.
 * - Images are flattened on white, grayscaled, contrast-normalised and resized so the long side is
 *   2000–4000 px (small ones enlarged up to ×4) before recognition.
 */
export {
  recognizeText,
  closeOcr,
  prepareForOcr,
  ocrWorkerStarted,
  OcrTimeoutError,
  OCR_MAX_INPUT_PIXELS,
  OCR_MAX_SIDE,
  OCR_MIN_SIDE,
  type RawImage,
  type OcrOptions,
  type OcrResult,
} from './ocr.js';
