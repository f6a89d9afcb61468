// A document reader kept warm (the server's default, ATTESTA_DOCUMENT_READER_WARM): one reader process
// is started and warmed up ahead of the first certificate, one that dies or goes idle is replaced, and
// nothing is started again once the readers are closed. A reader's first document otherwise costs the
// holder ~0.8 s more (the process starts, pdfjs and the canvas load on it).
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { readPdf } from '../src/services/documents/read';
import { readFileSync } from 'node:fs';
import { photoCertificateDocument, warmUpDocument } from '../src/services/documents/warm-up';
import { checkDocument, closeDocumentReaders, documentReaderCount, documentReaders, keepDocumentReaderWarm, tuneDocumentReaders } from '../src/services/documents/index.js';
import { PDF_STREAM_LIMITS } from '../src/services/files/pdf-streams';
import { makePdf } from './fixtures/files';
import { startTestServer, tmpDataDir } from './helpers';

const until = async (what: string, ok: () => boolean) => {
  for (let i = 0; i < 600 && !ok(); i++) await new Promise((r) => setTimeout(r, 50));
  if (!ok()) throw new Error(`timed out waiting for: ${what}`);
};
const commandLine = (pid: number | undefined) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
const claims = { title: 'Certificate of Completion', institution_name: 'Northfield University', program_name: 'Applied Testing' };

afterEach(async () => {
  await closeDocumentReaders();
  tuneDocumentReaders({ idleMs: 30_000, warmMaxRssMb: 240 });
});
afterAll(() => closeDocumentReaders());

describe('a document reader kept warm', () => {
  it('the warm-up document is read the whole way a certificate is: text layer, drawing and comparison', async () => {
    const r = await readPdf(await warmUpDocument(), { maxPages: 1, timeoutMs: 5000, ocr: null, streamLimits: PDF_STREAM_LIMITS, claims: ['Warm-up University'] }, { phase: () => undefined });
    expect(r.text).toContain('Warm-up University');
    expect(r.visibility).toMatchObject({ pagesDrawn: 1, draws: 2, hiddenLetters: 0, notes: [] });
    // The deep warm-up's certificate too, the line that runs over its photo judged on the photo's pixels.
    const deep = await readPdf(await photoCertificateDocument(), { maxPages: 1, timeoutMs: 5000, ocr: null, streamLimits: PDF_STREAM_LIMITS, claims: ['Warm-up University'] }, { phase: () => undefined });
    expect(deep.text).toContain('awarded to the document reader, whose name runs over the photo');
    expect(deep.visibility).toMatchObject({ pagesDrawn: 1, draws: 2, hiddenLetters: 0, notes: [] });
  });

  it('is started and ready before any document, idle, and reads the first document itself', async () => {
    expect(documentReaderCount()).toBe(0);
    await keepDocumentReaderWarm(true);
    const [warm] = documentReaders();
    expect(documentReaders()).toEqual([{ pid: warm.pid, idle: true }]);
    // Started ahead, it warmed up deeply (warm-up.ts); a reader started for a document does not (below).
    expect(commandLine(warm.pid)).toContain('--deep-warm-up');
    const r = await checkDocument(await makePdf({ lines: ['Certificate of Completion', 'Northfield University', 'Applied Testing'] }), claims);
    expect(r.textMatches).toEqual({ title: true, institution: true, program: true });
    // The same process read it: no second reader was started for the first document.
    expect(documentReaders()).toEqual([{ pid: warm.pid, idle: true }]);
  });

  it('from source, a reader holds what the compiled one does: under the bound a warm reader is kept at', async () => {
    // Loaded through tsx, pdfjs and pdf-lib went through its loader too: 430–460 MB resident after the
    // deep warm-up (the compiled reader: ~160 MB), past the bound, so tests read with less room than
    // production and a warm reader from source was replaced every time it went idle.
    await keepDocumentReaderWarm(true);
    const [warm] = documentReaders();
    const residentMb = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${warm.pid}/status`, 'utf8'))![1]) / 1024;
    expect(residentMb).toBeLessThan(240); // readers.ts tuning.warmMaxRssMb
    expect(residentMb).toBeGreaterThan(50); // it is a reader that loaded pdfjs and the canvas
  });

  it('a reader that dies is replaced by a fresh warm one; closing the readers starts none again', async () => {
    await keepDocumentReaderWarm(true);
    const [first] = documentReaders();
    process.kill(first.pid!, 'SIGKILL');
    await until('a new warm reader', () => documentReaders().some((r) => r.pid !== first.pid));
    expect(documentReaderCount()).toBe(1);
    await closeDocumentReaders();
    expect(documentReaderCount()).toBe(0);
    await new Promise((r) => setTimeout(r, 300));
    expect(documentReaderCount()).toBe(0);
  });

  it('when it goes idle it stays while as lean as a fresh one, and is replaced by a fresh one when not', async () => {
    tuneDocumentReaders({ idleMs: 100 }); // the server's bound (240 MB): a reader from source holds what production's does
    await keepDocumentReaderWarm(true);
    const [first] = documentReaders();
    const pdf = await makePdf({ lines: ['Certificate of Completion', 'Northfield University', 'Applied Testing'] });
    await checkDocument(pdf, claims);
    await new Promise((r) => setTimeout(r, 600));
    expect(documentReaders()).toEqual([{ pid: first.pid, idle: true }]);
    // Past the bound (every reader holds more than 1 MB): the idle one is ended and a fresh one started.
    tuneDocumentReaders({ warmMaxRssMb: 1 });
    await checkDocument(pdf, claims);
    await until('a fresh warm reader', () => documentReaders().length === 1 && documentReaders()[0].pid !== first.pid);
    // Idle readers that are not the warm one end as before.
    await keepDocumentReaderWarm(false);
    const [fresh] = documentReaders();
    await checkDocument(pdf, claims);
    expect(documentReaders()[0].pid).toBe(fresh.pid);
    await until('no reader', () => documentReaderCount() === 0);
  });

  it('not kept warm, no reader is started until a document comes', async () => {
    await keepDocumentReaderWarm(false);
    expect(documentReaderCount()).toBe(0);
    await checkDocument(await makePdf({ lines: ['Certificate of Completion'] }), claims);
    expect(documentReaderCount()).toBe(1);
    expect(commandLine(documentReaders()[0].pid)).not.toContain('--deep-warm-up');
  });

  it('a server on its defaults keeps one warm; ATTESTA_DOCUMENT_READER_WARM=false keeps none', async () => {
    const server = await startTestServer(tmpDataDir(), { ATTESTA_DOCUMENT_READER_WARM: 'true' });
    try {
      await until('the warm reader', () => documentReaders().length === 1);
    } finally {
      await server.close();
    }
    expect(documentReaderCount()).toBe(0);
    const cold = await startTestServer(tmpDataDir(), { ATTESTA_DOCUMENT_READER_WARM: 'false' });
    try {
      await new Promise((r) => setTimeout(r, 500));
      expect(documentReaderCount()).toBe(0);
    } finally {
      await cold.close();
    }
  });
});
