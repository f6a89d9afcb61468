/**
 * The authorization matrix's world: one real server (worker off, so pending stays pending), the five
 * roles with their cookie sessions and API keys, and the holder's target resources.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Keypair, LAMPORTS_PER_SOL, SystemProgram, Transaction } from '@solana/web3.js';
import type { Kysely } from 'kysely';
import nacl from 'tweetnacl';
import bs58 from 'bs58';
import { IssuerStatus } from '../../../shared/program/codec';
import { SESSION_COOKIE } from '../../../shared/constants';
import type { Server } from '../../src/app';
import { loadOrCreateOperator } from '../../src/services/chain/operator';
import { runVerificationJob } from '../../src/services/verification/pipeline';
import { certForm, footprint, makeClient, makeImage, makePdf, newWallet, signIn, startTestServer, tmpDataDir } from '../helpers';
import { toB64, walletSign } from '../mint-support/flow';
import { startDnsServer } from '../net-peers/dns';

export const ROLES = ['anonymous', 'holder', 'otherHolder', 'issuer', 'operator'] as const;
export type Role = (typeof ROLES)[number];

export type Wallet = ReturnType<typeof newWallet>;

export interface Actor {
  role: Role;
  /** Anonymous: a wallet that never signed in (it still signs transactions for /rpc). */
  wallet: Wallet;
  keypair: Keypair;
  /** Cookie jar + fetch (anonymous: an empty jar that is never filled). */
  browser: ReturnType<typeof makeClient>;
  userId: string | null;
  /** The role's REST API key (null for anonymous). */
  apiKey: string | null;
  /** The profile's full name (the name its certificates are awarded to). */
  name: string;
}

export interface Target {
  id: string;
  title: string;
  sha256: string;
  pdf: Uint8Array;
}

export interface World {
  server: Server;
  dir: string;
  actors: Record<Role, Actor>;
  /** The holder's certificates: pending, verified (tRPC mint rows), verified (REST mint rows), minted. */
  pending: Target;
  verified: Target;
  verifiedRest: Target;
  minted: Target & { arweaveUrl: string; mintAddress: string };
  rejected: Target;
  /** A second rejected one, whose claims the certificate.updateClaims row corrects (Try Again queues a run on `rejected`). */
  claims: Target;
  /** The other holder's own pending certificate (must never show up for the holder). */
  otherPending: Target;
  /** Each signed-in role's own pending certificate (the holder's is `pending`; anonymous has none). */
  own: Record<Role, Target | null>;
  /** A key of the holder's that the apiKeys.revoke row targets (the holder's main key stays valid). */
  victimKey: { id: string; key: string };
  /** Ids of the holder's API keys (the main one and the victim). */
  holderKeyIds: string[];
  holderEmail: string;
  issuerName: string;
  /** Institutions (issue 14): a certificate the issuer issued to the holder. */
  issued: Target;
  /** The holder's verified certificate no institution was asked about (requestConfirmation rows). */
  requestable: Target;
  /** The holder's pending certificate with an open confirmation request to the issuer (confirm, files). */
  asked: Target & { requestId: string };
  /** The holder's verified certificate with another open request to the issuer (decline). */
  toDecline: Target & { requestId: string };
  /** Another one, for the REST decline row. */
  toDeclineRest: Target & { requestId: string };
  /** The holder's verified certificate the operator revokes for fraud. */
  fraud: Target;
  /** A registered institution, pending, with a proven domain (operator.setStatus approves it). */
  pendingInstitution: string;
  close(): Promise<void>;
}

export const wallFromKeypair = (kp: Keypair): Wallet => ({
  address: kp.publicKey.toBase58(),
  secretKey: kp.secretKey,
  sign: (msg: string) => bs58.encode(nacl.sign.detached(new TextEncoder().encode(msg), kp.secretKey)),
});

export interface Res {
  status: number;
  bytes: Uint8Array;
  text: string;
  json: any;
  headers: Headers;
}

export async function toRes(r: Response): Promise<Res> {
  const bytes = new Uint8Array(await r.arrayBuffer());
  const text = new TextDecoder().decode(bytes);
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON (files) */
  }
  return { status: r.status, bytes, text, json, headers: r.headers };
}

