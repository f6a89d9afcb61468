// The document reader given what the upload's checks measured of the same bytes (files/checked-pdfs.ts):
// it reads an accepted PDF to the same result without measuring its streams again, it takes the fact
// only when it was measured under limits no looser than its own, it still parses the structure
// itself, and the verification's document step hands the fact over only for the bytes it reads.
import { deflateSync } from 'node:zlib';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { appendIncrementalUpdate, makeEncryptedPdf, makePdf } from '../../../test/fixtures/files.js';
import { pdfWithLaunchAction } from '../../../test/hostile-support/files.js';
import type { CertificateRow } from '../../db/schema';
import { CHECKED_PDFS_KEPT, checkedPdf, inspectUpload, PDF_STREAM_LIMITS, rememberCheckedPdf, sha256Hex } from '../files/index.js';
import { readCertificateFile } from '../certificates/intake';
import { CHECKS, type JobFacts } from '../verification/steps';
import { checkDocument, closeDocumentReaders, DocumentUnreadableError, type DocumentCheck } from './index.js';

const claims = { title: 'Certificate of Completion', institution_name: 'Loopback University', program_name: 'Applied Testing', holder_name: 'Ada Lovelace' };
const lines = [claims.title, claims.institution_name, claims.program_name, `awarded to ${claims.holder_name}`];
const LAUNCH = 'Contains an action that launches another program.';

afterAll(() => closeDocumentReaders());

/** The claims' lines, and a second content stream of comment lines that inflates to `bytes` (compressed to a few KB). */
async function pdfWithLongStream(bytes: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  lines.forEach((line, i) => page.drawText(line, { x: 50, y: 780 - i * 24, size: 14, font }));
  const comment = `%${'x'.repeat(1022)}\n`;
  const stream = doc.context.flateStream(comment.repeat(Math.ceil(bytes / comment.length)));
  page.node.addContentStream(doc.context.register(stream));
  return doc.save();
}

/** The claims' lines, and a stream no page uses that inflates to 60 MB of zeros: over the 50 MB every reader allows. */
async function pdfOverTheLimit(): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  lines.forEach((line, i) => page.drawText(line, { x: 50, y: 780 - i * 24, size: 14, font }));
  doc.context.register(doc.context.stream(deflateSync(Buffer.alloc(60 * 1024 * 1024)), { Filter: 'FlateDecode' }));
  return doc.save({ useObjectStreams: false });
}

/** What a check says, less how long its drawing took. */
const verdictOf = ({ drawMs: _, ...rest }: DocumentCheck) => rest;

async function accepted(pdf: Uint8Array) {
  const info = await inspectUpload(pdf, { kind: 'certificate' });
  expect(info.pdf).toBeDefined();
  return info.pdf!;
}

describe('a PDF read with the facts its upload checks found', () => {
  it('reads to the same verdict as when the reader measures it itself', async () => {
    const base = await makePdf({ lines, useObjectStreams: false, producer: 'pdf-lib' });
    const pdfs: Record<string, Uint8Array> = {
      'plain, object streams': await makePdf({ lines, pages: 3 }),
      'encrypted, opens without a password': await makeEncryptedPdf({ userPassword: '', lines }),
      'changed after it was first saved': await appendIncrementalUpdate(base, { producer: 'Adobe Acrobat Pro', modDate: 'D:20300101000000Z' }),
      'a stream inflating to 2 MB': await pdfWithLongStream(2 * 1024 * 1024),
    };
    for (const [what, pdf] of Object.entries(pdfs)) {
      const facts = await accepted(pdf);
      const itself = await checkDocument(pdf, claims);
      const handed = await checkDocument(pdf, claims, { checkedAtUpload: facts });
      expect(verdictOf(handed), what).toEqual(verdictOf(itself));
    }
    // The cases differ where they should (the comparison above is not of empty verdicts).
    expect((await checkDocument(pdfs['encrypted, opens without a password'], claims, { checkedAtUpload: await accepted(pdfs['encrypted, opens without a password']) })).tamperSignals).toContain('The PDF is encrypted.');
    expect((await checkDocument(pdfs['plain, object streams'], claims, { checkedAtUpload: await accepted(pdfs['plain, object streams']) })).textMatches).toEqual({ title: true, institution: true, program: true, holder: true });
  });

  it('takes the facts only when they were measured under limits no looser than its own', async () => {
    const pdf = await pdfWithLongStream(256 * 1024); // accepted at upload (under 50 MB decoded)
    const facts = await accepted(pdf);
    expect(facts.streamLimits).toEqual(PDF_STREAM_LIMITS);
    const tight = { limits: { streams: { maxDecodedBytes: 64 * 1024 } } };
    // This reader allows 64 KB: the upload measured against 50 MB, which says nothing of 64 KB.
    await expect(checkDocument(pdf, claims, tight)).rejects.toBeInstanceOf(DocumentUnreadableError);
    await expect(checkDocument(pdf, claims, { ...tight, checkedAtUpload: facts })).rejects.toThrow(/too large|too complex/i);
    // Facts measured against the reader's own limits are taken as they are: nothing is measured again.
    const measuredTight = { ...facts, streamLimits: { ...PDF_STREAM_LIMITS, maxDecodedBytes: 64 * 1024 } };
    await expect(checkDocument(pdf, claims, { ...tight, checkedAtUpload: measuredTight })).resolves.toMatchObject({ pageCount: 1, textMatches: { title: true } });
    // Images told apart by another pixel bound count against other budgets: not taken either.
    const otherPixels = { ...measuredTight, streamLimits: { ...measuredTight.streamLimits, maxImagePixels: 1000 } };
    await expect(checkDocument(pdf, claims, { ...tight, checkedAtUpload: otherPixels })).rejects.toBeInstanceOf(DocumentUnreadableError);
  });

  it('still parses the structure itself: the fact is about the streams only', async () => {
    // Refused at upload; handed a fact anyway (as if it had been accepted), the reader finds the action.
    const launch = await pdfWithLaunchAction();
    await expect(inspectUpload(launch, { kind: 'certificate' })).rejects.toThrow(/Launch/);
    expect((await checkDocument(launch, claims, { checkedAtUpload: { streamLimits: PDF_STREAM_LIMITS } })).tamperSignals).toContain(LAUNCH);
  });
});

