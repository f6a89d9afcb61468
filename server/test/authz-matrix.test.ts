// Authorization matrix (issue 8): every tRPC procedure, REST endpoint and HTTP route × {anonymous,
// holder, other holder, issuer, operator}, one vitest case per cell. The targets are the holder's
// resources: for the holder they are its own, for everyone else someone else's. Denied cells leak
// nothing and write nothing; allowed mutations show their effect. AUTHZ_PRINT=1 prints the table.
import { createHash } from 'node:crypto';
import { Keypair, SystemProgram, Transaction } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../../shared/constants';
import { appRouter } from '../src/router';
import { ENDPOINTS } from '../src/rest/endpoints';
import { certForm, makeClient, makeImage, makePdf, signIn } from './helpers';
import { toB64, walletSign } from './mint-support/flow';
import {
  ROLES,
  buildWorld,
  claims,
  get,
  rest,
  rpc,
  sessionCookieOf,
  snapshot,
  toRes,
  trpc,
  trpcSubscribeFirst,
  type Actor,
  type Res,
  type Role,
  type World,
} from './authz-support/world';

type Cells = Record<Role, number>;

// Expected results. HTTP statuses; for /rpc rows a JSON-RPC outcome: 200 = result, negative = error code.
// 401 = not signed in, 404 = not yours (the same answer as a missing id, so ids cannot be probed).
// The operator's column equals the other holder's: running the server grants no rights over holders' data.
// prettier-ignore
const MATRIX: [row: string, expected: Cells][] = [
  // tRPC over the session cookie (the web app).
  ['trpc health',                                          { anonymous: 200, holder: 200, otherHolder: 200, issuer: 200, operator: 200 }],
  ['trpc auth.nonce',                                      { anonymous: 200, holder: 200, otherHolder: 200, issuer: 200, operator: 200 }],
  ['trpc auth.signIn (as the holder\'s wallet)',           { anonymous: 401, holder: 200, otherHolder: 401, issuer: 401, operator: 401 }],
  ['trpc auth.me',                                         { anonymous: 200, holder: 200, otherHolder: 200, issuer: 200, operator: 200 }],
  ['trpc auth.signOut (a second session of the caller)',   { anonymous: 401, holder: 200, otherHolder: 200, issuer: 200, operator: 200 }],
  ['trpc profile.get',                                     { anonymous: 401, holder: 200, otherHolder: 200, issuer: 200, operator: 200 }],
  ['trpc profile.update',                                  { anonymous: 401, holder: 200, otherHolder: 200, issuer: 200, operator: 200 }],
  ['trpc profile.uploadPhoto',                             { anonymous: 401, holder: 200, otherHolder: 200, issuer: 200, operator: 200 }],
  ['trpc certificate.create',                              { anonymous: 401, holder: 200, otherHolder: 200, issuer: 200, operator: 200 }],
  ['trpc certificate.list',                                { anonymous: 401, holder: 200, otherHolder: 200, issuer: 200, operator: 200 }],
  ['trpc certificate.byId (pending)',                      { anonymous: 401, holder: 200, otherHolder: 404, issuer: 404, operator: 404 }],
  ['trpc certificate.byId (verified)',                     { anonymous: 401, holder: 200, otherHolder: 404, issuer: 404, operator: 404 }],
  ['trpc certificate.byId (caller\'s own)',                { anonymous: 401, holder: 200, otherHolder: 200, issuer: 200, operator: 200 }],
  ['trpc certificate.byId (pending) · API key as bearer',  { anonymous: 401, holder: 401, otherHolder: 401, issuer: 401, operator: 401 }],
  ['trpc certificate.logs (verified)',                     { anonymous: 401, holder: 200, otherHolder: 404, issuer: 404, operator: 404 }],
  ['trpc certificate.attempts (rejected)',                 { anonymous: 401, holder: 200, otherHolder: 404, issuer: 404, operator: 404 }],
  ['trpc certificate.events (asked)',                      { anonymous: 401, holder: 200, otherHolder: 404, issuer: 404, operator: 404 }],
  ['trpc certificate.updateClaims (rejected)',             { anonymous: 401, holder: 200, otherHolder: 404, issuer: 404, operator: 404 }],
  ['trpc certificate.stats',                               { anonymous: 401, holder: 200, otherHolder: 200, issuer: 200, operator: 200 }],
  ['trpc certificate.startVerification (pending)',         { anonymous: 401, holder: 200, otherHolder: 404, issuer: 404, operator: 404 }],
  ['trpc certificate.retryVerification (rejected)',        { anonymous: 401, holder: 200, otherHolder: 404, issuer: 404, operator: 404 }],
  ['trpc certificate.onStatus (pending)',                  { anonymous: 401, holder: 200, otherHolder: 404, issuer: 404, operator: 404 }],
  ['trpc public.view (pending, share link)',               { anonymous: 200, holder: 200, otherHolder: 200, issuer: 200, operator: 200 }],
  ['trpc public.verifyById (verified)',                    { anonymous: 200, holder: 200, otherHolder: 200, issuer: 200, operator: 200 }],
  ['trpc public.verifyByHash (verified)',                  { anonymous: 200, holder: 200, otherHolder: 200, issuer: 200, operator: 200 }],
  ['trpc public.verifyFile (verified)',                    { anonymous: 200, holder: 200, otherHolder: 200, issuer: 200, operator: 200 }],
  ['trpc explorer.address (minted record)',               { anonymous: 200, holder: 200, otherHolder: 200, issuer: 200, operator: 200 }],
  ['trpc explorer.transaction (mint)',                     { anonymous: 200, holder: 200, otherHolder: 200, issuer: 200, operator: 200 }],
  ['trpc mint.links (minted)',                             { anonymous: 401, holder: 200, otherHolder: 404, issuer: 404, operator: 404 }],
  ['trpc mint.prepare (verified)',                         { anonymous: 401, holder: 200, otherHolder: 404, issuer: 404, operator: 404 }],
  ['trpc mint.submit (verified, holder-signed)',           { anonymous: 401, holder: 200, otherHolder: 404, issuer: 404, operator: 404 }],
  ['trpc support.chat',                                    { anonymous: 200, holder: 200, otherHolder: 200, issuer: 200, operator: 200 }],
  ['trpc support.contact',                                 { anonymous: 200, holder: 200, otherHolder: 200, issuer: 200, operator: 200 }],
  ['trpc support.feedback',                                { anonymous: 200, holder: 200, otherHolder: 200, issuer: 200, operator: 200 }],
  ['trpc apiKeys.create',                                  { anonymous: 401, holder: 200, otherHolder: 200, issuer: 200, operator: 200 }],
  ['trpc apiKeys.list',                                    { anonymous: 401, holder: 200, otherHolder: 200, issuer: 200, operator: 200 }],
  ['trpc apiKeys.revoke (holder\'s key)',                  { anonymous: 401, holder: 200, otherHolder: 404, issuer: 404, operator: 404 }],

  // Institutions (issue 14). The issuer is an approved institution with a proven domain; the operator is
  // the server's key, listed in ATTESTA_OPERATOR_WALLETS. A wallet that is no institution is refused the
  // portal (403); an institution acts only on what it issued or was asked about (404 otherwise); only a
  // listed operator wallet reaches the console; a transaction prepared for another wallet is refused (400).
  ['trpc issuer.me',                                       { anonymous: 401, holder: 200, otherHolder: 200, issuer: 200, operator: 200 }],
  ['trpc issuer.register (the caller\'s wallet)',          { anonymous: 401, holder: 200, otherHolder: 200, issuer: 409, operator: 200 }],
  ['trpc issuer.checkDomain',                              { anonymous: 401, holder: 403, otherHolder: 403, issuer: 200, operator: 403 }],
  ['trpc issuer.issue (to the holder)',                    { anonymous: 401, holder: 403, otherHolder: 403, issuer: 200, operator: 403 }],
  ['trpc issuer.requests',                                 { anonymous: 401, holder: 403, otherHolder: 403, issuer: 200, operator: 403 }],
  ['trpc issuer.confirm (holder\'s request to the issuer)', { anonymous: 401, holder: 403, otherHolder: 403, issuer: 200, operator: 403 }],
  ['trpc issuer.decline (holder\'s request to the issuer)', { anonymous: 401, holder: 403, otherHolder: 403, issuer: 200, operator: 403 }],
  ['trpc issuer.revoke (issued by the issuer)',            { anonymous: 401, holder: 403, otherHolder: 403, issuer: 200, operator: 403 }],
  ['trpc issuer.revoke (verified, not the issuer\'s)',     { anonymous: 401, holder: 403, otherHolder: 403, issuer: 404, operator: 403 }],
  ['trpc issuer.submit (issuer-signed issue)',             { anonymous: 401, holder: 400, otherHolder: 400, issuer: 200, operator: 400 }],
  ['trpc issuer.certificates',                             { anonymous: 401, holder: 403, otherHolder: 403, issuer: 200, operator: 403 }],
  ['trpc certificate.requestConfirmation (verified)',      { anonymous: 401, holder: 200, otherHolder: 404, issuer: 404, operator: 404 }],
  ['trpc certificate.submitConfirmationRequest (holder-signed)', { anonymous: 401, holder: 200, otherHolder: 400, issuer: 400, operator: 400 }],
  ['trpc certificate.issuersFor (verified)',               { anonymous: 401, holder: 200, otherHolder: 404, issuer: 404, operator: 404 }],
  ['trpc operator.issuers',                                { anonymous: 401, holder: 403, otherHolder: 403, issuer: 403, operator: 200 }],
  ['trpc operator.setStatus (approve a proven institution)', { anonymous: 401, holder: 403, otherHolder: 403, issuer: 403, operator: 200 }],
  ['trpc operator.revokePreview (verified)',               { anonymous: 401, holder: 403, otherHolder: 403, issuer: 403, operator: 200 }],
  ['trpc operator.revoke (verified, for fraud)',           { anonymous: 401, holder: 403, otherHolder: 403, issuer: 403, operator: 200 }],
  ['trpc operator.audit',                                  { anonymous: 401, holder: 403, otherHolder: 403, issuer: 403, operator: 200 }],

  // REST /api/v1 with the role's API key, and with its session cookie (REST takes bearer credentials only).
  ['REST POST /api/v1/auth/nonce · key',                   { anonymous: 200, holder: 200, otherHolder: 200, issuer: 200, operator: 200 }],
  ['REST POST /api/v1/auth/nonce · cookie',                { anonymous: 200, holder: 200, otherHolder: 200, issuer: 200, operator: 200 }],
  ['REST POST /api/v1/auth/connect (as the holder) · key', { anonymous: 401, holder: 200, otherHolder: 401, issuer: 401, operator: 401 }],
  ['REST POST /api/v1/auth/connect (as the holder) · cookie', { anonymous: 401, holder: 200, otherHolder: 401, issuer: 401, operator: 401 }],
  ['REST POST /api/v1/auth/disconnect · key',              { anonymous: 401, holder: 400, otherHolder: 400, issuer: 400, operator: 400 }],
  ['REST POST /api/v1/auth/disconnect · cookie',           { anonymous: 401, holder: 401, otherHolder: 401, issuer: 401, operator: 401 }],
  ['REST GET /api/v1/profile · key',                       { anonymous: 401, holder: 200, otherHolder: 200, issuer: 200, operator: 200 }],
  ['REST GET /api/v1/profile · cookie',                    { anonymous: 401, holder: 401, otherHolder: 401, issuer: 401, operator: 401 }],
  ['REST POST /api/v1/profile · key',                      { anonymous: 401, holder: 200, otherHolder: 200, issuer: 200, operator: 200 }],
  ['REST POST /api/v1/profile · cookie',                   { anonymous: 401, holder: 401, otherHolder: 401, issuer: 401, operator: 401 }],
  ['REST GET /api/v1/certificates · key',                  { anonymous: 401, holder: 200, otherHolder: 200, issuer: 200, operator: 200 }],
  ['REST GET /api/v1/certificates · cookie',               { anonymous: 401, holder: 401, otherHolder: 401, issuer: 401, operator: 401 }],
  ['REST POST /api/v1/certificates · key',                 { anonymous: 401, holder: 201, otherHolder: 201, issuer: 201, operator: 201 }],
  ['REST POST /api/v1/certificates · cookie',              { anonymous: 401, holder: 401, otherHolder: 401, issuer: 401, operator: 401 }],
  ['REST GET /api/v1/certificates/{id} (pending) · key',   { anonymous: 401, holder: 200, otherHolder: 404, issuer: 404, operator: 404 }],
  ['REST GET /api/v1/certificates/{id} (caller\'s own) · key', { anonymous: 401, holder: 200, otherHolder: 200, issuer: 200, operator: 200 }],
  ['REST GET /api/v1/certificates/{id} (caller\'s own) · cookie', { anonymous: 401, holder: 401, otherHolder: 401, issuer: 401, operator: 401 }],
  ['REST GET /api/v1/certificates/{id} (pending) · cookie', { anonymous: 401, holder: 401, otherHolder: 401, issuer: 401, operator: 401 }],
  ['REST POST /api/v1/verify/{certificateId} (pending) · key', { anonymous: 401, holder: 200, otherHolder: 404, issuer: 404, operator: 404 }],
  ['REST POST /api/v1/verify/{certificateId} (pending) · cookie', { anonymous: 401, holder: 401, otherHolder: 401, issuer: 401, operator: 401 }],
  ['REST GET /api/v1/verify/status/{certificateId} (pending) · key', { anonymous: 401, holder: 200, otherHolder: 404, issuer: 404, operator: 404 }],
  ['REST GET /api/v1/verify/status/{certificateId} (pending) · cookie', { anonymous: 401, holder: 401, otherHolder: 401, issuer: 401, operator: 401 }],
  ['REST GET /api/v1/verify/hash/{sha256} (verified) · key', { anonymous: 200, holder: 200, otherHolder: 200, issuer: 200, operator: 200 }],
  ['REST GET /api/v1/verify/hash/{sha256} (verified) · cookie', { anonymous: 200, holder: 200, otherHolder: 200, issuer: 200, operator: 200 }],
  ['REST POST /api/v1/mint/{certificateId} (step 1) · key', { anonymous: 401, holder: 202, otherHolder: 404, issuer: 404, operator: 404 }],
  ['REST POST /api/v1/mint/{certificateId} (step 1) · cookie', { anonymous: 401, holder: 401, otherHolder: 401, issuer: 401, operator: 401 }],
  ['REST POST /api/v1/mint/{certificateId} (step 2, holder-signed) · cookie', { anonymous: 401, holder: 401, otherHolder: 401, issuer: 401, operator: 401 }],
  ['REST POST /api/v1/mint/{certificateId} (step 2, holder-signed) · key', { anonymous: 401, holder: 200, otherHolder: 404, issuer: 404, operator: 404 }],

  // Institutions over REST (API keys only, like every /api/v1 endpoint).
  ['REST GET /api/v1/issuer/certificates · key',          { anonymous: 401, holder: 403, otherHolder: 403, issuer: 200, operator: 403 }],
  ['REST GET /api/v1/issuer/certificates · cookie',       { anonymous: 401, holder: 401, otherHolder: 401, issuer: 401, operator: 401 }],
  ['REST POST /api/v1/issuer/certificates (to the holder) · key', { anonymous: 401, holder: 403, otherHolder: 403, issuer: 202, operator: 403 }],
  ['REST POST /api/v1/issuer/certificates (to the holder) · cookie', { anonymous: 401, holder: 401, otherHolder: 401, issuer: 401, operator: 401 }],
  ['REST GET /api/v1/issuer/requests · key',              { anonymous: 401, holder: 403, otherHolder: 403, issuer: 200, operator: 403 }],
  ['REST GET /api/v1/issuer/requests · cookie',           { anonymous: 401, holder: 401, otherHolder: 401, issuer: 401, operator: 401 }],
  ['REST POST /api/v1/issuer/requests/{id}/confirm (holder\'s request to the issuer) · key', { anonymous: 401, holder: 403, otherHolder: 403, issuer: 202, operator: 403 }],
  ['REST POST /api/v1/issuer/requests/{id}/confirm (holder\'s request to the issuer) · cookie', { anonymous: 401, holder: 401, otherHolder: 401, issuer: 401, operator: 401 }],
  ['REST POST /api/v1/issuer/requests/{id}/decline (holder\'s request to the issuer) · key', { anonymous: 401, holder: 403, otherHolder: 403, issuer: 200, operator: 403 }],
  ['REST POST /api/v1/issuer/requests/{id}/decline (holder\'s request to the issuer) · cookie', { anonymous: 401, holder: 401, otherHolder: 401, issuer: 401, operator: 401 }],
  ['REST POST /api/v1/issuer/certificates/{id}/revoke (issued by the issuer) · key', { anonymous: 401, holder: 403, otherHolder: 403, issuer: 202, operator: 403 }],
  ['REST POST /api/v1/issuer/certificates/{id}/revoke (issued by the issuer) · cookie', { anonymous: 401, holder: 401, otherHolder: 401, issuer: 401, operator: 401 }],
  ['REST POST /api/v1/issuer/certificates/{id}/revoke (verified, not the issuer\'s) · key', { anonymous: 401, holder: 403, otherHolder: 403, issuer: 404, operator: 403 }],
  ['REST POST /api/v1/issuer/transactions (issuer-signed issue) · key', { anonymous: 401, holder: 400, otherHolder: 400, issuer: 200, operator: 400 }],
  ['REST POST /api/v1/issuer/transactions (issuer-signed issue) · cookie', { anonymous: 401, holder: 401, otherHolder: 401, issuer: 401, operator: 401 }],

  // Plain HTTP routes, with the role's session cookie.
  ['GET /files/certificates/:id (pending)',                { anonymous: 404, holder: 200, otherHolder: 404, issuer: 404, operator: 404 }],
  ['GET /files/certificates/:id?download=1 (pending)',     { anonymous: 404, holder: 200, otherHolder: 404, issuer: 404, operator: 404 }],
  ['GET /files/certificates/:id (caller\'s own pending)',   { anonymous: 404, holder: 200, otherHolder: 200, issuer: 200, operator: 200 }],
  ['GET /files/certificates/:id (rejected)',               { anonymous: 404, holder: 200, otherHolder: 404, issuer: 404, operator: 404 }],
  ['GET /files/certificates/:id (pending, asked institution)', { anonymous: 404, holder: 200, otherHolder: 404, issuer: 200, operator: 404 }],
  // With the role's API key and no cookie: a key reads only what its institution was asked to confirm.
  ['GET /files/certificates/:id (pending, asked institution) · API key', { anonymous: 404, holder: 404, otherHolder: 404, issuer: 200, operator: 404 }],
  ['GET /files/certificates/:id (verified)',               { anonymous: 200, holder: 200, otherHolder: 200, issuer: 200, operator: 200 }],
  ['GET /files/certificates/:id?download=1 (verified)',    { anonymous: 200, holder: 200, otherHolder: 200, issuer: 200, operator: 200 }],
  ['GET /files/photos/:userId (holder\'s photo)',          { anonymous: 200, holder: 200, otherHolder: 200, issuer: 200, operator: 200 }],
  ['GET /permanent/:sha256 (minted)',                      { anonymous: 200, holder: 200, otherHolder: 200, issuer: 200, operator: 200 }],
  ['GET /api/v1/verify/hash/:sha256 (pending)',            { anonymous: 200, holder: 200, otherHolder: 200, issuer: 200, operator: 200 }],
  // The development wallet's named accounts (embedded chain): whoever sits at this machine's browser, signed
  // in or not, gets them (a session makes no difference); nobody through a proxy does.
  ['GET /api/dev/accounts (a browser on this machine)',    { anonymous: 200, holder: 200, otherHolder: 200, issuer: 200, operator: 200 }],
  ['GET /api/dev/accounts · X-Forwarded-For 127.0.0.1',    { anonymous: 403, holder: 403, otherHolder: 403, issuer: 403, operator: 403 }],
  ['POST /rpc getAccountInfo (minted record)',             { anonymous: 200, holder: 200, otherHolder: 200, issuer: 200, operator: 200 }],
  ['POST /rpc sendTransaction (caller pays itself)',       { anonymous: 200, holder: 200, otherHolder: 200, issuer: 200, operator: 200 }],
  ['POST /rpc sendTransaction (spends the holder\'s SOL)', { anonymous: -32003, holder: 200, otherHolder: -32003, issuer: -32003, operator: -32003 }],
];

