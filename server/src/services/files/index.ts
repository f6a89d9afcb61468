/**
 * Files: checks uploads by their bytes and turns certificate images into PDFs.
 *
 * - `inspectUpload(bytes, {kind})` → `{type, mime, size, pdf?}` or throws `FileRejectedError`
 *   (`.code`: empty | too_large | unsupported_type | corrupt | too_many_pixels | password_protected |
 *   active_content | too_many_pages | too_complex; `.message` is for users, saying what to fix).
 *   Certificates: PDF, JPG/JPEG, PNG, WEBP, ≤ 10 MB, images ≤ 40 Mpx. Photos: JPG, PNG, GIF, WEBP, ≤ 2 MB, ≤ 4096 × 4096.
 *   Animated GIF/WEBP: ≤ 40 Mpx for all frames together (counted from the header: frames × frame size).
 *   PDFs: ≤ 100 pages (page tree walked, /Count not trusted); refused with JavaScript, Launch actions or
 *   attached files; /Kids, /Parent or xref /Prev cycles and absurd nesting are refused as damaged;
 *   decompression bombs are refused as too complex: streams decoding to > 50 MB (images apart: each
 *   within its declared size, ≤ 256 MB together), measured by `measurePdfStreams` without holding the output.
 *   Image dimensions are read from the header before any pixel is decoded.
 * - `safeFileName(name, ext)` → a display/download name (no path, controls, bidi overrides; ≤ 120 chars).
 * - `contentDisposition(kind, name)` → a header value that is always valid (ASCII fallback + RFC 5987).
 * - `toPdf(bytes, type)` → deterministic one-page PDF (same image, same bytes, same hash).
 * The PDF checks and the conversion run in a document reader process (./in-reader.ts, services/documents
 * readers.ts: its heap, memory and time limits), never on the server's event loop; a file stopped at
 * those limits is refused as too complex.
 * - `sha256Hex(bytes)` → lowercase hex.
 * - `rememberCheckedPdf(sha256, facts)` / `checkedPdf(sha256)` → what a certificate PDF's upload checks
 *   measured (`inspectUpload(…).pdf`), kept by hash for the document reader (bounded).
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
  MAX_PHOTO_PIXELS,
  MAX_PDF_PAGES,
  MIME_BY_TYPE,
  type UploadKind,
  type FileType,
  type ImageType,
  type InspectedFile,
  type CheckedPdf,
  type FileRejectionCode,
} from './inspect.js';
export { toPdf } from './in-reader.js';
export { pageSizeFor, stripJpegMetadata } from './to-pdf.js';
export { checkedPdf, rememberCheckedPdf, CHECKED_PDFS_KEPT } from './checked-pdfs.js';
export { measurePdfStreams, PDF_STREAM_LIMITS, type PdfStreamLimits, type PdfStreamMeasure } from './pdf-streams.js';
export { sanitizePhoto } from './photo.js';
export { safeFileName, contentDisposition } from './names.js';
