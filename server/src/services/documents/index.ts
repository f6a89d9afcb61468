/**
 * Documents: reads a certificate PDF and checks it against what the holder claims.
 *
 * `checkDocument(pdfBytes, {title, institution_name, program_name}, {maxPages?, timeoutMs?})` →
 * `{textMatches: {title, institution, program}, text, tamperSignals, pageCount, pagesRead, producer?, creator?,
 * hiddenTextIgnored?, hiddenTextNote?, namedOnlyByHiddenText?, pagesDrawn, drawMs, visibilityNote?}`.
 * Text comes from pdfjs (first 10 pages, 5 s budget by default, fewer once the visible text names every
 * claim); matching ignores case, accents, ligatures, punctuation and line breaks.
 *
 * Only text a person sees counts (visible.ts): each page read is drawn (pdfjs on @napi-rs/canvas, 1 px
 * per point) as it is and with its text muted, and a glyph counts when what it paints differs from what
 * is beneath it by a readable contrast and its em is at least 4 pt. Text in an invisible rendering mode,
 * white on white, under an opaque shape, clipped away, outside the page, in a hidden layer or a point
 * high is left out (`hiddenTextIgnored`, `hiddenTextNote` for the log); when only such text names a
 * claim, the claim does not match and the tamper signal "Contains hidden text: …" says so. A page that
 * cannot be drawn has its text left out too, with the reason as a tamper signal (`visibilityNote`). Tamper signals are short sentences (incremental updates,
 * edited-after-created dates, an editing tool as producer, JavaScript, embedded files, encryption).
 * Throws `DocumentUnreadableError` (user-facing message) when the PDF cannot be opened at all, or is
 * too complex or too large to read (see below).
 *
 * No text layer (converted photos, scans): the largest image of each of the first 3 pages is read
 * with OCR (services/ocr, offline; 30 s budget) and matched fuzzily (`textNamesFuzzy`, ~1 edit per
 * 8 letters). `textSource` says 'pdf' | 'ocr' | 'none' ('none' = no usable text: `text` is empty,
 * `ocrNote` says why); `ocrConfidence`, `ocrMs`, `ocrPages` when OCR ran. Options `ocr: false`,
 * `ocrMaxPages`, `ocrTimeoutMs`.
 *
 * Parsing (pdf-lib, pdfjs text and page images) runs in reader processes (readers.ts; processes, not
 * worker threads: a worker past its heap limit can abort the whole server): at most 2 reading and
 * one more for uploads' checks, a queue beyond; each with a 256 MB heap and 1 GB of resident memory,
 * each document with a wall-clock limit (2 × timeoutMs + 8 s for the text, ocrTimeoutMs + 8 s for the
 * page images; the budgets inside the reader count its CPU time, cpu-clock.ts); past any of them the
 * reader is killed and the document is unreadable (too complex to read). Streams that decode to more
 * than the upload limits (services/files PDF_STREAM_LIMITS: 50 MB, images apart) are refused before
 * any parser decodes them. Option `checkedAtUpload` (what the upload's checks measured of these very
 * bytes, services/files `checkedPdf(sha256)`): streams measured there under limits no looser than the
 * reader's are not measured again. `closeDocumentReaders()` ends the readers (shutdown).
 */
export {
  checkDocument,
  normaliseText,
  textNames,
  textNamesFuzzy,
  textNamesPerson,
  editDistance,
  DocumentUnreadableError,
  TEXT_PREVIEW_CHARS,
  HIDDEN_TEXT_NOTE,
  type DocumentClaims,
  type ClaimField,
  type DocumentCheck,
  type CheckDocumentOptions,
  type TextSource,
} from './check.js';
export { closeDocumentReaders, documentReaderCount, documentReaders, keepDocumentReaderWarm, tuneDocumentReaders, INTAKE_TIME_LIMIT_MS, READER_HEAP_MB, READER_MAX_RSS_MB, READER_POOL_SIZE } from './readers.js';
