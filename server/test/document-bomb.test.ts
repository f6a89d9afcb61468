// The red team's PDF decompression bomb (item 6), as tests: a small PDF whose content stream inflates
// to hundreds of MB. Refused at upload (hostile-files.test.ts); here checkDocument meets it directly,
// as the verification pipeline would for a stored file: it is refused in a reader process, by the
// decoded-size limit or, with that lifted, by the reader's heap or time limit, while the server
// keeps answering /healthz.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server } from '../src/app';
import { checkDocument, closeDocumentReaders, documentReaderCount, documentReaders, DocumentUnreadableError, READER_POOL_SIZE } from '../src/services/documents/index.js';
import { mayStart } from '../src/services/documents/readers.js';
import { inspectUpload, PDF_STREAM_LIMITS } from '../src/services/files/index.js';
import { makePdf, startTestServer, tmpDataDir, waitFor } from './helpers';
import { pdfFlateBomb, pdfSlowToParse } from './hostile-support/files';

const claims = { title: 'Certificate of Completion', institution_name: 'Bomb Academy', program_name: 'Inflation' };
/** No decoded-size limit: the parser itself meets the bomb. */
const LIFTED = { streams: { maxDecodedBytes: Infinity, maxImageBytes: Infinity } };

let server: Server;
let bomb: Uint8Array;
beforeAll(async () => {
  server = await startTestServer(tmpDataDir(), { ATTESTA_WORKER: 'false' });
  bomb = await pdfFlateBomb(300_000_000);
});
afterAll(async () => {
  await server?.close(); // ends the reader processes too (app.ts)
});

/** Asks /healthz again and again until `pending` settles; the statuses answered while it was still pending. */
async function healthWhile(pending: Promise<unknown>): Promise<number[]> {
  let settled = false;
  pending.then(
    () => (settled = true),
    () => (settled = true),
  );
  const during: number[] = [];
  while (!settled) {
    const res = await fetch(`${server.url}/healthz`);
    await res.text();
    if (!settled) during.push(res.status);
    await new Promise((r) => setTimeout(r, 20));
  }
  return during;
}

async function rejection(p: Promise<unknown>): Promise<Error> {
  return p.then(
    () => {
      throw new Error('expected checkDocument to refuse the document');
    },
    (e: Error) => e,
  );
}

