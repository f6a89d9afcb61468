// What OCR takes and how it times out, without loading sharp or tesseract.js: the document reader's
// worker thread (services/documents) extracts page images as RawImage and stops on OcrTimeoutError.

/** Decoded pixels (e.g. an image XObject pdfjs decoded), 1–4 channels, 8 bits each. */
export interface RawImage {
  data: Uint8Array;
  width: number;
  height: number;
  channels: 1 | 2 | 3 | 4;
}

export class OcrTimeoutError extends Error {
  constructor(ms: number) {
    super(`OCR took longer than ${ms} ms`);
    this.name = 'OcrTimeoutError';
  }
}
