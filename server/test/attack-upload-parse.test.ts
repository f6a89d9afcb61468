// Attack: uploads whose checks are slow by design. pdf-lib's parse (the upload's PDF checks) and its
// PNG decode and deflate (an image's conversion to PDF) are synchronous JavaScript. In the server's
// process a 9.3 MB PDF holding one array of 4.9M numbers held its event loop for 3–4.5 s per upload
// and a 19 KB PNG of 4 Mpx for ~0.5 s (every other request waited: /healthz answered at most every
// 4.4 s, measured by hostile-support/measure-attacks.ts slow-parse), and an upload refused after that
// work (a duplicate) gave its creation back, so nothing paced it. Now both run in a document reader
// process (services/files in-reader.ts) under its heap, memory and time limits; the server answers
// while they run; a reader stopped at a limit refuses the file as too complex and writes nothing. The
// pace of refused uploads is creation-limits.test.ts's.
import { TRPCClientError } from '@trpc/client';
import fs from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Server } from '../src/app';
import { documentReaders, INTAKE_TIME_LIMIT_MS, tuneDocumentReaders } from '../src/services/documents';
import { certForm, footprint, makeClient, makePdf, signIn, startTestServer, tmpDataDir, waitFor } from './helpers';
import { pdfSlowToParse, pngCheapToSendSlowToConvert } from './hostile-support/files';

let server: Server;
let dir: string;
let holder: ReturnType<typeof makeClient>;
const details = { title: 'Certificate of Completion', institution_name: 'Slow Parse Academy', program_name: 'Patience', issue_date: '2025-03-03' };

beforeAll(async () => {
  dir = tmpDataDir();
  server = await startTestServer(dir, { ATTESTA_WORKER: 'false' });
  holder = makeClient(server.url);
  await signIn(holder);
}, 120_000);

afterAll(async () => {
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

afterEach(() => tuneDocumentReaders({ intakeTimeLimitMs: INTAKE_TIME_LIMIT_MS }));

const upload = (bytes: Uint8Array, name: string, type: string) =>
  holder.client.certificate.create.mutate(certForm(details, { bytes, name, type })).then(
    (cert) => ({ added: cert.id as string }),
    (e: unknown) => {
      if (!(e instanceof TRPCClientError)) throw e;
      return { status: e.data?.httpStatus as number, message: e.message };
    },
  );

const SIMPLER = 'Please export it again \\(for example with "Print to PDF"\\) and re-upload\\.';

describe('attack: uploads built to be slow to check', () => {
  it('the server answers everyone while a reader process checks a PDF built to be slow to parse; refused as too complex, nothing written', async () => {
    const before = await footprint(server);
    let answered = false;
    const answer = upload(pdfSlowToParse(), 'slow.pdf', 'application/pdf').finally(() => (answered = true));
    try {
      // The check is under way in a reader process (before, none was involved: the parse ran here)…
      await waitFor(async () => documentReaders().some((r) => !r.idle));
      // …and meanwhile a plain route and a database-backed query of a visitor are answered.
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      const verdict = await makeClient(server.url).client.public.verifyByHash.query({ sha256: 'ab'.repeat(32) });
      expect(verdict).toMatchObject({ status: 'not_found' });
      expect(answered).toBe(false);
    } finally {
      await answer; // a failed expectation above must not leave the check running into the next test
    }
    // It dies of its heap limit (a reader holds 256 MB; the array takes more) or is stopped at its time limit.
    expect(await answer).toEqual({
      status: 400,
      message: expect.stringMatching(new RegExp(`^This PDF is too complex to check: checking it (needed more than 256 MB of memory|took longer than ${INTAKE_TIME_LIMIT_MS / 1000} seconds)\\. ${SIMPLER}$`)),
    });
    expect(await footprint(server)).toEqual(before);
  });

  it('a check stopped at its time limit kills its reader and says what to do; the next upload is checked by a fresh reader', async () => {
    tuneDocumentReaders({ intakeTimeLimitMs: 1000 });
    const before = await footprint(server);
    const answer = upload(pdfSlowToParse(), 'slow.pdf', 'application/pdf');
    const checking = await waitFor(async () => documentReaders().find((r) => !r.idle));
    expect(await answer).toEqual({ status: 400, message: expect.stringMatching(new RegExp(`^This PDF is too complex to check: checking it took longer than 1 second\\. ${SIMPLER}$`)) });
    expect(documentReaders().map((r) => r.pid)).not.toContain(checking.pid);
    expect(await footprint(server)).toEqual(before);
    // An honest certificate goes through as before.
    tuneDocumentReaders({ intakeTimeLimitMs: INTAKE_TIME_LIMIT_MS });
    const honest = await upload(await makePdf([details.title, details.institution_name, details.program_name]), 'honest.pdf', 'application/pdf');
    expect(honest).toEqual({ added: expect.stringMatching(/^c_/) });
  });

  it('an image conversion runs in a reader too: stopped at its limit, the image is refused as too complex and nothing is written', async () => {
    const png = await pngCheapToSendSlowToConvert();
    tuneDocumentReaders({ intakeTimeLimitMs: 1 });
    const before = await footprint(server);
    expect(await upload(png, 'scan.png', 'image/png')).toEqual({
      status: 400,
      message: 'This image is too complex to convert to PDF: converting it took longer than 1 second. Please export it again as PNG or JPG and re-upload.',
    });
    expect(await footprint(server)).toEqual(before);
    // Within the limit the same image is converted (the one-page PDF it becomes is what is anchored).
    tuneDocumentReaders({ intakeTimeLimitMs: INTAKE_TIME_LIMIT_MS });
    expect(await upload(png, 'scan.png', 'image/png')).toEqual({ added: expect.stringMatching(/^c_/) });
  });
});