describe('a PDF decompression bomb given to checkDocument (upload bypassed)', () => {
  it('is small on disk: 300 MB of content in a file under 1 MB', () => {
    expect(bomb.length).toBeLessThan(1024 * 1024);
  });

  it('is refused before any parser decodes it: unreadable, too large to read', async () => {
    const err = await rejection(checkDocument(bomb, claims));
    expect(err).toBeInstanceOf(DocumentUnreadableError);
    expect(err.message).toMatch(/^This document is too large to read: its compressed contents expand to more than 50 MB when opened\. Please upload a simpler export/);
  });

  it('with that limit lifted, pdfjs meets it in a reader process, stopped at its memory limit, while /healthz answers', { timeout: 90_000 }, async () => {
    // The time limit (18 s) out of the way: on a busy machine the parse reached it before either memory
    // limit once (a clean-clone run beside a CPU-bound job), and this is about memory.
    const pending = checkDocument(bomb, claims, { limits: { ...LIFTED, timeMs: 60_000 } });
    const during = await healthWhile(pending);
    const err = await rejection(pending);
    expect(err).toBeInstanceOf(DocumentUnreadableError);
    // The heap limit (256 MB) or the resident-memory limit (1 GB), whichever the parse meets first.
    expect(err.message).toMatch(/^This document is too complex to read: reading it needed more than (256|1024) MB of memory\./);
    expect(during.length, 'the main thread answered while the bomb was being parsed').toBeGreaterThan(0);
    expect(new Set(during)).toEqual(new Set([200]));
  });

  it('a parse past its time limit is killed (and reported as too complex), while /healthz answers', async () => {
    const pending = checkDocument(bomb, claims, { limits: { ...LIFTED, heapMb: 1024, timeMs: 300 } });
    const during = await healthWhile(pending);
    const err = await rejection(pending);
    expect(err).toBeInstanceOf(DocumentUnreadableError);
    expect(err.message).toMatch(/^This document is too complex to read: reading it took longer than 1 second\./);
    expect(during.length).toBeGreaterThan(0);
  });

  it('afterwards the server answers and a normal document is read as before (the killed reader replaced)', async () => {
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const r = await checkDocument(await makePdf(['Certificate of Completion', 'Bomb Academy', 'Inflation']), claims);
    expect(r.textMatches).toEqual({ title: true, institution: true, program: true });
  });

  it(`a burst of documents never starts more than ${READER_POOL_SIZE} reader processes`, async () => {
    await closeDocumentReaders();
    const pdfs = await Promise.all(Array.from({ length: 6 }, (_, i) => makePdf(['Certificate of Completion', `Bomb Academy ${i}`, 'Inflation'])));
    let most = 0;
    const sampler = setInterval(() => (most = Math.max(most, documentReaderCount())), 5);
    try {
      const results = await Promise.all([bomb, ...pdfs].map((pdf) => checkDocument(pdf, claims).then((r) => r.textMatches.title, (e: Error) => e.name)));
      expect(results).toEqual(['DocumentUnreadableError', true, true, true, true, true, true]);
    } finally {
      clearInterval(sampler);
    }
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(READER_POOL_SIZE);
  });

  it(`with ${READER_POOL_SIZE} readers reading, an upload's check gets one reader more and does not wait for them; reads never take it`, async () => {
    await closeDocumentReaders();
    const slow = pdfSlowToParse(); // seconds of parsing, then the reader's heap limit
    const honest = await makePdf(['Certificate of Completion', 'Bomb Academy', 'Inflation']);
    let readsDone = 0;
    const reads = [slow, slow, honest].map((pdf) => checkDocument(pdf, claims).then((r) => r.textMatches.title, (e: Error) => e.name).finally(() => readsDone++));
    let most = 0;
    const sampler = setInterval(() => (most = Math.max(most, documentReaderCount())), 5);
    try {
      await waitFor(async () => documentReaders().filter((r) => !r.idle).length === READER_POOL_SIZE);
      // The third read waits for a reader; the upload's check does not.
      expect(await inspectUpload(honest, { kind: 'certificate' })).toMatchObject({ type: 'pdf', pdf: { streamLimits: PDF_STREAM_LIMITS } });
      expect(readsDone).toBe(0);
      expect(documentReaderCount()).toBe(READER_POOL_SIZE + 1);
      // The reader it used is idle again, and the waiting read is not given it.
      expect(documentReaders().filter((r) => !r.idle)).toHaveLength(READER_POOL_SIZE);
      expect(await Promise.all(reads)).toEqual(['DocumentUnreadableError', 'DocumentUnreadableError', true]);
    } finally {
      clearInterval(sampler);
      await Promise.allSettled(reads);
    }
    expect(most).toBe(READER_POOL_SIZE + 1);
  });

  it("the pool's rule: reads up to the pool; an upload's check in any reader, but while reads wait only in its own one", () => {
    const now = (reading: number, checking: number, readsWaiting: number) => ({ reading, checking, readsWaiting });
    expect(mayStart('read', now(READER_POOL_SIZE - 1, 1, 0))).toBe(true);
    expect(mayStart('read', now(READER_POOL_SIZE, 0, 0))).toBe(false);
    // Every pool reader reading: a check still starts (in the one reader more).
    expect(mayStart('upload', now(READER_POOL_SIZE, 0, 3))).toBe(true);
    // Checks fill the readers while no read waits…
    expect(mayStart('upload', now(0, 2, 0))).toBe(true);
    // …but once one waits, a freed reader goes to it, not to the next check (a stream of checks cannot starve reads).
    expect(mayStart('upload', now(0, 1, 1))).toBe(false);
    expect(mayStart('upload', now(0, 2, 1))).toBe(false);
  });
});