describe('the facts kept by hash, and the document step', () => {
  it('keeps the facts of an accepted certificate PDF, not of a refused file or a converted image', async () => {
    const pdf = await makePdf({ lines });
    const read = await readCertificateFile(new File([pdf as BlobPart], 'cert.pdf', { type: 'application/pdf' }));
    expect(read.sha256).toBe(sha256Hex(pdf));
    expect(checkedPdf(read.sha256)).toEqual({ streamLimits: PDF_STREAM_LIMITS });

    const launch = await pdfWithLaunchAction();
    await expect(readCertificateFile(new File([launch as BlobPart], 'cert.pdf'))).rejects.toThrow(/Launch/);
    expect(checkedPdf(sha256Hex(launch))).toBeUndefined();

    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    );
    const converted = await readCertificateFile(new File([png], 'cert.png', { type: 'image/png' }));
    expect(checkedPdf(converted.sha256)).toBeUndefined();
  });

  it('keeps a bounded number, the least recently remembered dropped first', () => {
    const facts = { streamLimits: PDF_STREAM_LIMITS };
    const key = (i: number) => `bound-${String(i).padStart(58, '0')}`;
    for (let i = 0; i < CHECKED_PDFS_KEPT; i++) rememberCheckedPdf(key(i), facts);
    rememberCheckedPdf(key(0), facts); // remembered again: now the newest
    rememberCheckedPdf(key(CHECKED_PDFS_KEPT), facts);
    expect(checkedPdf(key(0))).toBeDefined();
    expect(checkedPdf(key(1))).toBeUndefined();
    expect(checkedPdf(key(CHECKED_PDFS_KEPT))).toBeDefined();
  });

  it('hands the reader the fact kept for the hash of the bytes it reads, never that of the row', async () => {
    // Refused at upload (too complex), so no upload remembers it; a fact is kept for it here to see
    // whether the reader took it: taken, the reader does not measure and reads the page.
    const over = await pdfOverTheLimit();
    await expect(inspectUpload(over, { kind: 'certificate' })).rejects.toThrow(/too complex/);
    const facts = { streamLimits: PDF_STREAM_LIMITS };
    const run = async (bytes: Uint8Array, rowSha256: string) => {
      const job = {
        svc: undefined as never,
        cert: { title: claims.title, institution_name: claims.institution_name, program_name: claims.program_name, sha256: rowSha256 } as CertificateRow,
        hash: new Uint8Array(32),
        file: async () => bytes,
        record: async () => null,
        holderName: async () => claims.holder_name,
      } satisfies JobFacts;
      return CHECKS.document_checks.run(job);
    };
    // Kept under the row's hash (what the chain anchored) while the stored file is other bytes: not
    // taken, the reader measures the file and refuses it.
    const rowHash = sha256Hex(await makePdf({ lines }));
    rememberCheckedPdf(rowHash, facts);
    expect(await run(over, rowHash)).toMatchObject({ status: 'failed', message: expect.stringMatching(/too large|too complex/i) });
    // Kept under the hash of the bytes read: taken.
    rememberCheckedPdf(sha256Hex(over), facts);
    expect(await run(over, rowHash)).toMatchObject({ status: 'success' });
  });
});
