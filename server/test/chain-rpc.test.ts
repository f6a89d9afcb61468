/**
 * The RPC chain (SOLANA_RPC_URL) end to end: server A runs the embedded chain and serves it at
 * /rpc; server B runs against A's /rpc with A's operator key (the registry admin, verifier and fee
 * payer), so every chain read and write of B travels over JSON-RPC like on a real cluster.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { Connection, Keypair, PublicKey, Transaction } from '@solana/web3.js';
import { TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '../../shared/constants';
import { CERTIFICATES_PROGRAM_ID, TOKEN_2022_ID } from '../../shared/program/ids';
import { decodeCertificate } from '../../shared/program/codec';
import type { Server } from '../src/app';
import { ChainError } from '../src/services/chain';
import { recordVerificationIx } from '../../shared/program/instructions';
import { RemoteChain } from '../src/services/chain/remote';
import { certForm, makeClient, makePdf, signIn, startTestServer, tmpDataDir, waitFor } from './helpers';
import { rpcUrlOf } from './rpc-helpers';
import { startFlakyRpc } from './chain-rpc-support/proxy';
import { loadOrCreateOperator } from '../src/services/chain/operator';

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest();
const claims = { title: 'Bachelor of Science', institution_name: 'Eastgate Polytechnic', program_name: 'Applied Geology', issue_date: '2023-06-30' };
const goodPdf = () => makePdf(['Eastgate Polytechnic', 'Bachelor of Science', 'Applied Geology', 'awarded to Rpc Holder']);

let a: Server;
let b: Server;
let rpcUrl: string;
let closeRpc: () => Promise<void>;
let rpcB: RemoteChain;
let dirA: string;
const operatorA = () => loadOrCreateOperator(path.join(dirA, 'operator.json'));
const dirs: string[] = [];
const dir = () => {
  const d = tmpDataDir();
  dirs.push(d);
  return d;
};

beforeAll(async () => {
  dirA = dir();
  a = await startTestServer(dirA);
  const rpc = await rpcUrlOf(a);
  rpcUrl = rpc.url;
  closeRpc = rpc.close;
  b = await startTestServer(dir(), {
    SOLANA_RPC_URL: rpcUrl,
    CERTIFICATES_PROGRAM_ID: CERTIFICATES_PROGRAM_ID.toBase58(),
    OPERATOR_KEYPAIR_PATH: path.join(dirA, 'operator.json'),
  });
  expect(b.services.chain.mode).toBe('rpc');
  rpcB = b.services.chain as RemoteChain;
}, 120_000);

afterAll(async () => {
  await b?.close();
  await closeRpc?.();
  await a?.close();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

async function finalStatus(c: ReturnType<typeof makeClient>, id: string) {
  return waitFor(async () => {
    const r = await c.client.certificate.byId.query({ id });
    return r.verification_status !== 'pending' && r;
  }, 60_000);
}

async function rejects(p: Promise<unknown>) {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected the call to fail');
}

describe('server B on the RPC chain (A /rpc)', () => {
  it('shares A’s registry: B’s operator is A’s admin and verifier', async () => {
    const regA = await a.services.chain.readRegistry();
    const regB = await b.services.chain.readRegistry();
    expect(regB?.admin.toBase58()).toBe(a.services.chain.operator.toBase58());
    expect(regB?.verifiers.map((k) => k.toBase58())).toEqual(regA?.verifiers.map((k) => k.toBase58()));
    expect(b.services.chain.operator.equals(a.services.chain.operator)).toBe(true);
    // B's chain clock comes from A's block time; within a minute of the wall clock.
    expect(Math.abs(Number(await b.services.chain.now()) - Date.now() / 1000)).toBeLessThan(60);
  });

  it('creates, verifies on chain through /rpc, and B’s verdict is A’s record', { timeout: 90_000 }, async () => {
    const c = makeClient(b.url);
    const { wallet } = await signIn(c);
    const pdf = await goodPdf();
    const cert = await c.client.certificate.create.mutate(certForm(claims, { bytes: pdf, name: 'degree.pdf', type: 'application/pdf' }));
    expect(cert.anchor_signature).toBeTruthy();
    const done = await finalStatus(c, cert.id);
    expect(done.verification_status).toBe('verified');
    expect(done.verify_signature).toBeTruthy();

    // Read on A's own chain (no RPC involved) and through a plain web3.js Connection to A's /rpc.
    const hash = sha(pdf);
    const onA = await a.services.chain.readCertificate(hash);
    expect(onA).toMatchObject({ status: 1, reasonCode: 0 });
    expect(onA?.holder.toBase58()).toBe(wallet.address);
    const conn = new Connection(rpcUrl, 'confirmed');
    const acc = await conn.getAccountInfo(a.services.chain.certificateAddress(hash));
    expect(acc?.owner.equals(CERTIFICATES_PROGRAM_ID)).toBe(true);
    expect(decodeCertificate(new Uint8Array(acc!.data))).toMatchObject({ status: 1 });

    // The verdict transaction B sent landed on A (journaled as an RPC send) and B recorded it with its logs.
    const sig = done.verify_signature!;
    const landed = await conn.getTransaction(sig, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 });
    expect(landed?.meta?.err).toBeNull();
    const rowB = await b.services.db.selectFrom('chain_transaction').selectAll().where('signature', '=', sig).executeTakeFirstOrThrow();
    expect(rowB.status).toBe('success');
    expect(JSON.parse(rowB.logs).some((l: string) => l.includes(CERTIFICATES_PROGRAM_ID.toBase58()))).toBe(true);

    // Public verify by hash on B answers from the chain record.
    const anon = makeClient(b.url).client;
    const v = await anon.public.verifyByHash.query({ sha256: hash.toString('hex') });
    expect(v).toMatchObject({ valid: true, status: 'verified', sha256: hash.toString('hex') });
    expect(v.record_address).toBe(a.services.chain.certificateAddress(hash).toBase58());

    // The same file from another wallet on B is refused, and nothing new reaches the chain.
    const countBefore = (await a.services.chain.readRegistry())!.certificateCount;
    const other = makeClient(b.url);
    await signIn(other);
    const dup = await rejects(other.client.certificate.create.mutate(certForm(claims, { bytes: pdf, name: 'copy.pdf', type: 'application/pdf' })));
    expect(dup).toBeInstanceOf(TRPCClientError);
    expect((dup as TRPCClientError<never>).message).toBe(MESSAGES.alreadyRegisteredByOther);
    expect((await a.services.chain.readRegistry())!.certificateCount).toBe(countBefore);
  });

  it('mints through B: the holder signs B’s prepared transaction, it lands on A', { timeout: 90_000 }, async () => {
    const c = makeClient(b.url);
    const { wallet } = await signIn(c);
    const holder = Keypair.fromSecretKey(wallet.secretKey);
    const pdf = await goodPdf();
    const cert = await c.client.certificate.create.mutate(certForm(claims, { bytes: pdf, name: 'degree.pdf', type: 'application/pdf' }));
    expect((await finalStatus(c, cert.id)).verification_status).toBe('verified');
    const before = (await a.services.chain.readRegistry())!.mintedCount;

    const prepared = await c.client.mint.prepare.mutate({ id: cert.id });
    const tx = Transaction.from(Buffer.from(prepared.transaction, 'base64'));
    // The blockhash is the cluster's (A's), not one B made up.
    expect(await new Connection(rpcUrl, 'confirmed').isBlockhashValid(tx.recentBlockhash!)).toMatchObject({ value: true });
    tx.partialSign(holder);
    const res = await c.client.mint.submit.mutate({ id: cert.id, signedTransaction: tx.serialize().toString('base64') });
    expect(res.mint_address).toBe(prepared.mint_address);

    const record = await a.services.chain.readCertificate(sha(pdf));
    expect(record?.nftMint?.toBase58()).toBe(res.mint_address);
    expect((await a.services.chain.readRegistry())!.mintedCount).toBe(before + 1n);
    const mintAcc = await a.services.chain.getAccountInfo(new PublicKey(res.mint_address));
    expect(mintAcc?.owner).toBe(TOKEN_2022_ID.toBase58());
    const row = await b.services.db.selectFrom('chain_transaction').selectAll().where('signature', '=', res.transaction_signature!).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ kind: 'mint_certificate', certificate_id: cert.id, status: 'success' });
  });

  it('refuses a file another server anchored on the shared chain (read through /rpc)', async () => {
    const pdf = await goodPdf();
    const holderOnA = Keypair.generate().publicKey;
    await a.services.chain.anchorCertificate({ hash: sha(pdf), holder: holderOnA }, { kind: 'anchor_certificate' });
    const c = makeClient(b.url);
    await signIn(c);
    const e = await rejects(c.client.certificate.create.mutate(certForm(claims, { bytes: pdf, name: 'x.pdf', type: 'application/pdf' })));
    expect((e as { data?: { code?: string } }).data?.code).toBe('CONFLICT');
    expect((e as Error).message).toBe(MESSAGES.alreadyRegisteredByOther);
    expect(await b.services.db.selectFrom('certificate').selectAll().where('sha256', '=', sha(pdf).toString('hex')).execute()).toHaveLength(0);
  });

  it('a text mismatch ends rejected on chain with the reason', { timeout: 90_000 }, async () => {
    const c = makeClient(b.url);
    await signIn(c);
    const pdf = await makePdf(['Westbrook Academy', 'Certificate of Attendance']);
    const cert = await c.client.certificate.create.mutate(certForm(claims, { bytes: pdf, name: 'x.pdf', type: 'application/pdf' }));
    const done = await finalStatus(c, cert.id);
    expect(done.verification_status).toBe('rejected');
    expect(done.verification_details).toMatchObject({ reason_code: 2, reason_name: 'content_mismatch' });
    expect(await a.services.chain.readCertificate(sha(pdf))).toMatchObject({ status: 2, reasonCode: 2 });
  });

  it('maps a preflight refusal (-32002 with logs) to the program’s named error', async () => {
    const pdf = await goodPdf();
    const hash = sha(pdf);
    await rpcB.anchorCertificate({ hash, holder: Keypair.generate().publicKey }, { kind: 'anchor_certificate' });
    const e = await rejects(rpcB.anchorCertificate({ hash, holder: Keypair.generate().publicKey }, { kind: 'anchor_certificate' }));
    expect(e).toBeInstanceOf(ChainError);
    expect((e as ChainError).errorName).toBe('HashAlreadyAnchored');
    expect((e as ChainError).logs.length).toBeGreaterThan(0);
    // A verdict by a key that is not a verifier: the program refuses it by name, too.
    const key = Keypair.generate();
    const stranger = await rejects(rpcB.sendTransaction(new Transaction().add(recordAs(key.publicKey, hash)), [key], { kind: 'record_verification' }));
    expect(stranger).toBeInstanceOf(ChainError);
    expect((stranger as ChainError).errorName).toBeTruthy();
    // A wallet-signed transaction over a blockhash the cluster never made: refused at once, not awaited.
    const stale = new Transaction({ feePayer: rpcB.operator, recentBlockhash: Keypair.generate().publicKey.toBase58() }).add(recordAs(rpcB.operator, hash));
    rpcB.partialSignAsOperator(stale);
    const t0 = Date.now();
    const refused = await rejects(rpcB.sendSignedTransaction(stale, { kind: 'record_verification' }));
    expect(refused).toBeInstanceOf(ChainError);
    expect((refused as ChainError).message).toMatch(/Blockhash not found/i);
    expect(Date.now() - t0).toBeLessThan(5_000);
  });

  it('re-broadcasts a dropped transaction until it lands; reports expiry when its blockhash runs out', { timeout: 60_000 }, async () => {
    const flaky = await startFlakyRpc(rpcUrl);
    try {
      const chain = await RemoteChain.connect({ programId: CERTIFICATES_PROGRAM_ID, operator: operatorA(), db: b.services.db, rpcUrl: flaky.url });
      const pdf = await goodPdf();
      flaky.state.dropSends = 1; // the first broadcast is lost; the re-broadcast lands it
      const receipt = await chain.anchorCertificate({ hash: sha(pdf), holder: Keypair.generate().publicKey }, { kind: 'anchor_certificate' });
      expect(flaky.state.sends).toBeGreaterThanOrEqual(2);
      expect(await a.services.chain.readCertificate(sha(pdf))).toMatchObject({ status: 0 });
      expect(receipt.logs.length).toBeGreaterThan(0);

      // Every broadcast lost and the cluster past the blockhash's last valid height: a definite failure.
      flaky.state.dropSends = 1_000;
      flaky.state.heightOffset = 10_000;
      const other = await goodPdf();
      const e = await rejects(chain.anchorCertificate({ hash: sha(other), holder: Keypair.generate().publicKey }, { kind: 'anchor_certificate' }));
      expect(e).toBeInstanceOf(ChainError);
      expect((e as Error).message).toMatch(/expired before it landed/);
      expect(await a.services.chain.readCertificate(sha(other))).toBeNull();
    } finally {
      await flaky.close();
    }
  });

  it('simulates through the RPC with logs and compute units', async () => {
    const sim = await rpcB.simulate(new Transaction().add(recordAs(rpcB.operator, sha(await goodPdf()))), []);
    expect(sim.ok).toBe(false); // no record for that hash
    expect(sim.logs.join('\n')).toContain(CERTIFICATES_PROGRAM_ID.toBase58());
  });
});

describe('start-up checks in RPC mode', () => {
  it('refuses to start when SOLANA_RPC_URL is unreachable', async () => {
    const e = await rejects(startTestServer(dir(), { SOLANA_RPC_URL: 'http://127.0.0.1:9/rpc' }));
    expect(String((e as Error).message)).toMatch(/Cannot reach the Solana RPC at 127\.0\.0\.1:9 \(SOLANA_RPC_URL\)/);
  });

  it('refuses an unfunded operator by its address; starts once it is funded', async () => {
    const d = dir();
    const env = { SOLANA_RPC_URL: rpcUrl, OPERATOR_KEYPAIR_PATH: path.join(d, 'own-operator.json') };
    const e = await rejects(startTestServer(d, env));
    const own = loadOrCreateOperator(env.OPERATOR_KEYPAIR_PATH).publicKey;
    expect((e as Error).message).toBe(
      `The operator ${own.toBase58()} has no SOL on the cluster at ${new URL(rpcUrl).host}; it pays every transaction fee. Fund it, or set OPERATOR_KEYPAIR_PATH to a funded key.`,
    );
    const conn = new Connection(rpcUrl, 'confirmed');
    await conn.requestAirdrop(own, 1_000_000_000);
    const warnings: unknown[] = [];
    const warn = vi.spyOn(console, 'warn').mockImplementation((...args) => void warnings.push(...args));
    const s = await startTestServer(d, env).finally(() => warn.mockRestore());
    // Funded but not a verifier: it starts (public verification works) and says what to do.
    expect(warnings.join('\n')).toContain(`the operator ${own.toBase58()} is not a verifier of the registry`);
    try {
      expect(s.services.chain.operator.equals(own)).toBe(true);
      expect((await s.services.chain.readRegistry())?.admin.equals(a.services.chain.operator)).toBe(true);
    } finally {
      await s.close();
    }
  });

  it('refuses to start when the program is not deployed on the cluster', async () => {
    const missing = Keypair.generate().publicKey.toBase58();
    const e = await rejects(startTestServer(dir(), { SOLANA_RPC_URL: rpcUrl, CERTIFICATES_PROGRAM_ID: missing }));
    expect(String((e as Error).message)).toMatch(new RegExp(`certificates program ${missing} is not deployed`));
  });
});

function recordAs(verifier: PublicKey, hash: Uint8Array) {
  return recordVerificationIx(CERTIFICATES_PROGRAM_ID, { hash, verified: true, reasonCode: 0, verifier });
}
