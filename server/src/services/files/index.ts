/**
 * Files: checks uploads by their bytes and turns certificate images into PDFs.
 *
 * - `inspectUpload(bytes, {kind})` → `{type, mime, size}` or throws `FileRejectedError`
 *   (`.code`: empty | too_large | unsupported_type | corrupt | too_many_pixels; `.message` is for users).
 *   Certificates: PDF, JPG/JPEG, PNG, WEBP, ≤ 10 MB. Photos: JPG, PNG, GIF, WEBP, ≤ 2 MB.
 * - `toPdf(bytes, type)` → deterministic one-page PDF (same image, same bytes, same hash).
 * - `sha256Hex(bytes)` → lowercase hex.
 * - `sanitizePhoto(bytes, type)` → the profile photo without EXIF/GPS, rotation applied.
 */
export {
  inspectUpload,
  detectType,
  sha256Hex,
  FileRejectedError,
  MAX_CERTIFICATE_BYTES,
  MAX_PHOTO_BYTES,
  MAX_IMAGE_PIXELS,
  MIME_BY_TYPE,
  type UploadKind,
  type FileType,
  type ImageType,
  type InspectedFile,
  type FileRejectionCode,
} from './inspect.js';
export { toPdf, pageSizeFor, stripJpegMetadata } from './to-pdf.js';
export { sanitizePhoto } from './photo.js';