/**
 * A raw tRPC call over HTTP (so the status and the exact body are visible). Cookie-carrying
 * mutations say `Sec-Fetch-Site: same-origin`, as the browser does for the app's own requests.
 */
export async function trpc(a: Actor, kind: 'query' | 'mutation', path: string, input?: unknown): Promise<Res> {
  const url = new URL(`${baseUrl}/trpc/${path}`);
  if (kind === 'query') {
    if (input !== undefined) url.searchParams.set('input', JSON.stringify(input));
    return toRes(await a.browser.fetch(url, { headers: { 'sec-fetch-site': 'same-origin' } }));
  }
  const form = input instanceof FormData;
  const init: RequestInit = {
    method: 'POST',
    headers: { 'sec-fetch-site': 'same-origin', ...(form ? {} : { 'content-type': 'application/json' }) },
    body: form ? input : JSON.stringify(input ?? null),
  };
  return toRes(await a.browser.fetch(url, init));
}

/** A subscription over SSE: the first event (data or error), then the stream is closed. */
export async function trpcSubscribeFirst(a: Actor, path: string, input: unknown): Promise<Res> {
  const url = new URL(`${baseUrl}/trpc/${path}`);
  url.searchParams.set('input', JSON.stringify(input));
  const ac = new AbortController();
  const r = await a.browser.fetch(url, { headers: { accept: 'text/event-stream' }, signal: ac.signal });
  if (!(r.headers.get('content-type') ?? '').startsWith('text/event-stream')) return toRes(r);
  // Read until the first data or error event, then hang up.
  const reader = r.body!.getReader();
  const dec = new TextDecoder();
  let buf = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += dec.decode(value, { stream: true });
      const ev = buf.split('\n\n').find((block) => /^event: (serialized-error|error)$/m.test(block) || (/^data: /m.test(block) && !/^event: connected$/m.test(block)));
      if (ev) {
        buf = ev;
        break;
      }
    }
  } finally {
    ac.abort();
  }
  const data = /^data: (.*)$/m.exec(buf)?.[1] ?? 'null';
  const isError = /^event: (serialized-error|error)$/m.test(buf);
  const json = JSON.parse(data);
  // An error event carries the procedure's error shape; its status is the one the client reports.
  return { status: isError ? Number(json?.data?.httpStatus ?? 500) : r.status, bytes: new TextEncoder().encode(buf), text: buf, json, headers: r.headers };
}

/** A REST call with the role's API key (channel 'key') or its session cookie (channel 'cookie'). */
export async function rest(a: Actor, channel: 'key' | 'cookie', method: 'GET' | 'POST', path: string, body?: unknown): Promise<Res> {
  const headers = new Headers();
  if (channel === 'key' && a.apiKey) headers.set('authorization', `Bearer ${a.apiKey}`);
  const init: RequestInit = { method, headers };
  if (body instanceof FormData) init.body = body;
  else if (body !== undefined) {
    headers.set('content-type', 'application/json');
    init.body = JSON.stringify(body);
  }
  const f = channel === 'cookie' ? a.browser.fetch : fetch;
  return toRes(await f(`${baseUrl}${path}`, init));
}

/** A plain GET (files, permanent copies) with the role's cookie. */
export async function get(a: Actor, path: string): Promise<Res> {
  return toRes(await a.browser.fetch(`${baseUrl}${path}`));
}

