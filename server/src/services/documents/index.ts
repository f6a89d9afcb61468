/**
 * Documents: reads a certificate PDF and checks it against what the holder claims.
 *
 * `checkDocument(pdfBytes, {title, institution_name, program_name}, {maxPages?, timeoutMs?})` →
 * `{textMatches: {title, institution, program}, text, tamperSignals, pageCount, pagesRead, producer?, creator?}`.
 * Text comes from pdfjs (first 10 pages, 5 s budget by default); matching ignores case, accents,
 * ligatures, punctuation and line breaks. Tamper signals are short sentences (incremental updates,
 * edited-after-created dates, an editing tool as producer, JavaScript, embedded files, encryption).
 * Throws `DocumentUnreadableError` (user-facing message) only when the PDF cannot be opened at all.
 *
 * No text layer (converted photos, scans): the largest image of each of the first 3 pages is read
 * with OCR (services/ocr, offline; 30 s budget) and matched fuzzily (`textNamesFuzzy`, ~1 edit per
 * 8 letters). `textSource` says 'pdf' | 'ocr' | 'none' ('none' = no usable text: `text` is empty,
 * `ocrNote` says why); `ocrConfidence`, `ocrMs`, `ocrPages` when OCR ran. Options `ocr: false`,
 * `ocrMaxPages`, `ocrTimeoutMs`.
 */
export {
  checkDocument,
  normaliseText,
  textNames,
  textNamesFuzzy,
  editDistance,
  DocumentUnreadableError,
  TEXT_PREVIEW_CHARS,
  type DocumentClaims,
  type DocumentCheck,
  type CheckDocumentOptions,
  type TextSource,
} from './check.js';
