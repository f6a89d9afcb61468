// A content mismatch says what the document names instead, each verification run is its own
// attempt, and the holder can correct mistyped claims (certificate.updateClaims): the same file is
// verified again against them.
import fs from 'node:fs';
import { TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CertificateStatus } from '../../shared/program/codec';
import type { Server } from '../src/app';
import { closestText, mismatchReason } from '../src/services/verification/claims';
import { certForm, makeClient, makePdf, signIn, startTestServer, tmpDataDir, waitFor } from './helpers';

const printed = { title: 'Bachelor of Science', institution_name: 'Northwind University', program_name: 'Computer Science', issue_date: '2024-05-01' };

let server: Server;
let dir: string;

beforeAll(async () => {
  dir = tmpDataDir();
  server = await startTestServer(dir);
}, 60_000);

afterAll(async () => {
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const codeOf = (e: unknown) => (e instanceof TRPCClientError ? (e.data as { code?: string } | undefined)?.code : undefined);
async function refusal(p: Promise<unknown>) {
  try {
    await p;
  } catch (e) {
    return { code: codeOf(e), message: (e as Error).message };
  }
  throw new Error('expected the call to be refused');
}

describe('the text closest to a claim', () => {
  const text = ['Northwind University', 'certifies that', 'Ada Lovelace', 'has been awarded the', 'Bachelor of Science', 'in Computer Science', 'Issued on 2024-05-01'].join('\n');

  it('finds what a mistyped claim meant', () => {
    expect(closestText(text, 'Bachelor of Sciense')).toBe('Bachelor of Science');
    expect(closestText(text, 'Northwind Univercity')).toBe('Northwind University');
    expect(closestText(text, 'Computer Sciences')).toBe('Computer Science');
    expect(closestText('', 'Anything')).toBeNull();
  });

  it('says it per claim, with the document and the claim side by side', () => {
    const r = mismatchReason(text, [{ field: 'title', claim: 'Bachelor of Sciense' }], false);
    expect(r.message).toMatch(/^The document names “Bachelor of Science”; you claimed the title “Bachelor of Sciense”\. /);
    expect(r.closest).toEqual({ title: 'Bachelor of Science' });
    expect(mismatchReason(text, [{ field: 'program', claim: 'Data Science' }], true).message).toMatch(/^The document \(read by OCR\) names “.+”; you claimed the program “Data Science”\./);
  });
});

describe('correcting the claims of a rejected certificate', () => {
  it('rejects a typo with the text the document names, then verifies the corrected claims as a second attempt', async () => {
    const c = makeClient(server.url);
    await signIn(c);
    const pdf = await makePdf([printed.institution_name, printed.title, `in ${printed.program_name}`]);
    const cert = await c.client.certificate.create.mutate(certForm({ ...printed, title: 'Bachelor of Sciense' }, { bytes: pdf, name: 'bsc.pdf', type: 'application/pdf' }));
    const rejected = await waitFor(async () => {
      const r = await c.client.certificate.byId.query({ id: cert.id });
      return r.verification_status !== 'pending' && r;
    }, 30_000);
    expect(rejected.verification_status).toBe('rejected');
    expect(rejected.verification_details?.reason).toMatch(/^The document names “Bachelor of Science”; you claimed the title “Bachelor of Sciense”\./);

    const first = await c.client.certificate.attempts.query({ id: cert.id });
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ number: 1, state: 'done', outcome: 'rejected' });
    expect(first[0].logs.map((l) => l.verification_step)).toEqual(['hash_verification', 'document_checks', 'chain_record']);
    expect(first[0].logs.every((l) => l.job_id === first[0].job_id)).toBe(true);

    // Validated like the create form.
    expect(await refusal(c.client.certificate.updateClaims.mutate({ id: cert.id, ...printed, title: '   ' }))).toMatchObject({ code: 'BAD_REQUEST', message: 'Title is required' });
    expect(await refusal(c.client.certificate.updateClaims.mutate({ id: cert.id, ...printed, program_name: '' }))).toMatchObject({ code: 'BAD_REQUEST', message: 'Program name is required' });
    // Someone else's certificate is not found, as everywhere.
    const other = makeClient(server.url);
    await signIn(other);
    expect(await refusal(other.client.certificate.updateClaims.mutate({ id: cert.id, ...printed }))).toMatchObject({ code: 'NOT_FOUND' });

    const updated = await c.client.certificate.updateClaims.mutate({ id: cert.id, ...printed, title: ' Bachelor of Science ' });
    expect(updated.certificate).toMatchObject({ title: 'Bachelor of Science', verification_status: 'pending', verification_details: null });
    expect(updated.job_id).not.toBe(first[0].job_id);
    // A second edit while that run is queued or running is refused, and changes nothing.
    const busy = await refusal(c.client.certificate.updateClaims.mutate({ id: cert.id, ...printed, title: 'Something Else' }));
    if (busy.code) expect(busy).toMatchObject({ code: 'CONFLICT', message: expect.stringMatching(/being verified right now/) });

    const verified = await waitFor(async () => {
      const r = await c.client.certificate.byId.query({ id: cert.id });
      return r.verification_status !== 'pending' && r;
    }, 30_000);
    expect(verified).toMatchObject({ verification_status: 'verified', title: 'Bachelor of Science', sha256: cert.sha256 });
    const record = await server.services.chain.readCertificate(Buffer.from(cert.sha256, 'hex'));
    expect(record?.status).toBe(CertificateStatus.Verified);

    const attempts = await c.client.certificate.attempts.query({ id: cert.id });
    expect(attempts.map((a) => [a.number, a.state, a.outcome])).toEqual([
      [1, 'done', 'rejected'],
      [2, 'done', 'verified'],
    ]);
    expect(attempts[1].job_id).toBe(updated.job_id);
    expect(attempts[1].logs.map((l) => l.verification_step)).toEqual(['hash_verification', 'document_checks', 'issuer_verification', 'chain_record']);

    // Verified: its details stay those it was verified with.
    expect(await refusal(c.client.certificate.updateClaims.mutate({ id: cert.id, ...printed, title: 'Master of Science' }))).toMatchObject({
      code: 'CONFLICT',
      message: 'A verified certificate keeps the details it was verified with.',
    });
    expect((await c.client.certificate.byId.query({ id: cert.id })).title).toBe('Bachelor of Science');
  }, 90_000);

  it('Try Again is a new attempt whose steps are its own', async () => {
    const c = makeClient(server.url);
    await signIn(c);
    const pdf = await makePdf(['Some Other College', 'Certificate of Attendance']);
    const cert = await c.client.certificate.create.mutate(certForm(printed, { bytes: pdf, name: 'x.pdf', type: 'application/pdf' }));
    await waitFor(async () => (await c.client.certificate.byId.query({ id: cert.id })).verification_status === 'rejected', 30_000);
    const again = await c.client.certificate.retryVerification.mutate({ id: cert.id });
    await waitFor(async () => {
      const a = await c.client.certificate.attempts.query({ id: cert.id });
      return a.length === 2 && a[1].state === 'done' && a;
    }, 30_000);
    const attempts = await c.client.certificate.attempts.query({ id: cert.id });
    expect(attempts[1]).toMatchObject({ job_id: again.job_id, number: 2, outcome: 'rejected' });
    expect(attempts[0].logs.map((l) => l.id)).not.toEqual(expect.arrayContaining(attempts[1].logs.map((l) => l.id)));
    // Until corrected, the claims stay what they were; a pending certificate with no run under way may be corrected too.
    expect((await c.client.certificate.byId.query({ id: cert.id })).title).toBe(printed.title);
  }, 90_000);
});