// ---------------------------------------------------------------------------------------------
// How each row is called and what its allowed cells must show.

interface Spec {
  /** The answer may carry the holder's data by design (share links, verified files, the chain). */
  public?: boolean;
  /** Allowed cells write, and `check` proves the effect; otherwise no cell may write anything. */
  writes?: boolean;
  /** Runs before the "before" snapshot; its writes are not the cell's. */
  setup?: (w: World, a: Actor) => Promise<unknown>;
  call: (w: World, a: Actor, s: any) => Promise<Res>;
  /** Allowed cells: what the answer must contain (and, for writes, the effect). */
  check?: (w: World, a: Actor, res: Res, s: any) => Promise<void> | void;
}

const data = (res: Res) => res.json?.result?.data;
const A = (w: World) => w.actors;
const db = (w: World) => w.server.services.db;
const certRow = (w: World, id: string) => db(w).selectFrom('certificate').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const userRow = (w: World, id: string) => db(w).selectFrom('user').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** A second browser signed in with the role's wallet (its session is the one a row may end). */
async function secondSession(w: World, a: Actor) {
  const b = makeClient(w.server.url);
  await signIn(b, a.wallet);
  return { ...a, browser: b };
}

/** A sign-in message for the holder's wallet, signed by the caller's wallet. */
async function holderMessage(w: World, a: Actor) {
  const r = await rest(A(w).anonymous, 'key', 'POST', '/api/v1/auth/nonce', { wallet_address: A(w).holder.wallet.address });
  const message = r.json.message as string;
  return { address: A(w).holder.wallet.address, message, signature: a.wallet.sign(message) };
}

