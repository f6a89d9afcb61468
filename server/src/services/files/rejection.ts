// What the files service refuses and why: the kinds of upload, the limits, and the error whose
// message is written for the person who uploaded the file.
import type { PdfStreamLimits } from './pdf-streams.js';

export type UploadKind = 'certificate' | 'photo';
export type FileType = 'pdf' | 'png' | 'jpeg' | 'webp' | 'gif';
export type ImageType = Exclude<FileType, 'pdf'>;

export interface InspectedFile {
  type: FileType;
  mime: string;
  size: number;
  /** A PDF: what its checks measured (the document reader may take it instead of measuring again). */
  pdf?: CheckedPdf;
}

/**
 * What the upload's PDF checks measured of these bytes: every stream decodes within `streamLimits`.
 * A pure fact about the bytes (the measure has no time or memory budget that could cut it short), so
 * a reader that takes it decides exactly as one that measures again.
 */
export interface CheckedPdf {
  streamLimits: PdfStreamLimits;
}

export type FileRejectionCode =
  | 'empty'
  | 'too_large'
  | 'unsupported_type'
  | 'corrupt'
  | 'too_many_pixels'
  | 'password_protected'
  | 'active_content'
  | 'too_many_pages'
  | 'too_complex';

/** A file refused by its bytes. `message` is written for the person who uploaded it. */
export class FileRejectedError extends Error {
  readonly code: FileRejectionCode;
  constructor(code: FileRejectionCode, message: string) {
    super(message);
    this.name = 'FileRejectedError';
    this.code = code;
  }
}

const MB = 1024 * 1024;
export const MAX_CERTIFICATE_BYTES = 10 * MB;
export const MAX_PHOTO_BYTES = 2 * MB;
/** Refuses decompression bombs: a tiny file that claims a gigantic canvas. */
export const MAX_IMAGE_PIXELS = 40_000_000;
/**
 * Profile photos are shown to every visitor of a shared certificate, whose browser decodes them:
 * 4096 × 4096 is far more than an avatar needs (and a 2 MB phone photo is ~12 Mpx).
 */
export const MAX_PHOTO_PIXELS = 4096 * 4096;
/** A certificate is a page or a few (with a transcript, a few dozen); thousands of pages are not one. */
export const MAX_PDF_PAGES = 100;
export const MIME_BY_TYPE: Record<FileType, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
};

/** A file that does not parse completely, in words that say what to do. */
export function corrupt(type: FileType, detail: string): FileRejectedError {
  const label = type === 'pdf' ? 'PDF' : `${type.toUpperCase()} image`;
  return new FileRejectedError('corrupt', `This ${label} is damaged or incomplete (${detail}). Please export it again and re-upload.`);
}
