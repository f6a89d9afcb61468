// Certificate PDFs whose upload checks passed on this server, by SHA-256, with what the checks found
// (CheckedPdf). The document reader reads the same bytes moments later and would measure every
// stream and parse the structure again (~4–7 ms of a 1 MB certificate's read, #15): given these facts
// it does not. They are facts about the bytes, whoever uploaded them, so the key is the hash of the
// bytes the reader is sent. A miss (another server took the job, a restart, an old upload) only means
// the reader finds them itself, as it always did.
import type { CheckedPdf } from './rejection.js';

/** Uploads remembered at most (~200 bytes each): far more than are read in the minutes after their upload. */
export const CHECKED_PDFS_KEPT = 1000;

const checked = new Map<string, CheckedPdf>();

export function rememberCheckedPdf(sha256: string, facts: CheckedPdf): void {
  checked.delete(sha256); // re-inserted as the newest
  checked.set(sha256, facts);
  if (checked.size > CHECKED_PDFS_KEPT) checked.delete(checked.keys().next().value!);
}

/** What the upload checks found of the PDF whose bytes hash to `sha256`, if this server checked it. */
export function checkedPdf(sha256: string): CheckedPdf | undefined {
  return checked.get(sha256);
}
