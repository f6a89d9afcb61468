// Attacks on "the database follows the chain": a status changed on chain by someone else must show
// everywhere, and a revoked certificate's file must never be served publicly again. Each test is the
// attack; it asserts the promised behaviour, so it fails while the hole is open.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Keypair, type Connection } from '@solana/web3.js';
import { CERTIFICATES_PROGRAM_ID } from '../../shared/program/ids';
import { issueCertificateIx, requestConfirmationIx, revokeCertificateIx } from '../../shared/program/instructions';
import { ReasonCode } from '../../shared/program/reasons';
import type { Server } from '../src/app';
import { certForm, makeClient, signIn, startTestServer, tmpDataDir, waitFor } from './helpers';
import { INSTITUTION, approvedIssuer, fund, holderWithCertificate, jobsSettled, rpcConnection, send } from './attack-support/world';

const programId = CERTIFICATES_PROGRAM_ID;
const dirs: string[] = [];
let server: Server;
let conn: Connection;
const institution = Keypair.generate();

beforeAll(async () => {
  const d = tmpDataDir();
  dirs.push(d);
  server = await startTestServer(d);
  conn = rpcConnection(server);
  await approvedIssuer(server, institution, INSTITUTION);
  await fund(conn, institution);
}, 120_000);

afterAll(async () => {
  await server?.close();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** A platform-verified certificate that the institution the holder asked then revoked on chain. */
async function revokedCertificate(title: string) {
  const h = await holderWithCertificate(server, title);
  expect(h.row.verification_status).toBe('verified');
  await fund(conn, h.holder);
  await send(conn, h.holder, requestConfirmationIx(programId, { hash: h.hash, holder: h.holder.publicKey, issuerAuthority: institution.publicKey }));
  const signature = await send(conn, institution, revokeCertificateIx(programId, { hash: h.hash, authority: institution.publicKey, reasonCode: ReasonCode.RevokedFraud }));
  await server.chainSync.idle();
  expect((await h.c.client.certificate.byId.query({ id: h.id })).verification_status).toBe('revoked');
  expect((await fetch(`${server.url}/files/certificates/${h.id}`)).status).toBe(404);
  // The certificate's history says who revoked it, when, and with which transaction (followed from the chain);
  // the holder's request (sent on chain too) is withdrawn with it.
  const events = await h.c.client.certificate.events.query({ id: h.id });
  expect(events.map((e) => [e.kind, e.source])).toEqual([
    ['confirmation_requested', 'chain'],
    ['request_withdrawn', 'attesta'],
    ['revoked', 'chain'],
  ]);
  expect(events[2]).toMatchObject({ signature, actor: { role: 'issuer', wallet: institution.publicKey.toBase58(), name: INSTITUTION } });
  expect(events[2].message).toMatch(/^Revoked on .* by Northfield Institute of Technology/);
  // The platform's run keeps the outcome it reached itself.
  expect((await h.c.client.certificate.attempts.query({ id: h.id })).map((a) => a.outcome)).toEqual(['verified']);
  return h;
}

describe('attack: a revoked certificate comes back', () => {
  // Proves: certificate.retryVerification (the seed's "Try Again") accepts a revoked certificate, and the
  // pipeline — whose chainChange() returns null because the row already says revoked — then writes
  // "verified" over it (record.status is Revoked, so it just skips the chain call). The holder's pages
  // say verified again and /files serves the revoked file to anyone.
  it('Try Again on a certificate the institution revoked keeps it revoked and its file private', async () => {
    const h = await revokedCertificate('Master of Science');
    const retry = await h.c.client.certificate.retryVerification.mutate({ id: h.id }).catch((e: Error) => e);
    await jobsSettled(server, h.id);
    const row = await h.c.client.certificate.byId.query({ id: h.id });
    expect({ retry: retry instanceof Error ? 'refused' : 'queued', status: row.verification_status }).toMatchObject({ status: 'revoked' });
    expect((await h.c.client.certificate.list.query({ status: 'verified' })).map((x) => x.id)).not.toContain(h.id);
    expect((await makeClient(server.url).client.public.view.query({ userId: h.user.id, certificateId: h.id })).certificate_url).toBeNull();
    expect((await fetch(`${server.url}/files/certificates/${h.id}`)).status).toBe(404);
  });

  // Proves: the same hole without the holder doing anything. A revocation that lands after the pipeline
  // read the record (it decided "no one else's word") but before it sends its verdict makes the verdict
  // transaction fail (CertificateRevoked); the job is retried, and the retry — seeing a row the follower
  // already marked revoked — records "verified" in the database (pipeline.ts, the final update is
  // unconditional and never re-checks record.status).
  it('a revocation that lands while the certificate is being verified is not undone by the job retry', async () => {
    const d = tmpDataDir();
    dirs.push(d);
    const s = await startTestServer(d, { ATTESTA_TEST_STEP_DELAY_MS: '1500' });
    try {
      s.services.queue.retry.baseDelayMs = 50;
      const sconn = rpcConnection(s);
      const inst = Keypair.generate();
      await approvedIssuer(s, inst, INSTITUTION);
      await fund(sconn, inst);
      const h = await holderWithCertificate(s, 'Bachelor of Arts', { wait: false });
      await fund(sconn, h.holder);
      // The holder asks the institution to confirm while the platform is still checking.
      await send(sconn, h.holder, requestConfirmationIx(programId, { hash: h.hash, holder: h.holder.publicKey, issuerAuthority: inst.publicKey }));
      // The last step is logged right before the pipeline reads the record and sleeps before its verdict.
      await waitFor(async () => s.services.db.selectFrom('verification_log').select('id').where('certificate_id', '=', h.id).where('verification_step', '=', 'issuer_verification').executeTakeFirst(), 60_000, 20);
      await send(sconn, inst, revokeCertificateIx(programId, { hash: h.hash, authority: inst.publicKey, reasonCode: ReasonCode.RevokedFraud }));
      await s.chainSync.idle();
      await jobsSettled(s, h.id);
      const row = await s.services.db.selectFrom('certificate').selectAll().where('id', '=', h.id).executeTakeFirstOrThrow();
      const record = await s.services.chain.readCertificate(h.hash);
      expect(record?.status).toBe(3); // revoked on chain
      expect(row.verification_status).toBe('revoked');
      expect((await fetch(`${s.url}/files/certificates/${h.id}`)).status).toBe(404);
    } finally {
      await s.close();
    }
  });
});

describe('attack: a squatter\'s stale row outranks the institution', () => {
  // Proves: after an institution issues a file to its rightful holder (superseding a squatter's
  // unconfirmed claim), every by-hash verdict of Attesta (public.verifyByHash, GET /api/v1/verify/hash,
  // public.verifyFile without an id) still joins the squatter's row by sha256 and answers
  // "superseded, not valid" with the squatter's name and title — while the chain record is verified,
  // issuer-confirmed, for the rightful holder (verdict.ts computeVerdict: `superseded` compares the
  // record's holder with whichever row has that hash).
  it('verify by hash of a file the institution issued to its rightful holder says valid and issuer-confirmed', async () => {
    const squatter = await holderWithCertificate(server, 'Doctor of Philosophy');
    const rightful = Keypair.generate();
    await send(conn, institution, issueCertificateIx(programId, { hash: squatter.hash, holder: rightful.publicKey, authority: institution.publicKey, payer: institution.publicKey, expiresAt: 0n }));
    await server.chainSync.idle();
    const hex = Buffer.from(squatter.hash).toString('hex');
    const anon = makeClient(server.url);
    const byHash = await anon.client.public.verifyByHash.query({ sha256: hex });
    const rest = (await (await fetch(`${server.url}/api/v1/verify/hash/${hex}`)).json()) as { valid: boolean; status: string };
    const fd = new FormData();
    fd.set('file', new File([squatter.pdf as BlobPart], 'c.pdf', { type: 'application/pdf' }));
    const byFile = await anon.client.public.verifyFile.mutate(fd);
    for (const v of [byHash, rest, byFile]) expect({ valid: v.valid, status: v.status }).toEqual({ valid: true, status: 'verified' });
    expect(byHash.holder_wallet).toBe(rightful.publicKey.toBase58());
    // The squatter's claim (name, title) is not presented as the certificate behind this hash.
    expect(byHash.certificate?.user_id ?? null).not.toBe(squatter.user.id);
  });

  // Proves: the rightful holder, whose wallet the institution's own key issued the record to, cannot add
  // the certificate to Attesta: addCertificate refuses any hash that already has a row (the squatter's,
  // superseded) before it looks at who holds the record — the lock-out the program's supersede rule was
  // written to prevent (SPEC: "whoever anchored a file first cannot lock its rightful holder out").
  it('the rightful holder can add the certificate the institution issued to them after a squatter claimed it', async () => {
    const squatter = await holderWithCertificate(server, 'Doctor of Medicine');
    const rc = makeClient(server.url);
    const { wallet } = await signIn(rc);
    const rightful = Keypair.fromSecretKey(wallet.secretKey);
    await send(conn, institution, issueCertificateIx(programId, { hash: squatter.hash, holder: rightful.publicKey, authority: institution.publicKey, payer: institution.publicKey, expiresAt: 0n }));
    await server.chainSync.idle();
    const res = await rc.client.certificate
      .create.mutate(certForm({ title: 'Doctor of Medicine', institution_name: INSTITUTION, program_name: 'Marine Biology', issue_date: '2024-05-01' }, { bytes: squatter.pdf, name: 'cert.pdf' }))
      .then((r) => ({ ok: true as const, id: r.id }), (e: Error) => ({ ok: false as const, message: e.message }));
    expect(res).toMatchObject({ ok: true });
  });
});
