/**
 * Faults: the server process is killed (SIGKILL) at each point of an upload, and the Solana RPC
 * fails during the pipeline. After a restart every certificate is either whole (row + blob + job +
 * anchor, verified once) or absent, nothing is orphaned, and the holder can upload again; chain
 * failures retry with backoff and say so on the certificate until a verdict or a clear final state.
 * Crash points inside a request are the ATTESTA_FAULT hooks (server/src/services/certificates/faults.ts).
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../shared/constants';
import { fromHex } from '../../shared/program/codec';
import { CERTIFICATES_PROGRAM_ID } from '../../shared/program/ids';
import type { Server } from '../src/app';
import { sweepOrphanBlobs } from '../src/services/blobs';
import { ChainError } from '../src/services/chain';
import { classifyFailure, retryDetails } from '../src/services/verification/retry-status';
import { certForm, makeClient, makeImage, makePdf, newWallet, signIn, startTestServer, tmpDataDir, waitFor } from './helpers';
import { testDbKind } from './pg/database';
import { violations, uploadedFiles } from './faults-support/check';
import { killChildren, startChildServer } from './faults-support/child';
import { startFlakyRpc } from './chain-rpc-support/proxy';
import { toB64, walletSign } from './mint-support/flow';

const claims = { title: 'Diploma in Nursing', institution_name: 'Northfield College', program_name: 'Adult Nursing', issue_date: '2024-07-12' };
const pdfFor = () => makePdf(['Northfield College', 'Diploma in Nursing', 'Adult Nursing']);
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

const dirs: string[] = [];
const servers: Server[] = [];
const dir = () => {
  const d = tmpDataDir();
  dirs.push(d);
  return d;
};
const start = async (d: string, env: Record<string, string> = {}) => {
  const s = await startTestServer(d, env);
  servers.push(s);
  return s;
};
afterAll(async () => {
  killChildren();
  for (const s of servers.reverse()) await s.close();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

type Client = ReturnType<typeof makeClient>;

async function finalStatus(c: Client, id: string) {
  return waitFor(async () => {
    const r = await c.client.certificate.byId.query({ id });
    return r.verification_status !== 'pending' && r;
  }, 60_000);
}

const count = async (s: Server, table: 'certificate' | 'verification_job') =>
  Number((await s.services.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
/** Anchor transactions journaled (a fresh chain also holds the registry's initialisation). */
const anchors = async (s: Server) => (await s.services.db.selectFrom('chain_transaction').select('signature').where('kind', '=', 'anchor_certificate').execute()).length;

/** Signs in on a child server started with the crash point, uploads, and waits for the kill. */
async function crashDuringCreate(fault: string, env: Record<string, string> = {}) {
  const d = dir();
  const child = await startChildServer(d, { ATTESTA_FAULT: fault, ...env });
  const c = makeClient(child.url);
  const { wallet } = await signIn(c);
  const pdf = await pdfFor();
  const err = await c.client.certificate.create.mutate(certForm(claims, { bytes: pdf, name: 'diploma.pdf' })).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(Error); // the connection died with the process: no answer
  expect((await child.exited).signal).toBe('SIGKILL');
  const filesAtCrash = uploadedFiles(d);
  ageUploads(d);
  return { dir: d, wallet, pdf, filesAtCrash };
}

/**
 * On PostgreSQL another server may share the data dir, so the start-up sweep only takes blobs older
 * than its grace period (services/blobs.ts): there the crash is made to look that old. On SQLite the
 * restart sweeps at once.
 */
function ageUploads(d: string) {
  if (testDbKind() !== 'postgres') return;
  const old = new Date(Date.now() - 3_600_000);
  for (const f of uploadedFiles(d)) fs.utimesSync(path.join(d, 'uploads', f), old, old);
}

/** The same holder, after the restart, uploads the same file again; it ends verified. */
async function reupload(s: Server, wallet: ReturnType<typeof newWallet>, pdf: Uint8Array) {
  const c = makeClient(s.url);
  await signIn(c, wallet);
  const cert = await c.client.certificate.create.mutate(certForm(claims, { bytes: pdf, name: 'diploma.pdf' }));
  expect((await finalStatus(c, cert.id)).verification_status).toBe('verified');
  return { c, cert };
}

