/**
 * The PDF cannot be read: it does not open at all (not even its page tree), or reading it needs more
 * memory, time or decoded bytes than a certificate can. `message` is user-facing (the pipeline shows
 * it with reason unreadable_document).
 */
export class DocumentUnreadableError extends Error {
  constructor(
    message: string,
    /** Set when the reader process was stopped at a limit, or died, on this document (readers.ts). */
    readonly stop?: ReaderStop,
  ) {
    super(message);
    this.name = 'DocumentUnreadableError';
  }
}

/** Why a reader was stopped on a document: each caller words it for its own user (an upload's check, a verification). */
export type ReaderStop = { limit: 'time'; seconds: number } | { limit: 'memory'; mb: number } | { limit: 'crashed' };

const SIMPLER = 'Please upload a simpler export of the certificate (for example with "Print to PDF").';

/** The user-facing reasons a document is too complex or too large to read. */
export const UNREADABLE = {
  tooLarge: (mb: number) => `This document is too large to read: its compressed contents expand to more than ${mb} MB when opened. ${SIMPLER}`,
  tooMuchMemory: (mb: number) => `This document is too complex to read: reading it needed more than ${mb} MB of memory. ${SIMPLER}`,
  tooLong: (seconds: number) => `This document is too complex to read: reading it took longer than ${seconds} second${seconds === 1 ? '' : 's'}. ${SIMPLER}`,
  crashed: 'This document could not be read: the reader stopped on it. Please export it again and re-upload.',
};

/** The verification's words for a reader stopped on a document. */
export function readerStopped(stop: ReaderStop): DocumentUnreadableError {
  const message = stop.limit === 'time' ? UNREADABLE.tooLong(stop.seconds) : stop.limit === 'memory' ? UNREADABLE.tooMuchMemory(stop.mb) : UNREADABLE.crashed;
  return new DocumentUnreadableError(message, stop);
}
