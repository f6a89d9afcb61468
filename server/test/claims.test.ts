// A content mismatch says what the document names instead, each verification run is its own
// attempt, and the holder can correct mistyped claims (certificate.updateClaims): the same file is
// verified again against them.
import fs from 'node:fs';
import { TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CertificateStatus } from '../../shared/program/codec';
import type { Server } from '../src/app';
import { closestText, mismatchReason } from '../src/services/verification/claims';
import { certForm, makeClient, makePdf, nameWallet, newWallet, signIn, startTestServer, tmpDataDir, waitFor } from './helpers';

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

  // The audit: the PDF says "Diploma in Nursing", the claim "Diploma in Midwifery"; the reason quoted
  // “Diploma in”, which the document does not name as such.
  it('quotes the whole phrase the document has, never one cut after a filler word', () => {
    const diploma = ['Eastlake Institute', 'certifies that Jane Auditor', 'Diploma in Nursing', 'in Nursing', 'Issued on 2025-06-01'].join('\n');
    expect(closestText(diploma, 'Diploma in Midwifery')).toBe('Diploma in Nursing');
    expect(mismatchReason(diploma, [{ field: 'title', claim: 'Diploma in Midwifery' }], false).message).toMatch(/^The document names “Diploma in Nursing”; you claimed the title “Diploma in Midwifery”\. /);
    expect(closestText('Awarded the Master of Arts in History', 'Master of Science')).toBe('Master of Arts');
    // The longer phrase, when the document has one.
    expect(closestText('Diploma in Nursing and Midwifery', 'Diploma in Midwifery')).toBe('Diploma in Nursing and Midwifery');
  });

  it('says it per claim, with the document and the claim side by side', () => {
    const r = mismatchReason(text, [{ field: 'title', claim: 'Bachelor of Sciense' }], false);
    expect(r.message).toMatch(/^The document names “Bachelor of Science”; you claimed the title “Bachelor of Sciense”\. /);
    expect(r.closest).toEqual({ title: 'Bachelor of Science' });
    expect(mismatchReason(text, [{ field: 'program', claim: 'Data Science' }], true).message).toMatch(/^The document \(read by OCR\) names “.+”; you claimed the program “Data Science”\./);
  });

  it("says whose name the document gives when it is not the holder's profile name, and how to fix it", () => {
    const r = mismatchReason(text, [{ field: 'holder', claim: 'Ada Lovelase' }], false);
    expect(r.message).toBe('The document names “Ada Lovelace”; your profile name is “Ada Lovelase”. If your profile name is not written as on the certificate, correct it on the Profile page, then choose Try Again.');
    const both = mismatchReason(text, [{ field: 'title', claim: 'Bachelor of Sciense' }, { field: 'holder', claim: 'Ada Lovelase' }], false);
    expect(both.message).toMatch(/you claimed the title “Bachelor of Sciense”\. The document names “Ada Lovelace”; your profile name is “Ada Lovelase”\. If you mistyped them, correct the details \(and your full name on the Profile page, then choose Try Again\)/);
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

describe("the holder's name in the document", () => {
  const claims = { ...printed, issue_date: '2024-05-01' };
  const settled = (c: ReturnType<typeof makeClient>, id: string) =>
    waitFor(async () => {
      const r = await c.client.certificate.byId.query({ id });
      return r.verification_status !== 'pending' && r;
    }, 30_000);

  it('a holder with no profile name is asked for one before adding a certificate, and nothing is written', async () => {
    const c = makeClient(server.url);
    const { user } = await signIn(c, undefined, { name: null });
    expect(user.full_name).toBe('');
    const before = await server.services.db.selectFrom('certificate').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const pdf = await makePdf([printed.institution_name, printed.title, printed.program_name]);
    expect(await refusal(c.client.certificate.create.mutate(certForm(claims, { bytes: pdf, name: 'bsc.pdf', type: 'application/pdf' })))).toEqual({
      code: 'PRECONDITION_FAILED',
      message: 'Add your full name on the Profile page before adding a certificate: the check looks for it in the document.',
    });
    const after = await server.services.db.selectFrom('certificate').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    // With a name it goes through.
    await c.client.profile.update.mutate({ full_name: 'Alex Tester' });
    const cert = await c.client.certificate.create.mutate(certForm(claims, { bytes: pdf, name: 'bsc.pdf', type: 'application/pdf' }));
    expect((await settled(c, cert.id)).verification_status).toBe('verified');
  }, 60_000);

  it('REST: a wallet whose profile has no name gets 412 saying where to set it; nothing is written', async () => {
    const wallet = newWallet();
    const post = (p: string, body: unknown) => fetch(`${server.url}${p}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const n = await (await post('/api/v1/auth/nonce', { wallet_address: wallet.address })).json();
    const { token } = await (await post('/api/v1/auth/connect', { wallet_address: wallet.address, message: n.message, signature: wallet.sign(n.message) })).json();
    const pdf = await makePdf([printed.institution_name, printed.title, printed.program_name]);
    const form = () => {
      const fd = new FormData();
      for (const [k, v] of Object.entries(claims)) fd.set(k, v);
      fd.set('file', new File([pdf as BlobPart], 'bsc.pdf', { type: 'application/pdf' }));
      return fd;
    };
    const create = () => fetch(`${server.url}/api/v1/certificates`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form() });
    const refused = await create();
    expect(refused.status).toBe(412);
    expect(await refused.json()).toEqual({ error: { code: 'precondition_failed', message: 'Add your full name on the Profile page before adding a certificate: the check looks for it in the document.' } });
    expect(await server.services.db.selectFrom('certificate').select('id').where('holder_wallet', '=', wallet.address).execute()).toEqual([]);
    await nameWallet(server.url, wallet);
    expect((await create()).status).toBe(201);
  }, 60_000);

  it("rejects a certificate awarded to someone else, verifies it once the profile name is the one printed, and shows the name it checked", async () => {
    const c = makeClient(server.url);
    await signIn(c, undefined, { name: 'Ada Lovelase' });
    const pdf = await makePdf([printed.institution_name, printed.title, printed.program_name], { holder: 'Ada Lovelace' });
    const cert = await c.client.certificate.create.mutate(certForm(claims, { bytes: pdf, name: 'bsc.pdf', type: 'application/pdf' }));
    const rejected = await settled(c, cert.id);
    expect(rejected.verification_status).toBe('rejected');
    expect(rejected.verification_details?.reason).toBe(
      'The document names “Ada Lovelace”; your profile name is “Ada Lovelase”. If your profile name is not written as on the certificate, correct it on the Profile page, then choose Try Again.',
    );
    const doc = (await c.client.certificate.attempts.query({ id: cert.id }))[0].logs.find((l) => l.verification_step === 'document_checks');
    expect(doc?.details).toMatchObject({ missing: ['holder'], holder_name: 'Ada Lovelase', text_matches: { title: true, institution: true, program: true, holder: false } });

    await c.client.profile.update.mutate({ full_name: 'Ada Lovelace' });
    await c.client.certificate.retryVerification.mutate({ id: cert.id });
    // Try Again keeps the status until the new attempt decides.
    await waitFor(async () => (await c.client.certificate.attempts.query({ id: cert.id }))[1]?.state === 'done', 30_000);
    const verified = await c.client.certificate.byId.query({ id: cert.id });
    expect(verified.verification_status).toBe('verified');
    expect(verified.verification_details).toMatchObject({ kind: 'verdict', content_checked: true, holder_name: 'Ada Lovelace' });

    // The public page names whom the check found in the document, whatever the profile says later.
    await c.client.profile.update.mutate({ full_name: 'Somebody Else' });
    const anyone = makeClient(server.url);
    const view = await anyone.client.public.view.query({ userId: verified.user_id, certificateId: cert.id });
    expect(view.holder_name).toBe('Ada Lovelace');
    expect(view.verification_details).toMatchObject({ holder_name: 'Ada Lovelace' });
  }, 90_000);
});