describe('SIGKILL during a certificate upload (embedded chain)', () => {
  it('while the multipart body is streaming: nothing is written; the upload works after the restart', { timeout: 150_000 }, async () => {
    const d = dir();
    const child = await startChildServer(d);
    const c = makeClient(child.url);
    const { wallet } = await signIn(c);
    const pdf = await pdfFor();
    const req = new Request(`${child.url}/trpc/certificate.create`, { method: 'POST', body: certForm(claims, { bytes: pdf, name: 'diploma.pdf' }) });
    const body = Buffer.from(await req.arrayBuffer());
    const cookie = [...c.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const outgoing = http.request(`${child.url}/trpc/certificate.create`, {
      method: 'POST',
      headers: { 'content-type': req.headers.get('content-type')!, 'content-length': String(body.length), cookie, origin: child.url },
    });
    const answered = new Promise<string>((resolve) => {
      outgoing.on('response', (res) => resolve(`HTTP ${res.statusCode}`));
      outgoing.on('error', (e) => resolve(e.message));
    });
    outgoing.write(body.subarray(0, body.length >> 1));
    await new Promise((r) => setTimeout(r, 300)); // the server is now reading a half-sent body
    await child.kill();
    expect(await answered).not.toMatch(/^HTTP/);

    const s = await start(d);
    expect(await count(s, 'certificate')).toBe(0);
    expect(await count(s, 'verification_job')).toBe(0);
    expect(await anchors(s)).toBe(0);
    expect(uploadedFiles(d)).toEqual([]);
    await reupload(s, wallet, pdf);
    expect(await violations(s, { chainCertificates: true })).toEqual([]);
  });

  it('after the blob is written, before the DB transaction: the restart sweeps the orphaned blob', { timeout: 150_000 }, async () => {
    const { dir: d, wallet, pdf, filesAtCrash } = await crashDuringCreate('after-blob-put');
    expect(filesAtCrash).toEqual([expect.stringMatching(/^certificates\/c_.+\.pdf$/)]); // the orphan the crash left

    const s = await start(d);
    expect(uploadedFiles(d)).toEqual([]);
    expect(await count(s, 'certificate')).toBe(0);
    expect(await s.services.chain.readCertificate(fromHex(sha(pdf)))).toBeNull();
    expect(await violations(s, { chainCertificates: true })).toEqual([]);
    const { cert } = await reupload(s, wallet, pdf);
    expect(uploadedFiles(d)).toEqual([`certificates/${cert.id}.pdf`]);
    expect(await violations(s, { chainCertificates: true })).toEqual([]);
  });

  it('inside the DB transaction, after the anchor: rows and chain accounts roll back together', { timeout: 150_000 }, async () => {
    const { dir: d, wallet, pdf, filesAtCrash } = await crashDuringCreate('before-commit');
    expect(filesAtCrash).toHaveLength(1);

    const s = await start(d);
    // The embedded chain's accounts were written in the uncommitted transaction: no anchor survives.
    expect(await s.services.chain.readCertificate(fromHex(sha(pdf)))).toBeNull();
    expect((await s.services.chain.readRegistry())?.certificateCount).toBe(0n);
    expect(await count(s, 'certificate')).toBe(0);
    expect(await anchors(s)).toBe(0);
    expect(uploadedFiles(d)).toEqual([]);
    await reupload(s, wallet, pdf);
    expect((await s.services.chain.readRegistry())?.certificateCount).toBe(1n);
    expect(await violations(s, { chainCertificates: true })).toEqual([]);
  });

  it('after the commit, before the response: the certificate is whole and its job ends in one verdict', { timeout: 150_000 }, async () => {
    const { dir: d, wallet, pdf } = await crashDuringCreate('after-commit');

    const s = await start(d);
    const c = makeClient(s.url);
    await signIn(c, wallet);
    const [row] = await c.client.certificate.list.query({});
    expect(row).toMatchObject({ sha256: sha(pdf), holder_wallet: wallet.address });
    expect(row.anchor_signature).toBeTruthy();
    const done = await finalStatus(c, row.id);
    expect(done.verification_status).toBe('verified');
    const txs = await s.services.db.selectFrom('chain_transaction').select('kind').where('certificate_id', '=', row.id).execute();
    expect(txs.map((t) => t.kind).sort()).toEqual(['anchor_certificate', 'record_verification']);
    // Uploading it again is the ordinary duplicate answer, not a second certificate.
    await expect(c.client.certificate.create.mutate(certForm(claims, { bytes: pdf, name: 'diploma.pdf' }))).rejects.toThrow(MESSAGES.alreadyAdded);
    expect(await count(s, 'certificate')).toBe(1);
    expect(await violations(s, { chainCertificates: true })).toEqual([]);
  });
});

describe('SIGKILL during a profile photo upload', () => {
  it('after the photo is stored, before the user row: swept; the profile keeps no photo; uploading again works', { timeout: 150_000 }, async () => {
    const d = dir();
    const child = await startChildServer(d, { ATTESTA_FAULT: 'after-blob-put' });
    const c = makeClient(child.url);
    const { wallet, user } = await signIn(c);
    const fd = new FormData();
    fd.set('photo', new File([(await makeImage('png')) as BlobPart], 'me.png'));
    await expect(c.client.profile.uploadPhoto.mutate(fd)).rejects.toThrow();
    expect((await child.exited).signal).toBe('SIGKILL');
    expect(uploadedFiles(d)).toEqual([expect.stringMatching(/^photos\/.+\.png$/)]);
    ageUploads(d);

    const s = await start(d);
    expect(uploadedFiles(d)).toEqual([]);
    const c2 = makeClient(s.url);
    await signIn(c2, wallet);
    expect((await c2.client.profile.get.query()).profile_image_url).toBeNull();
    const png = await makeImage('png');
    const fd2 = new FormData();
    fd2.set('photo', new File([png as BlobPart], 'me.png'));
    await c2.client.profile.uploadPhoto.mutate(fd2);
    const served = await fetch(`${s.url}/files/photos/${user.id}`);
    expect(served.status).toBe(200);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(png);
    expect(await violations(s)).toEqual([]);
  });

  it('after a replacement commits, before the old photo is deleted: the new photo stays, the old one is swept', { timeout: 150_000 }, async () => {
    const d = dir();
    const child = await startChildServer(d, { ATTESTA_FAULT: 'before-blob-delete' });
    const c = makeClient(child.url);
    const { wallet, user } = await signIn(c);
    const upload = async (bytes: Uint8Array) => {
      const fd = new FormData();
      fd.set('photo', new File([bytes as BlobPart], 'me.png'));
      return c.client.profile.uploadPhoto.mutate(fd);
    };
    await upload(await makeImage('png')); // the first photo replaces nothing: no delete, no crash
    const second = await makeImage('png');
    await expect(upload(second)).rejects.toThrow();
    expect((await child.exited).signal).toBe('SIGKILL');
    expect(uploadedFiles(d)).toHaveLength(2);
    ageUploads(d);

    const s = await start(d);
    const c2 = makeClient(s.url);
    await signIn(c2, wallet);
    expect((await c2.client.profile.get.query()).profile_image_url).toBeTruthy();
    expect(new Uint8Array(await (await fetch(`${s.url}/files/photos/${user.id}`)).arrayBuffer())).toEqual(second);
    expect(uploadedFiles(d)).toHaveLength(1);
    expect(await violations(s)).toEqual([]);
  });
});

describe('SIGKILL between mint submit and record', () => {
  for (const fault of ['mint-before-send', 'mint-after-send'] as const) {
    it(`${fault}: the restart finishes the mint from the signed attempt and the chain, minted once`, { timeout: 150_000 }, async () => {
      const d = dir();
      const child = await startChildServer(d, { ATTESTA_FAULT: fault });
      const c = makeClient(child.url);
      const { wallet } = await signIn(c);
      const pdf = await pdfFor();
      const cert = await c.client.certificate.create.mutate(certForm(claims, { bytes: pdf, name: 'diploma.pdf' }));
      expect((await finalStatus(c, cert.id)).verification_status).toBe('verified');
      const prepared = await c.client.mint.prepare.mutate({ id: cert.id });
      const signed = toB64(walletSign(prepared.transaction, Keypair.fromSecretKey(wallet.secretKey)));
      await expect(c.client.mint.submit.mutate({ id: cert.id, signedTransaction: signed })).rejects.toThrow();
      expect((await child.exited).signal).toBe('SIGKILL');

      const s = await start(d);
      expect(s.startup.reconciledMints).toMatchObject({ checked: 1, minted: 1, errors: [] });
      const c2 = makeClient(s.url);
      await signIn(c2, wallet);
      expect((await c2.client.certificate.byId.query({ id: cert.id })).nft_mint_address).toBe(prepared.mint_address);
      expect((await s.services.chain.readCertificate(fromHex(cert.sha256)))?.nftMint?.toBase58()).toBe(prepared.mint_address);
      // The holder retrying after the broken request gets the same NFT; nothing mints twice.
      await expect(c2.client.mint.prepare.mutate({ id: cert.id })).rejects.toThrow('This certificate is already minted.');
      expect((await c2.client.mint.submit.mutate({ id: cert.id, signedTransaction: signed })).mint_address).toBe(prepared.mint_address);
      expect((await s.services.chain.readRegistry())?.mintedCount).toBe(1n);
      const mintTxs = await s.services.db.selectFrom('chain_transaction').select('signature').where('kind', '=', 'mint_certificate').where('certificate_id', '=', cert.id).execute();
      expect(mintTxs).toHaveLength(1);
      expect(await violations(s, { chainCertificates: true })).toEqual([]);
    });
  }
});

describe('retry notices', () => {
  it('name the kind of chain failure, never the raw error (details are public; RPC URLs can carry keys)', () => {
    const refused = Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('connect ECONNREFUSED 10.0.0.7:8899'), { code: 'ECONNREFUSED' }) });
    expect(classifyFailure(new Error('failed to get info about account X: TypeError: fetch failed')).problem).toBe('network_unreachable');
    expect(classifyFailure(refused).problem).toBe('network_unreachable');
    expect(classifyFailure(new Error('503 Service Unavailable: {"error":"upstream"}')).problem).toBe('network_unreachable');
    expect(classifyFailure(new ChainError('Transaction 5x expired before it landed (blockhash too old); nothing was written', null, null, [])).problem).toBe('transaction_expired');
    expect(classifyFailure(new ChainError('The signer is not a registry verifier', 6003, 'NotVerifier', []))).toEqual({
      problem: 'chain_refused',
      text: 'The Solana program refused the verdict transaction (NotVerifier)',
    });
    expect(classifyFailure(new Error('SQLITE_BUSY: database is locked')).problem).toBe('internal');

    const secret = new Error('request to https://rpc.example.com/?api-key=s3cret failed, reason: fetch failed');
    const retrying = retryDetails(secret, 2, 5, { final: false, runAfter: Date.UTC(2026, 10, 22, 10, 42, 5) });
    expect(retrying.reason).toBe('The Solana network is not reachable; retrying automatically (attempt 3 of 5) at 10:42:05 UTC.');
    expect(retrying.retry).toEqual({ state: 'retrying', problem: 'network_unreachable', attempt: 2, max_attempts: 5, next_attempt_at: '2026-11-22T10:42:05.000Z' });
    const final = retryDetails(secret, 5, 5, { final: true, runAfter: 0 });
    expect(final.reason).toBe('Verification could not be completed after 5 attempts. Last problem: the Solana network is not reachable. Use Check Status to try again.');
    expect(JSON.stringify([retrying, final])).not.toContain('s3cret');
  });
});

