// The database follows the chain: what institutions, the operator or anyone else change on chain
// through /rpc (confirm at the holder's request, revoke, issue the same file to its rightful holder)
// shows on the holder's pages and every verify surface, and a revoked file is no longer public.
// The program's consent rules hold against strangers (another approved issuer cannot confirm or revoke).
import fs from 'node:fs';
import { CompiledQuery, sql, type KyselyPlugin, type QueryId, type RootOperationNode } from 'kysely';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Connection, Keypair, LAMPORTS_PER_SOL, sendAndConfirmTransaction, Transaction, type TransactionInstruction } from '@solana/web3.js';
import { CERTIFICATES_PROGRAM_ID } from '../../shared/program/ids';
import { IssuerStatus, fromHex } from '../../shared/program/codec';
import { confirmCertificateIx, issueCertificateIx, requestConfirmationIx, revokeCertificateIx } from '../../shared/program/instructions';
import { ReasonCode } from '../../shared/program/reasons';
import type { Server } from '../src/app';
import { ChainSync } from '../src/services/chain-sync';
import { certForm, makeClient, makePdf, signIn, startTestServer, tmpDataDir, waitFor } from './helpers';
import { testDbKind } from './pg/database';

const programId = CERTIFICATES_PROGRAM_ID;
const dirs: string[] = [];
const dir = () => {
  const d = tmpDataDir();
  dirs.push(d);
  return d;
};

let server: Server;
let dataDir: string;
let conn: Connection;
const institution = Keypair.generate();
const otherInstitution = Keypair.generate();

/** web3.js against a server's /rpc, its PubSub on the same path (web3.js would guess port + 1). */
const rpcConnection = (s: Server) => new Connection(`${s.url}/rpc`, { commitment: 'confirmed', wsEndpoint: `${s.url.replace(/^http/, 'ws')}/rpc` });

async function fund(kp: Keypair) {
  const sig = await conn.requestAirdrop(kp.publicKey, LAMPORTS_PER_SOL);
  await conn.confirmTransaction(sig, 'confirmed');
}
/** A transaction sent through /rpc like a wallet or an institution's own tooling would: `payer` pays and signs. */
function send(payer: Keypair, ix: TransactionInstruction, ...signers: Keypair[]) {
  return sendAndConfirmTransaction(conn, new Transaction().add(ix), [payer, ...signers], { commitment: 'confirmed' });
}
async function approvedIssuer(s: Server, kp: Keypair, name: string) {
  await s.services.chain.registerIssuer({ authority: kp, name, uri: `${name.toLowerCase().replace(/\W+/g, '')}.example` }, { kind: 'register_issuer' });
  await s.services.chain.setIssuerStatus({ authority: kp.publicKey, status: IssuerStatus.Approved }, { kind: 'set_issuer_status' });
}

/** A holder with a certificate the platform verified (its text names the claims). */
async function verifiedCertificate(s: Server, title: string) {
  const c = makeClient(s.url);
  const { wallet } = await signIn(c);
  const pdf = await makePdf(['Northfield Institute of Technology', title, 'Marine Biology', 'awarded to A. Holder']);
  const created = await c.client.certificate.create.mutate(
    certForm({ title, institution_name: 'Northfield Institute of Technology', program_name: 'Marine Biology', issue_date: '2024-05-01' }, { bytes: pdf, name: 'cert.pdf' }),
  );
  const row = await waitFor(async () => {
    const r = await c.client.certificate.byId.query({ id: created.id });
    return r.verification_status !== 'pending' && r;
  }, 60_000);
  expect(row.verification_status).toBe('verified');
  expect(row.tier).toBe('platform_verified');
  const holder = Keypair.fromSecretKey(wallet.secretKey);
  return { c, id: created.id, hash: fromHex(row.sha256), holder, pdf };
}

const statusOf = async (c: ReturnType<typeof makeClient>, id: string) => c.client.certificate.byId.query({ id });

async function chainError(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    return String((e as { logs?: string[] }).logs?.join('\n') ?? (e as Error).message);
  }
  throw new Error('expected the transaction to fail');
}

beforeAll(async () => {
  dataDir = dir();
  server = await startTestServer(dataDir);
  conn = rpcConnection(server);
  await approvedIssuer(server, institution, 'Northfield Institute of Technology');
  await approvedIssuer(server, otherInstitution, 'Southgate College');
  await fund(institution);
  await fund(otherInstitution);
}, 120_000);

