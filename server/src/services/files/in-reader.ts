// The upload's PDF checks (./inspect-pdf.ts) and image conversion (./to-pdf.ts) run in a document
// reader process (services/documents readers.ts), not in the server's: both are synchronous
// JavaScript (pdf-lib's parse; its PNG decode and deflate) that a crafted file can make last seconds,
// and the server's event loop answers everyone. A refusal the reader threw comes back as the same
// FileRejectedError; a reader stopped at its time or memory limit refuses the file as too complex.
import { DocumentUnreadableError } from '../documents/errors.js';
import { runUploadTask, type ReaderError } from '../documents/readers.js';
import { corrupt, FileRejectedError, type CheckedPdf, type FileRejectionCode, type FileType, type ImageType } from './rejection.js';

/** checkPdf (./inspect-pdf.ts) in a reader process. */
export function checkUploadedPdf(bytes: Uint8Array): Promise<CheckedPdf> {
  return refusingAs('pdf', runUploadTask(bytes, { kind: 'check-pdf' }));
}

/** toPdf (./to-pdf.ts) in a reader process: a PDF is returned unchanged. */
export async function toPdf(bytes: Uint8Array, type: FileType): Promise<Uint8Array> {
  if (type === 'pdf') return bytes;
  return refusingAs(type, runUploadTask(bytes, { kind: 'image-to-pdf', type: type as ImageType }));
}

function refusingAs<T>(type: FileType, answer: Promise<T>): Promise<T> {
  return answer.catch((e) => {
    throw asRefusal(e, type);
  });
}

const AGAIN = 'Please export it again (for example with "Print to PDF") and re-upload.';

/** What the reader's failure means for the person who uploaded the file; other errors (no reader could start) stay as they are. */
function asRefusal(e: unknown, type: FileType): unknown {
  const thrown = (e as { fromReader?: ReaderError }).fromReader;
  if (thrown?.name === 'FileRejectedError') return new FileRejectedError(thrown.code as FileRejectionCode, thrown.message);
  const stop = e instanceof DocumentUnreadableError ? e.stop : undefined;
  if (!stop) return e;
  if (stop.limit === 'crashed') return type === 'pdf' ? corrupt('pdf', 'the checker stopped on it') : corrupt(type, 'it could not be converted to PDF');
  const cost = stop.limit === 'time' ? `took longer than ${stop.seconds} second${stop.seconds === 1 ? '' : 's'}` : `needed more than ${stop.mb} MB of memory`;
  return type === 'pdf'
    ? new FileRejectedError('too_complex', `This PDF is too complex to check: checking it ${cost}. ${AGAIN}`)
    : new FileRejectedError('too_complex', `This image is too complex to convert to PDF: converting it ${cost}. Please export it again as PNG or JPG and re-upload.`);
}