function restForm(title: string, pdf: Uint8Array) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(claims(title))) fd.set(k, v);
  fd.set('file', new File([pdf as BlobPart], 'certificate.pdf', { type: 'application/pdf' }));
  return fd;
}

async function balance(w: World, address: string) {
  return Number((await rpc(A(w).anonymous, 'getBalance', [address])).json.result.value);
}

/** A transfer to a fresh recipient, fee payer = the caller (who signs); `from` must sign too. */
async function transfer(w: World, a: Actor, from: Keypair) {
  const to = Keypair.generate().publicKey;
  const tx = new Transaction({ feePayer: a.keypair.publicKey, recentBlockhash: await w.server.services.chain.latestBlockhash() }).add(
    SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: to, lamports: 1_000_000 }),
  );
  tx.partialSign(a.keypair);
  return { to: to.toBase58(), wire: tx.serialize({ requireAllSignatures: false, verifySignatures: false }).toString('base64') };
}

/** The caller's own certificate; anonymous owns none, so it asks for the holder's. */
const ownOf = (w: World, a: Actor) => w.own[a.role] ?? w.pending;

const action = (w: World, id: string) => db(w).selectFrom('wallet_action').selectAll().where('id', '=', id).executeTakeFirst();

/** An issue form for a fresh file naming the issuer, to the holder's wallet. */
async function issueForm(w: World, title: string, fileField = 'certificate_file') {
  const fd = new FormData();
  for (const [k, v] of Object.entries({ title, program_name: 'Marine Robotics', issue_date: '2025-03-03', holder_wallet: A(w).holder.wallet.address })) fd.set(k, v);
  fd.set(fileField, new File([(await makePdf([w.issuerName, title, 'Marine Robotics'])) as BlobPart], 'issued.pdf', { type: 'application/pdf' }));
  return fd;
}

const jobsOf = (w: World, certId: string) => db(w).selectFrom('verification_job').selectAll().where('certificate_id', '=', certId).execute();