describe('the orphan sweep', () => {
  it('removes only unreferenced blobs written before the cut-off, in the folders rows own', async () => {
    const s = await start(dir());
    const c = makeClient(s.url);
    await signIn(c);
    const cert = await c.client.certificate.create.mutate(certForm(claims, { bytes: await pdfFor(), name: 'd.pdf' }));
    const { blobs } = s.services;
    await blobs.put('certificates/c_crashed.pdf', new Uint8Array([1]), 'application/pdf');
    await blobs.put('photos/u_gone-1.png', new Uint8Array([2]), 'image/png');
    await blobs.put('elsewhere/keep.bin', new Uint8Array([3]), 'application/octet-stream');
    const tmp = path.join(s.services.config.dataDir, 'uploads', 'certificates', '.tmp-deadbeef');
    fs.writeFileSync(tmp, 'half');

    // An upload in flight wrote its blob after the cut-off: it is not touched.
    expect(await sweepOrphanBlobs(s.services, { before: Date.now() - 60_000 })).toEqual({ removed: [], tempRemoved: 0, listed: true });
    expect(await blobs.exists('certificates/c_crashed.pdf')).toBe(true);

    const swept = await sweepOrphanBlobs(s.services, { before: Date.now() + 1_000 });
    expect(swept.removed.sort()).toEqual(['certificates/c_crashed.pdf', 'photos/u_gone-1.png']);
    expect(swept.tempRemoved).toBe(1);
    expect(await blobs.exists(`certificates/${cert.id}.pdf`)).toBe(true); // a committed row's blob stays
    expect(await blobs.exists('elsewhere/keep.bin')).toBe(true);
    expect(fs.existsSync(tmp)).toBe(false);
    expect((await finalStatus(c, cert.id)).verification_status).toBe('verified');
  });
});