/** A JSON-RPC call to /rpc with the role's cookie attached (which must make no difference). */
export async function rpc(a: Actor, method: string, params: unknown[]): Promise<Res> {
  return toRes(await a.browser.fetch(`${baseUrl}/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) }));
}

let baseUrl = '';

export const claims = (title: string, institution = 'Harbor Institute') => ({ title, institution_name: institution, program_name: 'Marine Robotics', issue_date: '2025-03-03' });

export async function certificatePdf(title: string, institution = 'Harbor Institute', holder?: string) {
  const c = claims(title, institution);
  return makePdf([c.institution_name, c.title, c.program_name], { holder });
}

/** Runs every queued verification job now (the server's own worker is off). */
async function drainQueue(server: Server) {
  for (;;) {
    const job = await server.services.queue.claim();
    if (!job) return;
    await runVerificationJob(server.services, job);
  }
}

async function addCertificate(a: Actor, title: string, opts: { institution?: string; mismatch?: boolean } = {}): Promise<Target> {
  const c = claims(title, opts.institution);
  const pdf = opts.mismatch ? await makePdf(['Lorem ipsum dolor', 'sit amet']) : await certificatePdf(title, opts.institution, a.name);
  const res = await trpc(a, 'mutation', 'certificate.create', certForm(c, { bytes: pdf, name: 'certificate.pdf', type: 'application/pdf' }));
  if (res.status !== 200) throw new Error(`create failed: ${res.status} ${res.text}`);
  const dto = res.json.result.data;
  return { id: dto.id, title, sha256: dto.sha256, pdf };
}

async function signInActor(role: Role, wallet: Wallet, url: string): Promise<Actor> {
  const browser = makeClient(url);
  const { user } = await signIn(browser, wallet);
  const key = await browser.client.apiKeys.create.mutate({ name: `${role} matrix` });
  return { role, wallet, keypair: Keypair.fromSecretKey(wallet.secretKey), browser, userId: user.id, apiKey: key.key, name: user.full_name };
}

export async function buildWorld(): Promise<World> {
  const dir = tmpDataDir();
  // The operator role is the server's own key, listed in ATTESTA_OPERATOR_WALLETS; domain proofs ask a
  // DNS server on loopback (nothing leaves this machine).
  const operatorKp = loadOrCreateOperator(path.join(dir, 'operator.json'));
  const dns = await startDnsServer();
  // Worker off: pending certificates stay pending; the verified ones are verified by drainQueue.
  const server = await startTestServer(dir, {
    ATTESTA_OPERATOR_WALLETS: operatorKp.publicKey.toBase58(),
    ATTESTA_DNS_SERVERS: dns.server,
    ATTESTA_DOMAIN_PROOF_TIMEOUT_MS: '1000',
    INSTITUTION_RATE_LIMIT_PER_WALLET: '100000',
    ATTESTA_WORKER: 'false',
    // Rate limits are not what this matrix is about (the table calls the same endpoints many times).
    API_RATE_LIMIT_PER_MIN: '100000',
    SIGN_IN_RATE_LIMIT_PER_IP: '100000',
    SIGN_IN_RATE_LIMIT_PER_WALLET: '100000',
  });
  baseUrl = server.url;
  const chain = server.services.chain;

  // Issuer: a fresh wallet registered and approved on chain, as the demo seed does it.
  const issuerKp = Keypair.generate();
  const issuerName = 'Matrix Issuer University';
  await chain.registerIssuer({ authority: issuerKp, name: issuerName, uri: 'https://issuer.matrix.example' }, { kind: 'register_issuer' });
  await chain.setIssuerStatus({ authority: issuerKp.publicKey, status: IssuerStatus.Approved }, { kind: 'set_issuer_status' });
  if ((await chain.readIssuer(issuerKp.publicKey))?.status !== IssuerStatus.Approved) throw new Error('the issuer is not approved on chain');
  // Operator: the server's own key from the data dir.
  if (!operatorKp.publicKey.equals(chain.operator)) throw new Error('operator keypair mismatch');
  dns.zone.txt.set('_attesta.issuer.matrix.example', [`attesta-issuer=${issuerKp.publicKey.toBase58()}`]);

  const anonWallet = newWallet();
  const anonymous: Actor = { role: 'anonymous', wallet: anonWallet, keypair: Keypair.fromSecretKey(anonWallet.secretKey), browser: makeClient(server.url), userId: null, apiKey: null, name: '' };
  const [holder, otherHolder, issuer, operator] = await Promise.all([
    signInActor('holder', newWallet(), server.url),
    signInActor('otherHolder', newWallet(), server.url),
    signInActor('issuer', wallFromKeypair(issuerKp), server.url),
    signInActor('operator', wallFromKeypair(operatorKp), server.url),
  ]);
  const actors = { anonymous, holder, otherHolder, issuer, operator };

  // Private data the other roles must never see.
  const holderEmail = 'holder.private@matrix.example';
  await holder.browser.client.profile.update.mutate({ full_name: 'Holder Private Name', email: holderEmail });
  holder.name = 'Holder Private Name';
  const photo = await makeImage('png', 64, 64);
  const fd = new FormData();
  fd.set('photo', new File([photo as BlobPart], 'me.png', { type: 'image/png' }));
  await holder.browser.client.profile.uploadPhoto.mutate(fd);

  // Verified ones first (the queue is drained), then those that must stay pending.
  const verified = await addCertificate(holder, 'Matrix Verified Certificate', { institution: issuerName });
  const verifiedRest = await addCertificate(holder, 'Matrix Rest Mint Certificate');
  const mintedBase = await addCertificate(holder, 'Matrix Minted Certificate');
  const rejected = await addCertificate(holder, 'Matrix Rejected Certificate', { mismatch: true });
  const claimsTarget = await addCertificate(holder, 'Matrix Mistyped Certificate', { mismatch: true });
  const requestable = await addCertificate(holder, 'Matrix Requestable Certificate', { institution: issuerName });
  const toDeclineBase = await addCertificate(holder, 'Matrix Declined Certificate', { institution: issuerName });
  const toDeclineRestBase = await addCertificate(holder, 'Matrix REST Declined Certificate', { institution: issuerName });
  const fraud = await addCertificate(holder, 'Matrix Fraud Certificate');
  await drainQueue(server);
  const status = async (id: string) => (await server.services.db.selectFrom('certificate').select('verification_status').where('id', '=', id).executeTakeFirstOrThrow()).verification_status;
  for (const [t, want] of [[requestable, 'verified'], [toDeclineBase, 'verified'], [toDeclineRestBase, 'verified'], [fraud, 'verified'], [verified, 'verified'], [verifiedRest, 'verified'], [mintedBase, 'verified'], [rejected, 'rejected'], [claimsTarget, 'rejected']] as const) {
    const s = await status(t.id);
    if (s !== want) throw new Error(`${t.title} ended ${s}, expected ${want}`);
  }

  // Minted through the holder's wallet signature (mint.test.ts's flow).
  const prepared = await holder.browser.client.mint.prepare.mutate({ id: mintedBase.id });
  const minted = await holder.browser.client.mint.submit.mutate({ id: mintedBase.id, signedTransaction: toB64(walletSign(prepared.transaction, holder.keypair)) });
  if (!minted.arweave_url) throw new Error('mint gave no permanent copy');

  const pending = await addCertificate(holder, 'Matrix Pending Certificate');
  const askedBase = await addCertificate(holder, 'Matrix Asked Pending Certificate', { institution: issuerName });
  const otherPending = await addCertificate(otherHolder, 'Other Holder Private Certificate');
  const own: Record<Role, Target | null> = {
    anonymous: null,
    holder: pending,
    otherHolder: otherPending,
    issuer: await addCertificate(issuer, 'Issuer Own Private Certificate'),
    operator: await addCertificate(operator, 'Operator Own Private Certificate'),
  };

  const victim = await holder.browser.client.apiKeys.create.mutate({ name: 'victim key' });

  // Institutions: the issuer proves its domain, issues to the holder; the holder asks it twice.
  const proof = await issuer.browser.client.issuer.checkDomain.mutate();
  if (proof.proof.status !== 'proven') throw new Error(`the matrix issuer's domain is not proven: ${JSON.stringify(proof.proof.findings)}`);
  const issuedPdf = await certificatePdf('Matrix Issued Certificate', issuerName);
  const issueFd = new FormData();
  for (const [k, v] of Object.entries({ title: 'Matrix Issued Certificate', program_name: 'Marine Robotics', issue_date: '2025-03-03', holder_wallet: holder.wallet.address })) issueFd.set(k, v);
  issueFd.set('certificate_file', new File([issuedPdf as BlobPart], 'issued.pdf', { type: 'application/pdf' }));
  const issuePrepared = await issuer.browser.client.issuer.issue.mutate(issueFd);
  const issuedRes = await issuer.browser.client.issuer.submit.mutate({ signedTransaction: toB64(walletSign(issuePrepared.transaction, issuer.keypair)) });
  const issuedId = (issuedRes.result as { certificate_id: string }).certificate_id;
  const issued: Target = { id: issuedId, title: 'Matrix Issued Certificate', sha256: (await server.services.db.selectFrom('certificate').select('sha256').where('id', '=', issuedId).executeTakeFirstOrThrow()).sha256, pdf: issuedPdf };
  const ask = async (t: Target) => {
    const prepared = await holder.browser.client.certificate.requestConfirmation.mutate({ id: t.id, issuer: issuer.wallet.address, consent: true });
    const r = await holder.browser.client.certificate.submitConfirmationRequest.mutate({ signedTransaction: toB64(walletSign(prepared.transaction, holder.keypair)) });
    return { ...t, requestId: (r.result as { request_id: string }).request_id };
  };
  const asked = await ask(askedBase);
  const toDecline = await ask(toDeclineBase);
  const toDeclineRest = await ask(toDeclineRestBase);
  // A second institution, registered and pending, whose domain is proven (as its check would store it).
  const pendingKp = Keypair.generate();
  await chain.registerIssuer({ authority: pendingKp, name: 'Matrix Pending College', uri: 'pending.matrix.example' }, { kind: 'register_issuer' });
  await server.services.db
    .insertInto('issuer_profile')
    .values({ authority: pendingKp.publicKey.toBase58(), domain: 'pending.matrix.example', name: 'Matrix Pending College', registered_at: new Date().toISOString(), proof_status: 'proven', proof_method: 'dns', proven_at: new Date().toISOString(), checked_at: new Date().toISOString(), findings: '[]' })
    .execute();

  // SOL for /rpc transactions signed by each role's wallet (the operator has its own).
  for (const a of [anonymous, holder, otherHolder, issuer]) {
    await chain.sendTransaction(new Transaction().add(SystemProgram.transfer({ fromPubkey: chain.operator, toPubkey: a.keypair.publicKey, lamports: LAMPORTS_PER_SOL })), [], { kind: 'airdrop' });
  }

  return {
    server,
    dir,
    actors,
    pending,
    verified,
    verifiedRest,
    minted: { ...mintedBase, arweaveUrl: minted.arweave_url, mintAddress: minted.mint_address },
    rejected,
    claims: claimsTarget,
    otherPending,
    own,
    victimKey: { id: victim.api_key.id, key: victim.key },
    holderKeyIds: (await holder.browser.client.apiKeys.list.query()).map((k) => k.id),
    holderEmail,
    issuerName,
    issued,
    requestable,
    asked,
    toDecline,
    toDeclineRest,
    fraud,
    pendingInstitution: pendingKp.publicKey.toBase58(),
    async close() {
      await server.close();
      await dns.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

// Tables whose rows prove "nothing written", beside footprint() (which counts certificates, jobs, logs,
// chain transactions, blobs and chain records). Volatile columns are dropped: api_key.last_used_at is
// touched by any authenticated REST call; sign-in nonces are free to issue.
const TABLES = ['user', 'session', 'certificate', 'verification_job', 'api_key', 'mint_attempt', 'permanent_copy', 'contact_message', 'feedback', 'wallet_action', 'issuer_profile', 'confirmation_request', 'audit_log'] as const;
const VOLATILE: Record<string, string[]> = { api_key: ['last_used_at'] };

/** Every row the matrix's calls could write, as comparable text (Kysely only: runs on any dialect). */
export async function snapshot(server: Server) {
  const db = server.services.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
  const tables: Record<string, string> = {};
  for (const t of TABLES) {
    const rows = await db.selectFrom(t).selectAll().execute();
    const clean = rows.map((r) => {
      const o = { ...r };
      for (const c of VOLATILE[t] ?? []) delete o[c];
      return JSON.stringify(o, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
    });
    tables[t] = clean.sort().join('\n');
  }
  return { footprint: await footprint(server), tables };
}

export const sessionCookieOf = (a: Actor) => a.browser.jar.get(SESSION_COOKIE) ?? null;