const SPECS: Record<string, Spec> = {
  'trpc health': { call: (_w, a) => trpc(a, 'query', 'health'), check: (_w, _a, r) => expect(data(r)).toEqual({ ok: true }) },
  'trpc auth.nonce': {
    call: (_w, a) => trpc(a, 'mutation', 'auth.nonce', { address: a.wallet.address }),
    check: (_w, a, r) => expect(data(r).message).toContain(a.wallet.address),
  },
  "trpc auth.signIn (as the holder's wallet)": {
    writes: true,
    setup: async (w, a) => ({ ...(await holderMessage(w, a)), previous: sessionCookieOf(a) }),
    call: (_w, a, s) => trpc(a, 'mutation', 'auth.signIn', { address: s.address, message: s.message, signature: s.signature }),
    async check(w, a, r, s) {
      // The holder's session is rotated: the new cookie is the holder's, the previous one is dead.
      expect(data(r).user.id).toBe(a.userId);
      expect(sessionCookieOf(a)).not.toBe(s.previous);
      expect((await a.browser.client.auth.me.query())?.id).toBe(a.userId);
      const old = await toRes(await fetch(`${w.server.url}/trpc/auth.me`, { headers: { cookie: `${SESSION_COOKIE}=${s.previous}` } }));
      expect(data(old)).toBeNull();
    },
  },
  'trpc auth.me': {
    call: (_w, a) => trpc(a, 'query', 'auth.me'),
    check: (_w, a, r) => expect(data(r)?.id ?? null).toBe(a.userId),
  },
  'trpc auth.signOut (a second session of the caller)': {
    writes: true,
    setup: (w, a) => (a.userId ? secondSession(w, a) : Promise.resolve(a)),
    call: (_w, _a, s: Actor) => trpc(s, 'mutation', 'auth.signOut'),
    async check(_w, a, r, s: Actor) {
      expect(data(r)).toEqual({ success: true });
      expect(await s.browser.client.auth.me.query()).toBeNull(); // that session is over
      expect((await a.browser.client.auth.me.query())?.id).toBe(a.userId); // the main one is not
    },
  },
  'trpc profile.get': { call: (_w, a) => trpc(a, 'query', 'profile.get'), check: (_w, a, r) => expect(data(r).id).toBe(a.userId) },
  'trpc profile.update': {
    writes: true,
    call: (w, a) => trpc(a, 'mutation', 'profile.update', { full_name: `Matrix ${a.role}`, email: a.role === 'holder' ? w.holderEmail : `${a.role.toLowerCase()}@matrix.example` }),
    async check(w, a, r) {
      expect(data(r).id).toBe(a.userId);
      expect((await userRow(w, a.userId!)).full_name).toBe(`Matrix ${a.role}`);
      if (a.role !== 'holder') expect((await userRow(w, A(w).holder.userId!)).full_name).not.toBe(`Matrix ${a.role}`);
    },
  },
  'trpc profile.uploadPhoto': {
    writes: true,
    setup: async () => {
      const fd = new FormData();
      fd.set('photo', new File([(await makeImage('png', 32, 32)) as BlobPart], 'p.png', { type: 'image/png' }));
      return fd;
    },
    call: (_w, a, fd) => trpc(a, 'mutation', 'profile.uploadPhoto', fd),
    async check(w, a, r) {
      const me = await userRow(w, a.userId!);
      expect(data(r).id).toBe(a.userId);
      expect(me.profile_image_key).toContain(a.userId!);
      const photo = await fetch(`${w.server.url}/files/photos/${a.userId}`);
      expect(photo.status).toBe(200);
    },
  },
  'trpc certificate.create': {
    writes: true,
    setup: async (_w, a) => {
      const c = claims(`Created by ${a.role}`);
      return certForm(c, { bytes: await makePdf([c.institution_name, c.title, c.program_name]), name: 'c.pdf', type: 'application/pdf' });
    },
    call: (_w, a, fd) => trpc(a, 'mutation', 'certificate.create', fd),
    async check(w, a, r) {
      const row = await certRow(w, data(r).id);
      expect(row).toMatchObject({ user_id: a.userId, title: `Created by ${a.role}`, verification_status: 'pending' });
      expect((await jobsOf(w, row.id)).length).toBe(1);
    },
  },
  'trpc certificate.list': {
    call: (_w, a) => trpc(a, 'query', 'certificate.list', {}),
    async check(w, a, r) {
      const own = await db(w).selectFrom('certificate').select('id').where('user_id', '=', a.userId!).execute();
      expect(data(r).map((c: { id: string }) => c.id).sort()).toEqual(own.map((c) => c.id).sort());
      if (a.role === 'holder') expect(own.length).toBeGreaterThanOrEqual(5);
    },
  },
  'trpc certificate.byId (pending)': {
    call: (w, a) => trpc(a, 'query', 'certificate.byId', { id: w.pending.id }),
    check: (w, _a, r) => expect(data(r)).toMatchObject({ id: w.pending.id, verification_status: 'pending', sha256: w.pending.sha256 }),
  },
  'trpc certificate.byId (verified)': {
    call: (w, a) => trpc(a, 'query', 'certificate.byId', { id: w.verified.id }),
    check: (w, _a, r) => expect(data(r)).toMatchObject({ id: w.verified.id, verification_status: 'verified' }),
  },
  "trpc certificate.byId (caller's own)": {
    call: (w, a) => trpc(a, 'query', 'certificate.byId', { id: ownOf(w, a).id }),
    check: (w, a, r) => expect(data(r)).toMatchObject({ id: ownOf(w, a).id, title: ownOf(w, a).title }),
  },
  'trpc certificate.byId (pending) · API key as bearer': {
    // tRPC is the web app's: an API key is no session there.
    call: async (w, a) => {
      const url = new URL(`${w.server.url}/trpc/certificate.byId`);
      url.searchParams.set('input', JSON.stringify({ id: w.pending.id }));
      return toRes(await fetch(url, { headers: a.apiKey ? { authorization: `Bearer ${a.apiKey}` } : {} }));
    },
  },
  'trpc certificate.logs (verified)': {
    call: (w, a) => trpc(a, 'query', 'certificate.logs', { id: w.verified.id }),
    check: (_w, _a, r) => expect(data(r).map((l: { verification_step: string }) => l.verification_step)).toEqual(expect.arrayContaining(['hash_verification', 'document_checks', 'issuer_verification'])),
  },
  'trpc certificate.attempts (rejected)': {
    call: (w, a) => trpc(a, 'query', 'certificate.attempts', { id: w.rejected.id }),
    check: (w, _a, r) => {
      expect(data(r)[0]).toMatchObject({ number: 1, state: 'done', outcome: 'rejected' });
      expect(data(r)[0].logs.every((l: { certificate_id: string }) => l.certificate_id === w.rejected.id)).toBe(true);
    },
  },
  // The history's entries of its own: the holder's request to the issuer (the issuer it names does not read it here).
  'trpc certificate.events (asked)': {
    call: (w, a) => trpc(a, 'query', 'certificate.events', { id: w.asked.id }),
    check: (w, _a, r) => {
      expect(data(r).map((e: { kind: string }) => e.kind)).toEqual(['confirmation_requested']);
      expect(data(r).every((e: { certificate_id: string }) => e.certificate_id === w.asked.id)).toBe(true);
    },
  },
  'trpc certificate.updateClaims (rejected)': {
    writes: true,
    call: (w, a) => trpc(a, 'mutation', 'certificate.updateClaims', { id: w.claims.id, ...claims('Matrix Corrected Certificate') }),
    async check(w, _a, r) {
      expect(await certRow(w, w.claims.id)).toMatchObject({ title: 'Matrix Corrected Certificate', verification_status: 'pending' });
      expect((await jobsOf(w, w.claims.id)).find((j) => j.id === data(r).job_id)?.status).toBe('queued');
    },
  },
  'trpc certificate.stats': {
    call: (_w, a) => trpc(a, 'query', 'certificate.stats'),
    async check(w, a, r) {
      const own = await db(w).selectFrom('certificate').select('verification_status').where('user_id', '=', a.userId!).execute();
      // The caller's own counts: every certificate verified on record is in exactly one of the badges' counters.
      const s = data(r) as Record<string, number>;
      expect(s.total).toBe(own.length);
      expect(s.verified + s.platform_checked + s.domain_not_proven + s.issuer_unchecked + s.not_valid).toBe(own.filter((c) => c.verification_status === 'verified').length);
    },
  },
  'trpc certificate.startVerification (pending)': {
    writes: true,
    call: (w, a) => trpc(a, 'mutation', 'certificate.startVerification', { id: w.pending.id }),
    async check(w, _a, r) {
      const jobs = await jobsOf(w, w.pending.id);
      expect(jobs.find((j) => j.id === data(r).job_id)?.status).toBe('queued');
    },
  },
  'trpc certificate.retryVerification (rejected)': {
    writes: true,
    call: (w, a) => trpc(a, 'mutation', 'certificate.retryVerification', { id: w.rejected.id }),
    async check(w, _a, r) {
      const jobs = await jobsOf(w, w.rejected.id);
      expect(jobs.find((j) => j.id === data(r).job_id)?.status).toBe('queued');
    },
  },
  'trpc certificate.onStatus (pending)': {
    call: (w, a) => trpcSubscribeFirst(a, 'certificate.onStatus', { id: w.pending.id }),
    check: (w, _a, r) => expect(r.json.data ?? r.json).toMatchObject({ certificate_id: w.pending.id, verification_status: 'pending' }),
  },
  'trpc public.view (pending, share link)': {
    public: true,
    call: (w, a) => trpc(a, 'query', 'public.view', { userId: A(w).holder.userId, certificateId: w.pending.id }),
    check: (w, _a, r) => expect(data(r)).toMatchObject({ id: w.pending.id, title: w.pending.title }),
  },
  'trpc public.verifyById (verified)': {
    public: true,
    call: (w, a) => trpc(a, 'query', 'public.verifyById', { certificateId: w.verified.id }),
    check: (_w, _a, r) => expect(data(r).status).toBe('verified'),
  },
  'trpc public.verifyByHash (verified)': {
    public: true,
    call: (w, a) => trpc(a, 'query', 'public.verifyByHash', { sha256: w.verified.sha256 }),
    check: (_w, _a, r) => expect(data(r).status).toBe('verified'),
  },
  'trpc public.verifyFile (verified)': {
    public: true,
    call: (w, a) => {
      const fd = new FormData();
      fd.set('file', new File([w.verified.pdf as BlobPart], 'c.pdf', { type: 'application/pdf' }));
      fd.set('certificateId', w.verified.id);
      return trpc(a, 'mutation', 'public.verifyFile', fd);
    },
    check: (_w, _a, r) => expect(data(r).status).toBe('verified'),
  },
  'trpc explorer.address (minted record)': {
    // The chain is public: its accounts and the certificate a record belongs to (as public.verifyByHash says).
    public: true,
    setup: async (w) => (await certRow(w, w.minted.id)).record_address,
    call: (_w, a, address) => trpc(a, 'query', 'explorer.address', { address }),
    check: (w, _a, r) => {
      expect(data(r).account).toMatchObject({ kind: 'certificate', type_name: 'Certificate' });
      expect(data(r).certificate).toMatchObject({ id: w.minted.id, role: 'record' });
    },
  },
  'trpc explorer.transaction (mint)': {
    public: true,
    setup: async (w) => (await certRow(w, w.minted.id)).mint_signature,
    call: (_w, a, signature) => trpc(a, 'query', 'explorer.transaction', { signature }),
    check: (_w, _a, r) => expect(data(r).instructions.map((i: { name: string }) => i.name)).toContain('mint_certificate'),
  },
  'trpc mint.links (minted)': {
    call: (w, a) => trpc(a, 'query', 'mint.links', { id: w.minted.id }),
    check: (w, _a, r) => expect(data(r)).toMatchObject({ mint_address: w.minted.mintAddress, arweave_url: w.minted.arweaveUrl }),
  },
  'trpc mint.prepare (verified)': {
    writes: true,
    call: (w, a) => trpc(a, 'mutation', 'mint.prepare', { id: w.verified.id }),
    async check(w, _a, r) {
      expect(data(r).transaction).toMatch(/^[A-Za-z0-9+/=]+$/);
      const attempt = await db(w).selectFrom('mint_attempt').selectAll().where('mint_address', '=', data(r).mint_address).executeTakeFirst();
      expect(attempt?.certificate_id).toBe(w.verified.id);
    },
  },
  'trpc mint.submit (verified, holder-signed)': {
    writes: true,
    // The holder prepares and signs; the caller submits those signed bytes.
    setup: async (w) => {
      const h = A(w).holder;
      const p = await h.browser.client.mint.prepare.mutate({ id: w.verified.id });
      return toB64(walletSign(p.transaction, h.keypair));
    },
    call: (w, a, signed) => trpc(a, 'mutation', 'mint.submit', { id: w.verified.id, signedTransaction: signed }),
    async check(w, _a, r) {
      expect((await certRow(w, w.verified.id)).nft_mint_address).toBe(data(r).mint_address);
    },
  },
  'trpc support.chat': {
    call: (_w, a) => trpc(a, 'mutation', 'support.chat', { messages: [{ role: 'user', content: 'How do I verify a certificate?' }] }),
    check: (_w, _a, r) => expect(data(r).reply.length).toBeGreaterThan(0),
  },
  'trpc support.contact': {
    writes: true,
    call: (_w, a) => trpc(a, 'mutation', 'support.contact', { name: `Contact ${a.role}`, email: 'someone@matrix.example', message: 'Hello there' }),
    async check(w, a) {
      const rows = await (db(w) as any).selectFrom('contact_message').selectAll().where('name', '=', `Contact ${a.role}`).execute();
      expect(rows).toHaveLength(1);
    },
  },
  'trpc support.feedback': {
    writes: true,
    call: (_w, a) => trpc(a, 'mutation', 'support.feedback', { message: `Feedback from ${a.role}` }),
    async check(w, a) {
      const rows = await (db(w) as any).selectFrom('feedback').selectAll().where('message', '=', `Feedback from ${a.role}`).execute();
      expect(rows).toHaveLength(1);
    },
  },
  'trpc apiKeys.create': {
    writes: true,
    call: (_w, a) => trpc(a, 'mutation', 'apiKeys.create', { name: `extra ${a.role}` }),
    async check(w, a, r) {
      const row = await db(w).selectFrom('api_key').selectAll().where('id', '=', data(r).api_key.id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ user_id: a.userId, name: `extra ${a.role}`, revoked_at: null });
    },
  },
  'trpc apiKeys.list': {
    call: (_w, a) => trpc(a, 'query', 'apiKeys.list'),
    async check(w, a, r) {
      const own = await db(w).selectFrom('api_key').select('id').where('user_id', '=', a.userId!).execute();
      expect(data(r).map((k: { id: string }) => k.id).sort()).toEqual(own.map((k) => k.id).sort());
    },
  },
  // Institutions (issue 14).
  'trpc issuer.me': {
    call: (_w, a) => trpc(a, 'query', 'issuer.me'),
    check: (_w, a, r) => {
      if (a.role === 'issuer') expect(data(r)).toMatchObject({ authority: a.wallet.address, status: 'approved', proof: { status: 'proven' } });
      else expect(data(r)).toBeNull();
    },
  },
  "trpc issuer.register (the caller's wallet)": {
    writes: true,
    call: (_w, a) => trpc(a, 'mutation', 'issuer.register', { name: `Matrix ${a.role} Academy`, domain: `${a.role.toLowerCase()}.matrix.example` }),
    check: async (w, a, r) => expect(await action(w, data(r).action_id)).toMatchObject({ kind: 'register_issuer', signer: a.wallet.address, status: 'prepared' }),
  },
  'trpc issuer.checkDomain': {
    writes: true,
    call: (_w, a) => trpc(a, 'mutation', 'issuer.checkDomain'),
    check: (_w, _a, r) => expect(data(r).proof).toMatchObject({ status: 'proven', method: 'dns' }),
  },
  'trpc issuer.issue (to the holder)': {
    writes: true,
    setup: async (w) => issueForm(w, 'Matrix Issue Row Certificate'),
    call: (_w, a, fd) => trpc(a, 'mutation', 'issuer.issue', fd),
    check: async (w, a, r) => expect(await action(w, data(r).action_id)).toMatchObject({ kind: 'issue_certificate', signer: a.wallet.address, status: 'prepared' }),
  },
  'trpc issuer.requests': {
    public: true, // the holder consented to share these requests with the institution it asked
    call: (_w, a) => trpc(a, 'query', 'issuer.requests', { status: 'all' }),
    check: (w, _a, r) => expect(data(r).map((q: { id: string }) => q.id)).toEqual(expect.arrayContaining([w.asked.requestId, w.toDecline.requestId])),
  },
  "trpc issuer.confirm (holder's request to the issuer)": {
    writes: true,
    call: (w, a) => trpc(a, 'mutation', 'issuer.confirm', { requestId: w.asked.requestId }),
    check: async (w, a, r) => expect(await action(w, data(r).action_id)).toMatchObject({ kind: 'confirm_certificate', signer: a.wallet.address, certificate_id: w.asked.id }),
  },
  "trpc issuer.decline (holder's request to the issuer)": {
    writes: true,
    call: (w, a) => trpc(a, 'mutation', 'issuer.decline', { requestId: w.toDecline.requestId, reason: 'No such record in our registry.' }),
    check: async (w) => {
      const q = await db(w).selectFrom('confirmation_request').selectAll().where('id', '=', w.toDecline.requestId).executeTakeFirstOrThrow();
      expect(q).toMatchObject({ status: 'declined', decline_reason: 'No such record in our registry.' });
    },
  },
  'trpc issuer.revoke (issued by the issuer)': {
    writes: true,
    call: (w, a) => trpc(a, 'mutation', 'issuer.revoke', { id: w.issued.id, reason: 'revoked_by_issuer', note: 'matrix' }),
    check: async (w, a, r) => expect(await action(w, data(r).action_id)).toMatchObject({ kind: 'revoke_certificate', signer: a.wallet.address, certificate_id: w.issued.id }),
  },
  "trpc issuer.revoke (verified, not the issuer's)": {
    call: (w, a) => trpc(a, 'mutation', 'issuer.revoke', { id: w.verified.id, reason: 'revoked_by_issuer' }),
  },
  'trpc issuer.submit (issuer-signed issue)': {
    writes: true,
    setup: async (w) => {
      const issuer = A(w).issuer;
      const prepared = await issuer.browser.client.issuer.issue.mutate(await issueForm(w, 'Matrix Submitted Certificate'));
      return { signedTransaction: toB64(walletSign(prepared.transaction, issuer.keypair)) };
    },
    call: (_w, a, s) => trpc(a, 'mutation', 'issuer.submit', s),
    check: async (w, _a, r) => {
      const c = await certRow(w, data(r).result.certificate_id);
      expect(c).toMatchObject({ user_id: A(w).holder.userId, verification_status: 'verified', tier: 'issuer_confirmed', issuer_authority: A(w).issuer.wallet.address });
    },
  },
  'trpc issuer.certificates': {
    public: true, // certificates this institution issued
    call: (_w, a) => trpc(a, 'query', 'issuer.certificates', {}),
    check: (w, _a, r) => expect(data(r).certificates.map((c: { id: string }) => c.id)).toContain(w.issued.id),
  },
  'trpc certificate.requestConfirmation (verified)': {
    writes: true,
    call: (w, a) => trpc(a, 'mutation', 'certificate.requestConfirmation', { id: w.requestable.id, issuer: A(w).issuer.wallet.address, consent: true }),
    check: async (w, a, r) => expect(await action(w, data(r).action_id)).toMatchObject({ kind: 'request_confirmation', signer: a.wallet.address, certificate_id: w.requestable.id }),
  },
  'trpc certificate.submitConfirmationRequest (holder-signed)': {
    writes: true,
    setup: async (w) => {
      const holder = A(w).holder;
      const prepared = await holder.browser.client.certificate.requestConfirmation.mutate({ id: w.requestable.id, issuer: A(w).issuer.wallet.address, consent: true });
      return { signedTransaction: toB64(walletSign(prepared.transaction, holder.keypair)) };
    },
    call: (_w, a, s) => trpc(a, 'mutation', 'certificate.submitConfirmationRequest', s),
    check: async (w, _a, r) => {
      const q = await db(w).selectFrom('confirmation_request').selectAll().where('id', '=', data(r).result.request_id).executeTakeFirstOrThrow();
      expect(q).toMatchObject({ certificate_id: w.requestable.id, issuer_authority: A(w).issuer.wallet.address, status: 'open' });
    },
  },
  'trpc certificate.issuersFor (verified)': {
    call: (w, a) => trpc(a, 'query', 'certificate.issuersFor', { id: w.requestable.id }),
    check: (w, _a, r) => expect(data(r).issuers[0]).toMatchObject({ authority: A(w).issuer.wallet.address, matches_claim: true, domain_proven: true }),
  },
  'trpc operator.issuers': {
    call: (_w, a) => trpc(a, 'query', 'operator.issuers', {}),
    check: (w, _a, r) => expect(data(r).map((i: { authority: string }) => i.authority)).toEqual(expect.arrayContaining([A(w).issuer.wallet.address, w.pendingInstitution])),
  },
  'trpc operator.setStatus (approve a proven institution)': {
    writes: true,
    call: (w, a) => trpc(a, 'mutation', 'operator.setStatus', { authority: w.pendingInstitution, status: 'approved' }),
    check: (_w, _a, r) => expect(data(r).status).toBe('approved'),
  },
  'trpc operator.revokePreview (verified)': {
    public: true, // the operator sees what it is about to revoke: the claims and the holder's wallet
    call: (w, a) => trpc(a, 'query', 'operator.revokePreview', { id: w.fraud.id }),
    check: (w, _a, r) => expect(data(r)).toMatchObject({ id: w.fraud.id, title: 'Matrix Fraud Certificate', verification_status: 'verified' }),
  },
  'trpc operator.revoke (verified, for fraud)': {
    public: true, // the operator names the certificate it revoked
    writes: true,
    call: (w, a) => trpc(a, 'mutation', 'operator.revoke', { id: w.fraud.id, note: 'Matrix: forged document.' }),
    check: async (w) => expect(await certRow(w, w.fraud.id)).toMatchObject({ verification_status: 'revoked', revocation_note: 'Matrix: forged document.' }),
  },
  'trpc operator.audit': {
    public: true, // the operator reads every issuer's and holder's institution actions
    call: (_w, a) => trpc(a, 'query', 'operator.audit', { limit: 100 }),
    check: (_w, _a, r) => expect(data(r).entries.map((e: { action: string }) => e.action)).toEqual(expect.arrayContaining(['issuer.check_domain', 'issuer.issue', 'holder.request_confirmation'])),
  },
  "trpc apiKeys.revoke (holder's key)": {
    writes: true,
    call: (w, a) => trpc(a, 'mutation', 'apiKeys.revoke', { id: w.victimKey.id }),
    async check(w) {
      const row = await db(w).selectFrom('api_key').selectAll().where('id', '=', w.victimKey.id).executeTakeFirstOrThrow();
      expect(row.revoked_at).not.toBeNull();
      expect((await fetch(`${w.server.url}/api/v1/certificates`, { headers: { authorization: `Bearer ${w.victimKey.key}` } })).status).toBe(401);
    },
  },
};

