// Attack (the auditors' a8-retry-loop): re-running verification was free. Check Status, Try Again and
// corrected details each queue a whole run (the document read in a child process, OCR for a scan), so a
// few wallets looping over unreadable scans kept the workers busy and delayed honest holders. Re-runs
// are paced per wallet (VERIFICATION_RERUN_RATE_LIMIT_PER_WALLET per CERTIFICATE_RATE_LIMIT_WINDOW_SEC,
// web app and REST together): past the pace, 429 with Retry-After and a message saying when, and
// nothing is queued. A click that starts nothing (a run under way, a verified certificate) costs nothing.
// The worker is off: each run is ended by the test (what the pace counts is runs queued), and the
// limiter's clock is moved instead of waiting.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server } from '../src/app';
import { loadConfig } from '../src/config';
import { certForm, makeClient, makePdf, refusal, signIn, startTestServer, tmpDataDir } from './helpers';

let server: Server;
const claims = { title: 'Scanned Diploma', institution_name: 'Harbor College', program_name: 'Nursing', issue_date: '2023-09-01' };

beforeAll(async () => {
  server = await startTestServer(tmpDataDir(), { ATTESTA_WORKER: 'false', VERIFICATION_RERUN_RATE_LIMIT_PER_WALLET: '2' });
});
afterAll(async () => {
  await server?.close();
});

const db = () => server.services.db;
const jobsOf = async (id: string) => (await db().selectFrom('verification_job').select('id').where('certificate_id', '=', id).execute()).length;
/** The run under way ends (as the worker would, with no verdict): the certificate stays pending. */
const endRuns = (id: string) => db().updateTable('verification_job').set({ status: 'done' }).where('certificate_id', '=', id).where('status', 'in', ['queued', 'running']).execute();

async function holderWithPending() {
  const b = makeClient(server.url);
  const { wallet } = await signIn(b);
  const cert = await b.client.certificate.create.mutate(certForm(claims, { bytes: await makePdf([claims.institution_name, claims.title]), name: 'c.pdf', type: 'application/pdf' }));
  return { b, wallet, cert };
}

describe('attack: re-running verification in a loop', () => {
  it('Check Status is paced per wallet: past it, 429 with Retry-After and when, nothing queued; clicks that start nothing are free', async () => {
    const { b, cert } = await holderWithPending();
    // The first run is still queued: Check Status answers it, and costs nothing.
    const first = await b.client.certificate.startVerification.mutate({ id: cert.id });
    for (let i = 0; i < 5; i++) expect((await b.client.certificate.startVerification.mutate({ id: cert.id })).job_id).toBe(first.job_id);
    // Two runs started again, one after the other: the pace.
    for (let i = 0; i < 2; i++) {
      await endRuns(cert.id);
      expect((await b.client.certificate.startVerification.mutate({ id: cert.id })).job_id).not.toBe(first.job_id);
    }
    await endRuns(cert.id);
    const jobs = await jobsOf(cert.id);
    await expect(b.client.certificate.startVerification.mutate({ id: cert.id })).rejects.toMatchObject(
      refusal('TOO_MANY_REQUESTS', /^You are starting verification again too often: at most 2 runs every 10 minutes from one wallet \(Check Status, Try Again and corrected details together\)\. You can start another in \d+ minutes?\./),
    );
    // Over HTTP: 429 and when to come back.
    const res = await b.fetch(`${server.url}/trpc/certificate.startVerification`, { method: 'POST', headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' }, body: JSON.stringify({ id: cert.id }) });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    // Corrected details are a re-run too: refused, and the details stay.
    await expect(b.client.certificate.updateClaims.mutate({ id: cert.id, ...claims, title: 'Scanned Diploma (corrected)' })).rejects.toMatchObject(refusal('TOO_MANY_REQUESTS'));
    expect((await b.client.certificate.byId.query({ id: cert.id })).title).toBe('Scanned Diploma');
    expect(await jobsOf(cert.id)).toBe(jobs);

    // Another wallet is not held back by this one.
    const other = await holderWithPending();
    await endRuns(other.cert.id);
    expect((await other.b.client.certificate.startVerification.mutate({ id: other.cert.id })).job_id).toEqual(expect.any(String));

    // The pace refills evenly: one run every 5 minutes (2 per 10).
    const limiter = server.services.creationLimiter;
    const now = limiter.now;
    try {
      limiter.now = () => now() + 5 * 60_000 + 1000;
      expect((await b.client.certificate.startVerification.mutate({ id: cert.id })).job_id).toEqual(expect.any(String));
    } finally {
      limiter.now = now;
    }
  });

  it('REST POST /api/v1/verify/{id} shares the pace: 429 with Retry-After and the same message', async () => {
    const { b, cert } = await holderWithPending();
    const { key } = await b.client.apiKeys.create.mutate({ name: 'loop' });
    const verify = () => fetch(`${server.url}/api/v1/verify/${cert.id}`, { method: 'POST', headers: { authorization: `Bearer ${key}` } });
    for (let i = 0; i < 2; i++) {
      await endRuns(cert.id);
      expect((await verify()).status).toBe(200);
    }
    await endRuns(cert.id);
    // The web app's Try Again, then REST: one pace.
    await expect(b.client.certificate.startVerification.mutate({ id: cert.id })).rejects.toMatchObject(refusal('TOO_MANY_REQUESTS'));
    const jobs = await jobsOf(cert.id);
    const res = await verify();
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await res.json()).toMatchObject({ error: { code: 'rate_limited', message: expect.stringMatching(/^You are starting verification again too often: at most 2 runs every 10 minutes/) } });
    expect(await jobsOf(cert.id)).toBe(jobs);
  });

  it('the pace is configuration, validated', () => {
    expect(loadConfig({}).limits.rerunsPerWallet).toBe(10);
    expect(loadConfig({ VERIFICATION_RERUN_RATE_LIMIT_PER_WALLET: '3' }).limits.rerunsPerWallet).toBe(3);
    for (const bad of ['0', '-1', '2.5', 'many']) expect(() => loadConfig({ VERIFICATION_RERUN_RATE_LIMIT_PER_WALLET: bad })).toThrow(/VERIFICATION_RERUN_RATE_LIMIT_PER_WALLET must be a positive integer/);
  });
});
