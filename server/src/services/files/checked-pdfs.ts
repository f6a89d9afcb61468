// Certificate PDFs whose upload checks passed on this server, by SHA-256, with what the checks
// measured (CheckedPdf: every stream decodes within the limits). The document reader reads the same
// bytes moments later and would measure every stream again (~3 ms of CPU, most of it zlib in the
// thread pool, for a 1 MB certificate, #15): given the fact it does not. It is a fact about the bytes,
// whoever uploaded them, so the key is the hash of the bytes the reader is sent; a measure has no
// budget that could cut it short, so a miss (another server took the job, a restart, an old upload)
// only means the reader measures again and comes to the same answer.
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