// REST rows: the same call on both channels.
function restSpec(channel: 'key' | 'cookie', spec: Omit<Spec, 'call'> & { call: (w: World, a: Actor, s: any, ch: 'key' | 'cookie') => Promise<Res> }): Spec {
  return { ...spec, call: (w, a, s) => spec.call(w, a, s, channel) };
}
const REST: Record<string, Omit<Spec, 'call'> & { call: (w: World, a: Actor, s: any, ch: 'key' | 'cookie') => Promise<Res> }> = {
  'REST POST /api/v1/auth/nonce': {
    call: (_w, a, _s, ch) => rest(a, ch, 'POST', '/api/v1/auth/nonce', { wallet_address: a.wallet.address }),
    check: (_w, a, r) => expect(r.json.message).toContain(a.wallet.address),
  },
  'REST POST /api/v1/auth/connect (as the holder)': {
    writes: true,
    setup: holderMessage,
    call: (_w, a, s, ch) => rest(a, ch, 'POST', '/api/v1/auth/connect', { wallet_address: s.address, message: s.message, signature: s.signature }),
    async check(w, a, r) {
      expect(r.json.user.id).toBe(a.userId);
      expect((await fetch(`${w.server.url}/api/v1/certificates`, { headers: { authorization: `Bearer ${r.json.token}` } })).status).toBe(200);
    },
  },
  'REST POST /api/v1/auth/disconnect': { call: (_w, a, _s, ch) => rest(a, ch, 'POST', '/api/v1/auth/disconnect') },
  'REST GET /api/v1/profile': {
    call: (_w, a, _s, ch) => rest(a, ch, 'GET', '/api/v1/profile'),
    check: (_w, a, r) => expect(r.json).toMatchObject({ id: a.userId, wallet_address: a.wallet.address }),
  },
  'REST POST /api/v1/profile': {
    writes: true,
    // Its own name and e-mail again (the world's certificates name it; privacy checks look for the
    // e-mail): only the caller's row is written (updated_at).
    setup: async (w, a) => (a.userId ? ((await db(w).selectFrom('user').select('email').where('id', '=', a.userId).executeTakeFirst())?.email ?? null) : null),
    call: (_w, a, email, ch) => rest(a, ch, 'POST', '/api/v1/profile', { full_name: a.name || 'Nobody', email }),
    async check(w, a, r) {
      expect(r.json).toMatchObject({ id: a.userId, full_name: a.name });
      expect((await db(w).selectFrom('user').select('full_name').where('id', '=', a.userId!).executeTakeFirstOrThrow()).full_name).toBe(a.name);
    },
  },
  'REST GET /api/v1/certificates': {
    call: (_w, a, _s, ch) => rest(a, ch, 'GET', '/api/v1/certificates'),
    async check(w, a, r) {
      const own = await db(w).selectFrom('certificate').select('id').where('user_id', '=', a.userId!).execute();
      expect(r.json.certificates.map((c: { id: string }) => c.id).sort()).toEqual(own.map((c) => c.id).sort());
    },
  },
  'REST POST /api/v1/certificates': {
    writes: true,
    setup: async (_w, a) => restForm(`REST by ${a.role}`, await makePdf(['Harbor Institute', `REST by ${a.role}`, 'Marine Robotics'])),
    call: (_w, a, fd, ch) => rest(a, ch, 'POST', '/api/v1/certificates', fd),
    async check(w, a, r) {
      expect(await certRow(w, r.json.id)).toMatchObject({ user_id: a.userId, title: `REST by ${a.role}` });
    },
  },
  'REST GET /api/v1/certificates/{id} (pending)': {
    call: (w, a, _s, ch) => rest(a, ch, 'GET', `/api/v1/certificates/${w.pending.id}`),
    check: (w, _a, r) => expect(r.json).toMatchObject({ id: w.pending.id, sha256: w.pending.sha256 }),
  },
  "REST GET /api/v1/certificates/{id} (caller's own)": {
    call: (w, a, _s, ch) => rest(a, ch, 'GET', `/api/v1/certificates/${ownOf(w, a).id}`),
    check: (w, a, r) => expect(r.json).toMatchObject({ id: ownOf(w, a).id, title: ownOf(w, a).title }),
  },
  'REST POST /api/v1/verify/{certificateId} (pending)': {
    writes: true,
    call: (w, a, _s, ch) => rest(a, ch, 'POST', `/api/v1/verify/${w.pending.id}`),
    async check(w, _a, r) {
      expect(r.json.status).toBe('pending');
      expect((await jobsOf(w, w.pending.id)).some((j) => j.status === 'queued')).toBe(true);
    },
  },
  'REST GET /api/v1/verify/status/{certificateId} (pending)': {
    call: (w, a, _s, ch) => rest(a, ch, 'GET', `/api/v1/verify/status/${w.pending.id}`),
    check: (_w, _a, r) => expect(r.json.status).toBe('pending'),
  },
  'REST GET /api/v1/verify/hash/{sha256} (verified)': {
    public: true,
    call: (w, a, _s, ch) => rest(a, ch, 'GET', `/api/v1/verify/hash/${w.verified.sha256}`),
    check: (_w, _a, r) => expect(r.json.status).toBe('verified'),
  },
  'REST POST /api/v1/mint/{certificateId} (step 1)': {
    writes: true,
    call: (w, a, _s, ch) => rest(a, ch, 'POST', `/api/v1/mint/${w.verifiedRest.id}`),
    async check(w, _a, r) {
      const attempt = await db(w).selectFrom('mint_attempt').selectAll().where('mint_address', '=', r.json.mint_address).executeTakeFirst();
      expect(attempt?.certificate_id).toBe(w.verifiedRest.id);
    },
  },
  'REST POST /api/v1/mint/{certificateId} (step 2, holder-signed)': {
    writes: true,
    setup: async (w) => {
      const h = A(w).holder;
      const p = await rest(h, 'key', 'POST', `/api/v1/mint/${w.verifiedRest.id}`);
      return toB64(walletSign(p.json.transaction, h.keypair));
    },
    call: (w, a, signed, ch) => rest(a, ch, 'POST', `/api/v1/mint/${w.verifiedRest.id}`, { signed_transaction: signed }),
    async check(w, _a, r) {
      expect((await certRow(w, w.verifiedRest.id)).nft_mint_address).toBe(r.json.mint_address);
    },
  },
};
for (const [name, spec] of Object.entries(REST)) {
  SPECS[`${name} · key`] = restSpec('key', spec);
  SPECS[`${name} · cookie`] = restSpec('cookie', spec);
}