afterAll(async () => {
  await server?.close();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe('institutions act on chain; the holder sees it', () => {
  it('another approved issuer can neither confirm nor revoke a holder\'s certificate; the holder\'s own request lets the named institution confirm it', async () => {
    const { c, id, hash, holder } = await verifiedCertificate(server, 'Bachelor of Science');
    // The attack of the red-team pass: an approved issuer confirms (takes over) a stranger's certificate.
    expect(await chainError(send(otherInstitution, confirmCertificateIx(programId, { hash, authority: otherInstitution.publicKey })))).toMatch(/ConfirmationNotRequested/);
    expect(await chainError(send(otherInstitution, revokeCertificateIx(programId, { hash, authority: otherInstitution.publicKey, reasonCode: ReasonCode.RevokedFraud })))).toMatch(/NotAuthorizedToRevoke/);
    // Nobody but the holder can ask: the institution cannot sign the request for them.
    expect(await chainError(send(institution, requestConfirmationIx(programId, { hash, holder: institution.publicKey, issuerAuthority: institution.publicKey })))).toMatch(/NotHolder/);
    await server.chainSync.idle();
    expect(await statusOf(c, id)).toMatchObject({ verification_status: 'verified', tier: 'platform_verified' });

    // The holder consents on chain (they pay their own fee here; the app has the platform pay).
    await fund(holder);
    await send(holder, requestConfirmationIx(programId, { hash, holder: holder.publicKey, issuerAuthority: institution.publicKey }));
    // Asked is not confirmed: no verify surface names the institution as the issuer yet.
    const asked = await c.client.public.verifyById.query({ certificateId: id });
    expect(asked).toMatchObject({ tier: 'platform_verified', issuer: null, confirmation_requested_from: { name: 'Northfield Institute of Technology', status: 'approved' } });
    expect(await (await fetch(`${server.url}/api/v1/verify/hash/${Buffer.from(hash).toString('hex')}`)).json()).toMatchObject({ issuer: null, confirmation_requested_from: { name: 'Northfield Institute of Technology' } });
    expect(await chainError(send(otherInstitution, confirmCertificateIx(programId, { hash, authority: otherInstitution.publicKey })))).toMatch(/ConfirmationNotRequested/);
    await send(institution, confirmCertificateIx(programId, { hash, authority: institution.publicKey }));
    await server.chainSync.idle();
    const confirmed = await statusOf(c, id);
    expect(confirmed).toMatchObject({ verification_status: 'verified', tier: 'issuer_confirmed' });
    expect(confirmed.verification_details?.reason).toMatch(/Northfield Institute of Technology .*confirmed this certificate on chain/);
    const verdict = await c.client.public.verifyById.query({ certificateId: id });
    expect(verdict).toMatchObject({ valid: true, status: 'verified', tier: 'issuer_confirmed', issuer: { name: 'Northfield Institute of Technology' }, confirmation_requested_from: null });
  });

  it('a revocation by the institution shows on the holder\'s list, detail and public verdict at once, and the file is no longer public', async () => {
    const { c, id, hash, holder } = await verifiedCertificate(server, 'Master of Science');
    await fund(holder);
    await send(holder, requestConfirmationIx(programId, { hash, holder: holder.publicKey, issuerAuthority: institution.publicKey }));
    // The follower has applied the request (its own event): the next event is the revocation's.
    await server.chainSync.idle();
    expect((await fetch(`${server.url}/files/certificates/${id}`)).status).toBe(200); // verified: public
    const events = server.services.bus.subscribe(id, AbortSignal.timeout(20_000));

    // Asked to confirm, the institution finds it fraudulent instead.
    await send(institution, revokeCertificateIx(programId, { hash, authority: institution.publicKey, reasonCode: ReasonCode.RevokedFraud }));
    const live = await events.next();
    expect(live.value).toMatchObject({ certificate_id: id, verification_status: 'revoked' });

    const row = await statusOf(c, id);
    expect(row.verification_status).toBe('revoked');
    expect(row.verification_details?.reason).toMatch(/^Revoked on [A-Z][a-z]+ \d{1,2}, \d{4} by Northfield Institute of Technology \(the institution the holder asked to confirm it\): revoked as fraudulent\.$/);
    expect((await c.client.certificate.list.query({})).find((x) => x.id === id)?.verification_status).toBe('revoked');
    expect((await c.client.certificate.list.query({ status: 'revoked' })).map((x) => x.id)).toEqual([id]);
    expect(await c.client.public.verifyById.query({ certificateId: id })).toMatchObject({ valid: false, status: 'revoked', reason: 'revoked_fraud' });
    // The file: the holder still has it; nobody else gets it.
    expect((await fetch(`${server.url}/files/certificates/${id}`)).status).toBe(404);
    expect((await c.fetch(`${server.url}/files/certificates/${id}`)).status).toBe(200);
  });

  it('an institution issuing the same file to its rightful holder supersedes an earlier unconfirmed claim, visibly', async () => {
    const squatter = await verifiedCertificate(server, 'Doctor of Philosophy');
    const rightful = Keypair.generate();
    await send(institution, issueCertificateIx(programId, { hash: squatter.hash, holder: rightful.publicKey, authority: institution.publicKey, payer: institution.publicKey, expiresAt: 0n }));
    await server.chainSync.idle();
    const row = await statusOf(squatter.c, squatter.id);
    expect(row.verification_status).toBe('superseded');
    expect(row.verification_details?.reason).toMatch(/^Superseded on [A-Z][a-z]+ \d{1,2}, \d{4}: Northfield Institute of Technology issued this file to another wallet/);
    expect(row.verification_details?.new_holder_wallet).toBe(rightful.publicKey.toBase58());
    // The public verdict of the squatter's link no longer calls it theirs.
    const verdict = await squatter.c.client.public.verifyById.query({ certificateId: squatter.id });
    expect(verdict.valid).toBe(false);
    expect((await fetch(`${server.url}/files/certificates/${squatter.id}`)).status).toBe(404);
  });
});

describe('after a restart, and on an external chain', () => {
  it('a revocation sent while the follower was not running is applied at the next start', async () => {
    const d = dir();
    let s = await startTestServer(d);
    const localConn = rpcConnection(s);
    const inst = Keypair.generate();
    await approvedIssuer(s, inst, 'Northfield Institute of Technology');
    await localConn.confirmTransaction(await localConn.requestAirdrop(inst.publicKey, LAMPORTS_PER_SOL), 'confirmed');
    const { id, hash, holder } = await verifiedCertificate(s, 'Diploma in Nursing');
    await localConn.confirmTransaction(await localConn.requestAirdrop(holder.publicKey, LAMPORTS_PER_SOL), 'confirmed');
    const sendHere = (payer: Keypair, ix: TransactionInstruction) => sendAndConfirmTransaction(localConn, new Transaction().add(ix), [payer], { commitment: 'confirmed' });
    await sendHere(holder, requestConfirmationIx(programId, { hash, holder: holder.publicKey, issuerAuthority: inst.publicKey }));
    await s.chainSync.stop(); // the process "dies" before it applies the next change
    await sendHere(inst, revokeCertificateIx(programId, { hash, authority: inst.publicKey, reasonCode: ReasonCode.RevokedByIssuer }));
    const before = await s.services.db.selectFrom('certificate').select('verification_status').where('id', '=', id).executeTakeFirstOrThrow();
    expect(before.verification_status).toBe('verified');
    await s.close();
    s = await startTestServer(d);
    const after = await s.services.db.selectFrom('certificate').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(after.verification_status).toBe('revoked');
    // The institution was only asked to confirm it: never called the one that issued it.
    expect(JSON.parse(after.verification_details!).reason).toMatch(/^Revoked on .+ by Northfield Institute of Technology \(the institution the holder asked to confirm it\): revoked by the institution named on the record\.$/);
    await s.close();
  });

  it('transactions the follower missed are replayed at start in the order they landed, a page at a time, each named by its own signature', async () => {
    const s = await startTestServer(dir());
    try {
      const localConn = rpcConnection(s);
      const airdrop = async (kp: Keypair) => localConn.confirmTransaction(await localConn.requestAirdrop(kp.publicKey, LAMPORTS_PER_SOL), 'confirmed');
      const sendHere = (payer: Keypair, ix: TransactionInstruction) => sendAndConfirmTransaction(localConn, new Transaction().add(ix), [payer], { commitment: 'confirmed' });
      const inst = Keypair.generate();
      await approvedIssuer(s, inst, 'Northfield Institute of Technology');
      await airdrop(inst);
      const certs: Awaited<ReturnType<typeof verifiedCertificate>>[] = [];
      for (const title of ['Diploma in Midwifery', 'Certificate in Welding', 'Bachelor of Laws']) {
        const cert = await verifiedCertificate(s, title);
        await airdrop(cert.holder);
        await sendHere(cert.holder, requestConfirmationIx(programId, { hash: cert.hash, holder: cert.holder.publicKey, issuerAuthority: inst.publicKey }));
        certs.push(cert);
      }
      await s.chainSync.idle();
      await s.chainSync.stop(); // the process "dies": the three revocations below land unapplied
      const signatures: string[] = [];
      for (const cert of certs) signatures.push(await sendHere(inst, revokeCertificateIx(programId, { hash: cert.hash, authority: inst.publicKey, reasonCode: ReasonCode.RevokedByIssuer })));
      for (const cert of certs) expect((await statusOf(cert.c, cert.id)).verification_status).toBe('verified');

      // Pages of two: the third revocation is on the second page. The follower's queries are recorded.
      const seen: { node: RootOperationNode; queryId: QueryId }[] = [];
      const recorder: KyselyPlugin = { transformQuery: (args) => (seen.push(args), args.node), transformResult: async (args) => args.result };
      const db = s.services.db.withPlugin(recorder);
      const replay = async () => {
        const follower = new ChainSync({ ...s.services, db }, { intervalMs: 3_600_000, backstop: false, catchUpBatch: 2 });
        await follower.start();
        await follower.idle();
        await follower.stop();
      };
      await replay();
      // Every page reaches each transaction through an index (on 1,000,000 certificates a join through
      // the account-to-signature table, keyed by account, took 140 s on SQLite for one transaction).
      const pages = seen.map(({ node, queryId }) => db.getExecutor().compileQuery(node, queryId)).filter((c) => /^select .* from "chain_transaction"/i.test(c.sql));
      expect(pages).toHaveLength(2);
      for (const page of pages) {
        if (testDbKind() === 'postgres') {
          const plan = await db.transaction().execute(async (trx) => {
            await sql`set local enable_seqscan = off`.execute(trx); // tables this small would be read whole anyway
            return (await trx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`EXPLAIN ${page.sql}`, [...page.parameters]))).rows.map((r) => r['QUERY PLAN']).join('\n');
          });
          // Which join it picks over a few rows depends on when autovacuum analysed them; that it never
          // reads the account-to-signature table does not.
          expect(plan, page.sql).not.toMatch(/rpc_transaction_account|Seq Scan/);
        } else {
          const plan = (await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${page.sql}`, [...page.parameters]))).rows.map((r) => r.detail).join(' | ');
          expect(plan, page.sql).not.toMatch(/(^|\| )SCAN /);
          expect(plan, page.sql).toMatch(/SEARCH t USING INDEX \S+ \(signature=\?\)/);
        }
      }
      for (const [i, cert] of certs.entries()) {
        expect((await statusOf(cert.c, cert.id)).verification_status).toBe('revoked');
        expect((await fetch(`${s.url}/files/certificates/${cert.id}`)).status).toBe(404);
        const events = await cert.c.client.certificate.events.query({ id: cert.id });
        expect(events.filter((e) => e.kind === 'revoked').map((e) => e.signature)).toEqual([signatures[i]]);
      }
      // The saved slot is the last revocation's: a second start replays nothing.
      const slotOf = async (signature: string) => Number((await s.services.db.selectFrom('chain_transaction').select('slot').where('signature', '=', signature).executeTakeFirstOrThrow()).slot);
      const cursor = await s.services.db.selectFrom('chain_meta').select('value').where('key', '=', 'chain_sync_cursor').executeTakeFirstOrThrow();
      expect(Number(cursor.value)).toBe(await slotOf(signatures[2]));
      const eventCounts = async () => Promise.all(certs.map(async (cert) => (await cert.c.client.certificate.events.query({ id: cert.id })).length));
      const before = await eventCounts();
      await replay();
      expect(await eventCounts()).toEqual(before);
    } finally {
      await s.close();
    }
  });

  it('a server on an external RPC polls the program and follows a revocation made by someone else', async () => {
    const d = dir();
    const b = await startTestServer(d, {
      SOLANA_RPC_URL: `${server.url}/rpc`,
      CERTIFICATES_PROGRAM_ID: programId.toBase58(),
      OPERATOR_KEYPAIR_PATH: path.join(dataDir, 'operator.json'),
      ATTESTA_CHAIN_SYNC_INTERVAL_MS: '300',
    });
    try {
      expect(b.services.chain.mode).toBe('rpc');
      const { c, id, hash, holder } = await verifiedCertificate(b, 'Certificate in Welding');
      await fund(holder);
      await send(holder, requestConfirmationIx(programId, { hash, holder: holder.publicKey, issuerAuthority: institution.publicKey }));
      await send(institution, revokeCertificateIx(programId, { hash, authority: institution.publicKey, reasonCode: ReasonCode.RevokedHolderRequest }));
      const row = await waitFor(async () => {
        const r = await statusOf(c, id);
        return r.verification_status === 'revoked' && r;
      }, 30_000);
      expect(row.verification_details?.reason).toMatch(/revoked at the holder's request/);
    } finally {
      await b.close();
    }
  });
});