describe('RPC chain (a second server on the first one’s /rpc)', () => {
  let a: Server;
  let proxy: Awaited<ReturnType<typeof startFlakyRpc>>;
  let b: Server;
  const dirA = () => a.services.config.dataDir;

  beforeAll(async () => {
    a = await start(dir());
    proxy = await startFlakyRpc(`${a.url}/rpc`);
    b = await start(dir(), {
      SOLANA_RPC_URL: proxy.url,
      CERTIFICATES_PROGRAM_ID: CERTIFICATES_PROGRAM_ID.toBase58(),
      OPERATOR_KEYPAIR_PATH: path.join(dirA(), 'operator.json'),
      ATTESTA_TEST_STEP_DELAY_MS: '300', // room to break the RPC between steps
    });
    expect(b.services.chain.mode).toBe('rpc');
  }, 120_000);
  afterAll(() => proxy?.close());

  const reset = () => Object.assign(proxy.state, { down: false, dropSends: 0, heightOffset: 0 });
  const recordTxs = async (id: string) =>
    (await b.services.db.selectFrom('chain_transaction').select('signature').where('certificate_id', '=', id).where('kind', '=', 'record_verification').execute()).length;
  /** The next attempt is scheduled an hour ahead; tests make it due instead of waiting. */
  const makeDue = async (id: string) => {
    await b.services.db.updateTable('verification_job').set({ run_after: Date.now() }).where('certificate_id', '=', id).where('status', '=', 'queued').execute();
    b.services.queue.kick();
  };
  const notice = (c: Client, id: string) =>
    waitFor(async () => {
      const r = await c.client.certificate.byId.query({ id });
      return r.verification_details?.retry ? r : null;
    }, 60_000);

  it('crash after the anchor landed, before the commit: the chain record is adopted by the re-upload, anchored once', { timeout: 150_000 }, async () => {
    const before = (await a.services.chain.readRegistry())!.certificateCount;
    const { dir: d, wallet, pdf } = await crashDuringCreate('before-commit', {
      SOLANA_RPC_URL: `${a.url}/rpc`,
      CERTIFICATES_PROGRAM_ID: CERTIFICATES_PROGRAM_ID.toBase58(),
      OPERATOR_KEYPAIR_PATH: path.join(dirA(), 'operator.json'),
    });
    // A cluster cannot roll back with our DB: the anchor exists without a row.
    expect((await a.services.chain.readCertificate(fromHex(sha(pdf))))?.holder.toBase58()).toBe(wallet.address);
    const s = await start(d, { SOLANA_RPC_URL: `${a.url}/rpc`, CERTIFICATES_PROGRAM_ID: CERTIFICATES_PROGRAM_ID.toBase58(), OPERATOR_KEYPAIR_PATH: path.join(dirA(), 'operator.json') });
    expect(uploadedFiles(d)).toEqual([]);
    expect(await count(s, 'certificate')).toBe(0);
    const { cert } = await reupload(s, wallet, pdf);
    expect((await a.services.chain.readRegistry())!.certificateCount).toBe(before + 1n);
    expect((await a.services.chain.readCertificate(fromHex(cert.sha256)))?.status).toBe(1);
    expect(await violations(s)).toEqual([]);
    // Another wallet still cannot take the file.
    const other = makeClient(s.url);
    await signIn(other);
    await expect(other.client.certificate.create.mutate(certForm(claims, { bytes: pdf, name: 'x.pdf' }))).rejects.toThrow(MESSAGES.alreadyRegisteredByOther);
  });

  it('RPC down mid-pipeline: the certificate says it is retrying; when the RPC is back the verdict is recorded once', { timeout: 120_000 }, async () => {
    reset();
    b.services.queue.retry = { maxAttempts: 5, baseDelayMs: 3_600_000 };
    const c = makeClient(b.url);
    const { user } = await signIn(c);
    const cert = await c.client.certificate.create.mutate(certForm(claims, { bytes: await pdfFor(), name: 'd.pdf' }));
    proxy.state.landed.clear();
    await waitFor(async () => (await c.client.certificate.logs.query({ id: cert.id })).some((l) => l.verification_step === 'hash_verification'), 30_000, 20);
    proxy.state.down = true;

    const retrying = await notice(c, cert.id);
    expect(retrying.verification_status).toBe('pending');
    expect(retrying.verification_details).toMatchObject({ retry: { state: 'retrying', problem: 'network_unreachable', attempt: 1, max_attempts: 5 } });
    expect(retrying.verification_details!.reason).toMatch(/^The Solana network is not reachable; retrying automatically \(attempt 2 of 5\) at \d\d:\d\d:\d\d UTC\.$/);
    const next = Date.parse((retrying.verification_details!.retry as { next_attempt_at: string }).next_attempt_at);
    expect(next).toBeGreaterThan(Date.now() + 3_000_000); // 2^1 × the (test) base delay
    // Anyone with the share link sees it too, and the job is waiting, not failed.
    expect((await makeClient(b.url).client.public.view.query({ userId: user.id, certificateId: cert.id })).verification_details?.reason).toBe(retrying.verification_details!.reason);
    const job = await b.services.db.selectFrom('verification_job').selectAll().where('certificate_id', '=', cert.id).executeTakeFirstOrThrow();
    expect(job).toMatchObject({ status: 'queued', attempts: 1 });
    expect(job.last_error).toBeTruthy();
    expect(proxy.state.landed.size).toBe(0);

    proxy.state.down = false;
    await makeDue(cert.id);
    const done = await finalStatus(c, cert.id);
    expect(done.verification_status).toBe('verified');
    expect(done.verification_details?.retry).toBeUndefined();
    expect(await recordTxs(cert.id)).toBe(1);
    expect(proxy.state.landed.size).toBe(1);
    expect((await a.services.chain.readCertificate(fromHex(cert.sha256)))?.status).toBe(1);
    const steps = (await c.client.certificate.logs.query({ id: cert.id })).map((l) => l.verification_step);
    expect(steps).toEqual(['hash_verification', 'document_checks', 'issuer_verification', 'chain_record']); // the retry reused the logged steps
    expect(await b.services.db.selectFrom('verification_job').select(['status', 'attempts']).where('certificate_id', '=', cert.id).execute()).toEqual([{ status: 'done', attempts: 2 }]);
  });

  it('the verdict transaction expires (blockhash too old): shown as such, retried, recorded once', { timeout: 120_000 }, async () => {
    reset();
    b.services.queue.retry = { maxAttempts: 5, baseDelayMs: 3_600_000 };
    const c = makeClient(b.url);
    await signIn(c);
    const cert = await c.client.certificate.create.mutate(certForm(claims, { bytes: await pdfFor(), name: 'd.pdf' }));
    proxy.state.landed.clear();
    Object.assign(proxy.state, { dropSends: Infinity, heightOffset: 10_000 }); // every send lost, every blockhash past its last valid height

    const retrying = await notice(c, cert.id);
    expect(retrying.verification_details).toMatchObject({ retry: { state: 'retrying', problem: 'transaction_expired', attempt: 1 } });
    expect(retrying.verification_details!.reason).toMatch(/^The Solana transaction expired before it landed \(the network may be congested\); retrying automatically \(attempt 2 of 5\) at /);
    expect((await a.services.chain.readCertificate(fromHex(cert.sha256)))?.status).toBe(0); // still pending on chain
    expect(await recordTxs(cert.id)).toBe(0);

    reset();
    await makeDue(cert.id);
    expect((await finalStatus(c, cert.id)).verification_status).toBe('verified');
    expect(await recordTxs(cert.id)).toBe(1);
    expect(proxy.state.landed.size).toBe(1);
  });

  it('RPC down through every attempt: a clear final state, not pending forever; Try Again works once it is back', { timeout: 120_000 }, async () => {
    reset();
    b.services.queue.retry = { maxAttempts: 5, baseDelayMs: 50 };
    const c = makeClient(b.url);
    await signIn(c);
    const cert = await c.client.certificate.create.mutate(certForm(claims, { bytes: await pdfFor(), name: 'd.pdf' }));
    proxy.state.landed.clear();
    proxy.state.down = true;

    const seen = new Set<string>();
    const gaveUp = await waitFor(async () => {
      const r = await c.client.certificate.byId.query({ id: cert.id });
      const retry = r.verification_details?.retry as { state: string } | undefined;
      if (retry) seen.add(String(r.verification_details!.reason));
      return retry?.state === 'gave_up' && r;
    }, 60_000, 20);
    expect(gaveUp.verification_status).toBe('pending');
    expect(gaveUp.verification_details).toMatchObject({
      reason: 'Verification could not be completed after 5 attempts. Last problem: the Solana network is not reachable. Use Check Status to try again.',
      retry: { state: 'gave_up', problem: 'network_unreachable', attempt: 5, max_attempts: 5, next_attempt_at: null },
    });
    expect([...seen].every((m) => /^The Solana network is not reachable; retrying|^Verification could not be completed/.test(m))).toBe(true);
    expect(await b.services.db.selectFrom('verification_job').select(['status', 'attempts']).where('certificate_id', '=', cert.id).execute()).toEqual([{ status: 'failed', attempts: 5 }]);
    expect(proxy.state.landed.size).toBe(0);

    // Try Again while the RPC is still down: a new run, which fails and says so again (not silently).
    b.services.queue.retry = { maxAttempts: 1, baseDelayMs: 50 };
    const again = await c.client.certificate.retryVerification.mutate({ id: cert.id });
    expect(again.job_id).toBeTruthy();
    const second = await waitFor(async () => {
      const d = (await c.client.certificate.byId.query({ id: cert.id })).verification_details;
      return (d?.retry as { attempt?: number } | undefined)?.attempt === 1 && d;
    }, 60_000, 20);
    expect(second).toMatchObject({ retry: { state: 'gave_up', problem: 'network_unreachable', max_attempts: 1 } });
    expect((await b.services.db.selectFrom('verification_job').select('status').where('id', '=', again.job_id!).executeTakeFirstOrThrow()).status).toBe('failed');

    // The RPC is back: Check Status (the app's button on a pending certificate) ends in one verdict.
    proxy.state.down = false;
    b.services.queue.retry = { maxAttempts: 5, baseDelayMs: 50 };
    expect((await c.client.certificate.startVerification.mutate({ id: cert.id })).job_id).toBeTruthy();
    const done = await finalStatus(c, cert.id);
    expect(done.verification_status).toBe('verified');
    expect(done.verification_details?.retry).toBeUndefined();
    expect(await recordTxs(cert.id)).toBe(1);
    expect(proxy.state.landed.size).toBe(1);
    expect((await a.services.chain.readCertificate(fromHex(cert.sha256)))?.status).toBe(1);
  });
});