const fileCheck = (t: (w: World, a: Actor) => { sha256: string }, disposition: 'inline' | 'attachment') => (w: World, a: Actor, r: Res) => {
  expect(sha(r.bytes)).toBe(t(w, a).sha256); // the stored file itself, byte for byte
  expect(r.headers.get('x-content-sha256')).toBe(t(w, a).sha256);
  expect(r.headers.get('content-disposition')).toMatch(new RegExp(`^${disposition};`));
};
Object.assign(SPECS, {
  'GET /files/certificates/:id (pending)': { call: (w, a) => get(a, `/files/certificates/${w.pending.id}`), check: fileCheck((w) => w.pending, 'inline') },
  'GET /files/certificates/:id?download=1 (pending)': { call: (w, a) => get(a, `/files/certificates/${w.pending.id}?download=1`), check: fileCheck((w) => w.pending, 'attachment') },
  "GET /files/certificates/:id (caller's own pending)": { call: (w, a) => get(a, `/files/certificates/${ownOf(w, a).id}`), check: fileCheck(ownOf, 'inline') },
  'GET /files/certificates/:id (rejected)': { call: (w, a) => get(a, `/files/certificates/${w.rejected.id}`), check: fileCheck((w) => w.rejected, 'inline') },
  // Institutions over REST.
  'REST GET /api/v1/issuer/certificates · key': {
    public: true, // certificates this institution issued
    call: (_w, a) => rest(a, 'key', 'GET', '/api/v1/issuer/certificates'),
    check: (w, _a, r) => expect(r.json.certificates.map((c: { id: string }) => c.id)).toContain(w.issued.id),
  },
  'REST GET /api/v1/issuer/certificates · cookie': { call: (_w, a) => rest(a, 'cookie', 'GET', '/api/v1/issuer/certificates') },
  'REST POST /api/v1/issuer/certificates (to the holder) · key': {
    writes: true,
    setup: (w) => issueForm(w, 'Matrix REST Issued Certificate', 'file'),
    call: (_w, a, fd) => rest(a, 'key', 'POST', '/api/v1/issuer/certificates', fd),
    check: async (w, a, r) => expect(await action(w, r.json.action_id)).toMatchObject({ kind: 'issue_certificate', signer: a.wallet.address }),
  },
  'REST POST /api/v1/issuer/certificates (to the holder) · cookie': {
    setup: (w) => issueForm(w, 'Matrix REST Cookie Certificate', 'file'),
    call: (_w, a, fd) => rest(a, 'cookie', 'POST', '/api/v1/issuer/certificates', fd),
  },
  'REST GET /api/v1/issuer/requests · key': {
    public: true, // the holder consented to share these requests with the institution it asked
    call: (_w, a) => rest(a, 'key', 'GET', '/api/v1/issuer/requests?status=all'),
    check: (w, _a, r) => expect(r.json.requests.map((q: { id: string }) => q.id)).toContain(w.asked.requestId),
  },
  'REST GET /api/v1/issuer/requests · cookie': { call: (_w, a) => rest(a, 'cookie', 'GET', '/api/v1/issuer/requests') },
  "REST POST /api/v1/issuer/requests/{id}/confirm (holder's request to the issuer) · key": {
    writes: true,
    call: (w, a) => rest(a, 'key', 'POST', `/api/v1/issuer/requests/${w.asked.requestId}/confirm`, {}),
    check: async (w, a, r) => expect(await action(w, r.json.action_id)).toMatchObject({ kind: 'confirm_certificate', signer: a.wallet.address, certificate_id: w.asked.id }),
  },
  "REST POST /api/v1/issuer/requests/{id}/confirm (holder's request to the issuer) · cookie": {
    call: (w, a) => rest(a, 'cookie', 'POST', `/api/v1/issuer/requests/${w.asked.requestId}/confirm`, {}),
  },
  "REST POST /api/v1/issuer/requests/{id}/decline (holder's request to the issuer) · key": {
    writes: true,
    call: (w, a) => rest(a, 'key', 'POST', `/api/v1/issuer/requests/${w.toDeclineRest.requestId}/decline`, { reason: 'Not ours.' }),
    check: async (w) => expect((await db(w).selectFrom('confirmation_request').select('status').where('id', '=', w.toDeclineRest.requestId).executeTakeFirstOrThrow()).status).toBe('declined'),
  },
  "REST POST /api/v1/issuer/requests/{id}/decline (holder's request to the issuer) · cookie": {
    call: (w, a) => rest(a, 'cookie', 'POST', `/api/v1/issuer/requests/${w.toDeclineRest.requestId}/decline`, { reason: 'Not ours.' }),
  },
  'REST POST /api/v1/issuer/certificates/{id}/revoke (issued by the issuer) · key': {
    writes: true,
    call: (w, a) => rest(a, 'key', 'POST', `/api/v1/issuer/certificates/${w.issued.id}/revoke`, { reason: 'revoked_by_issuer' }),
    check: async (w, a, r) => expect(await action(w, r.json.action_id)).toMatchObject({ kind: 'revoke_certificate', signer: a.wallet.address, certificate_id: w.issued.id }),
  },
  'REST POST /api/v1/issuer/certificates/{id}/revoke (issued by the issuer) · cookie': {
    call: (w, a) => rest(a, 'cookie', 'POST', `/api/v1/issuer/certificates/${w.issued.id}/revoke`, { reason: 'revoked_by_issuer' }),
  },
  "REST POST /api/v1/issuer/certificates/{id}/revoke (verified, not the issuer's) · key": {
    call: (w, a) => rest(a, 'key', 'POST', `/api/v1/issuer/certificates/${w.verified.id}/revoke`, { reason: 'revoked_by_issuer' }),
  },
  'REST POST /api/v1/issuer/transactions (issuer-signed issue) · key': {
    writes: true,
    setup: async (w) => {
      const issuer = A(w).issuer;
      const prepared = await issuer.browser.client.issuer.issue.mutate(await issueForm(w, 'Matrix REST Submitted Certificate'));
      return { signed_transaction: toB64(walletSign(prepared.transaction, issuer.keypair)) };
    },
    call: (_w, a, s) => rest(a, 'key', 'POST', '/api/v1/issuer/transactions', s),
    check: async (w, _a, r) => expect(await certRow(w, r.json.result.certificate_id)).toMatchObject({ user_id: A(w).holder.userId, verification_status: 'verified' }),
  },
  'REST POST /api/v1/issuer/transactions (issuer-signed issue) · cookie': {
    call: (_w, a) => rest(a, 'cookie', 'POST', '/api/v1/issuer/transactions', { signed_transaction: 'AQ==' }),
  },
  // The holder consented to share this file with the institution it asked (while the request is open).
  'GET /files/certificates/:id (pending, asked institution)': { public: true, call: (w, a) => get(a, `/files/certificates/${w.asked.id}`), check: fileCheck((w) => w.asked, 'inline') },
  'GET /files/certificates/:id (pending, asked institution) · API key': {
    public: true,
    call: async (w, a) => toRes(await fetch(`${w.server.url}/files/certificates/${w.asked.id}`, { headers: a.apiKey ? { authorization: `Bearer ${a.apiKey}` } : {} })),
    check: fileCheck((w) => w.asked, 'inline'),
  },
  'GET /files/certificates/:id (verified)': { public: true, call: (w, a) => get(a, `/files/certificates/${w.minted.id}`), check: fileCheck((w) => w.minted, 'inline') },
  'GET /files/certificates/:id?download=1 (verified)': { public: true, call: (w, a) => get(a, `/files/certificates/${w.minted.id}?download=1`), check: fileCheck((w) => w.minted, 'attachment') },
  "GET /files/photos/:userId (holder's photo)": {
    public: true,
    call: (w, a) => get(a, `/files/photos/${A(w).holder.userId}`),
    check: async (w, _a, r) => {
      expect(r.headers.get('content-type')).toMatch(/^image\//);
      const key = (await userRow(w, A(w).holder.userId!)).profile_image_key!;
      expect(sha(r.bytes)).toBe(sha((await w.server.services.blobs.get(key))!));
    },
  },
  'GET /permanent/:sha256 (minted)': {
    public: true,
    call: (w, a) => get(a, new URL(w.minted.arweaveUrl).pathname),
    check: (w, _a, r) => {
      expect(r.headers.get('content-type')).toBe('application/pdf');
      expect(sha(r.bytes)).toBe(new URL(w.minted.arweaveUrl).pathname.split('/').pop());
      expect(sha(r.bytes)).toBe(w.minted.sha256); // the permanent copy is the anchored file
    },
  },
  'GET /api/v1/verify/hash/:sha256 (pending)': {
    public: true,
    call: (w, a) => get(a, `/api/v1/verify/hash/${w.pending.sha256}`),
    check: (_w, _a, r) => expect(r.json.status).toBe('pending'),
  },
  'GET /api/dev/accounts (a browser on this machine)': {
    public: true,
    call: (_w, a) => get(a, '/api/dev/accounts'),
    check: (w, _a, r) => {
      expect(r.headers.get('cache-control')).toBe('no-store');
      // No demo data in this world: only the Operator account, which is not the server's key.
      expect(r.json.accounts.map((x: { id: string }) => x.id)).toEqual(['operator']);
      expect(r.json.accounts[0].address).not.toBe(w.server.services.chain.operator.toBase58());
    },
  },
  'GET /api/dev/accounts · X-Forwarded-For 127.0.0.1': {
    call: async (w, a) => toRes(await a.browser.fetch(`${w.server.url}/api/dev/accounts`, { headers: { 'x-forwarded-for': '127.0.0.1' } })),
  },
  'POST /rpc getAccountInfo (minted record)': {
    public: true,
    setup: async (w) => (await certRow(w, w.minted.id)).record_address,
    call: (_w, a, address) => rpc(a, 'getAccountInfo', [address, { encoding: 'base64' }]),
    check: (w, _a, r) => {
      expect(r.json.result.value.owner).toBe(w.server.services.chain.programId.toBase58());
      expect(r.text).not.toContain(w.minted.title); // titles never go on chain
    },
  },
  'POST /rpc sendTransaction (caller pays itself)': {
    writes: true,
    setup: (w, a) => transfer(w, a, a.keypair),
    call: (_w, a, s) => rpc(a, 'sendTransaction', [s.wire, { encoding: 'base64' }]),
    check: async (w, _a, _r, s: { to: string }) => expect(await balance(w, s.to)).toBe(1_000_000),
  },
  "POST /rpc sendTransaction (spends the holder's SOL)": {
    writes: true,
    setup: (w, a) => transfer(w, a, A(w).holder.keypair),
    call: (_w, a, s) => rpc(a, 'sendTransaction', [s.wire, { encoding: 'base64' }]),
    check: async (w, _a, _r, s: { to: string }) => expect(await balance(w, s.to)).toBe(1_000_000),
  },
} satisfies Record<string, Spec>);

// ---------------------------------------------------------------------------------------------

/** Row name without its target and channel: "REST GET /api/v1/certificates/{id} (pending) · key" → "REST GET /api/v1/certificates/{id}". */
const baseOf = (row: string) => row.replace(/ \(.*?\)/g, '').replace(/ · .*$/, '').replace(/\?.*$/, '');

/** The outcome a client sees: the HTTP status, or for /rpc 200 (result) / the JSON-RPC error code. */
const outcomeOf = (row: string, r: Res) => (row.startsWith('POST /rpc') && r.status === 200 ? (r.json?.error ? Number(r.json.error.code) : 200) : r.status);

/** What a role must never see of someone else (ids, titles, file hashes, e-mail, key ids). */
function secretsFor(w: World, role: Role): string[] {
  const of = (...ts: ({ id: string; title: string; sha256: string } | null)[]) => ts.flatMap((t) => (t ? [t.id, t.title, t.sha256] : []));
  const owned: Record<Role, string[]> = {
    anonymous: [],
    holder: [...of(w.pending, w.verified, w.verifiedRest, w.minted, w.rejected, w.claims, w.issued, w.requestable, w.asked, w.toDecline, w.toDeclineRest, w.fraud), w.holderEmail, ...w.holderKeyIds, A(w).holder.userId!],
    otherHolder: of(w.otherPending),
    issuer: of(w.own.issuer),
    operator: of(w.own.operator),
  };
  return ROLES.filter((r) => r !== role).flatMap((r) => owned[r]);
}

const observed = new Map<string, Partial<Record<Role, number | string>>>();
// Denied cells run first and the holder's (own resource) last, so a mutation's effect never masks a denial.
const ORDER: Role[] = ['anonymous', 'otherHolder', 'issuer', 'operator', 'holder'];
let world: World;

beforeAll(async () => {
  world = await buildWorld();
}, 120_000);

afterAll(async () => {
  if (process.env.AUTHZ_PRINT === '1') {
    const lines = [`| row | ${ROLES.join(' | ')} |`, `|---|${ROLES.map(() => '---').join('|')}|`];
    for (const [row, exp] of MATRIX) {
      const got = observed.get(row) ?? {};
      lines.push(`| ${row.replaceAll('|', '\\|')} | ${ROLES.map((r) => (got[r] === undefined ? `${exp[r]} (not run)` : got[r] === exp[r] ? String(exp[r]) : `**${got[r]}** ≠ ${exp[r]}`)).join(' | ')} |`);
    }
    console.log(`\nAuthorization matrix (expected = observed unless marked)\n\n${lines.join('\n')}\n`);
  }
  await world?.close();
});

describe('coverage', () => {
  it('every tRPC procedure has a row', () => {
    const procedures = Object.keys((appRouter._def as unknown as { procedures: Record<string, unknown> }).procedures);
    expect(procedures.length).toBeGreaterThan(20);
    const rows = new Set(MATRIX.map(([r]) => baseOf(r)));
    expect(procedures.filter((p) => !rows.has(`trpc ${p}`))).toEqual([]);
  });

  it('every REST endpoint has a row with an API key and one with a cookie', () => {
    const rows = MATRIX.map(([r]) => r);
    const missing = ENDPOINTS.flatMap((ep) =>
      (['key', 'cookie'] as const).filter((ch) => !rows.some((r) => baseOf(r) === `REST ${ep.method} ${ep.path}` && r.endsWith(` · ${ch}`))).map((ch) => `${ep.method} ${ep.path} · ${ch}`),
    );
    expect(missing).toEqual([]);
  });

  it('the HTTP routes have rows, and every row has a call', () => {
    const bases = new Set(MATRIX.map(([r]) => baseOf(r)));
    for (const route of ['GET /files/certificates/:id', 'GET /files/photos/:userId', 'GET /permanent/:sha256', 'GET /api/v1/verify/hash/:sha256', 'GET /api/dev/accounts', 'POST /rpc getAccountInfo', 'POST /rpc sendTransaction']) {
      expect(bases.has(route), route).toBe(true);
    }
    expect(MATRIX.some(([r]) => r.startsWith('GET /files/certificates/:id?download=1 (pending)'))).toBe(true);
    expect(MATRIX.some(([r]) => r.startsWith('GET /files/certificates/:id?download=1 (verified)'))).toBe(true);
    expect(MATRIX.map(([r]) => r).filter((r) => !SPECS[r])).toEqual([]);
    expect(Object.keys(SPECS).filter((r) => !MATRIX.some(([m]) => m === r))).toEqual([]);
    expect(new Set(MATRIX.map(([r]) => r)).size).toBe(MATRIX.length);
  });
});

describe.each(MATRIX)('%s', (row, expected) => {
  it.each(ORDER.map((role) => [role, expected[role]] as const))('%s → %s', async (role, want) => {
    const spec = SPECS[row];
    expect(spec, `no call for ${row}`).toBeTruthy();
    const w = world;
    const a = w.actors[role];
    const s = spec.setup ? await spec.setup(w, a) : undefined;
    const before = await snapshot(w.server);
    const res = await spec.call(w, a, s);
    const got = outcomeOf(row, res);
    observed.set(row, { ...observed.get(row), [role]: got });
    expect(got, `${row} as ${role}: ${res.text.slice(0, 300)}`).toBe(want);

    const allowed = row.startsWith('POST /rpc') ? got === 200 : got >= 200 && got < 300;
    if (!spec.public || !allowed) {
      // Only public-by-design answers may carry another user's data; denials never do.
      const visible = `${[...res.headers].map(([k, v]) => `${k}: ${v}`).join('\n')}\n${res.text}`;
      const leaked = secretsFor(w, role).filter((x) => visible.includes(x));
      expect(leaked, `${row} as ${role} leaked`).toEqual([]);
    }
    if (allowed) await spec.check?.(w, a, res, s);
    if (!allowed || !spec.writes) {
      const after = await snapshot(w.server);
      expect(after.footprint).toEqual(before.footprint);
      for (const t of Object.keys(before.tables)) expect(after.tables[t], `${row} as ${role} wrote to ${t}`).toBe(before.tables[t]);
    }
    if (row.startsWith('POST /rpc sendTransaction') && !allowed) expect(await balance(w, (s as { to: string }).to)).toBe(0);
  });
});
