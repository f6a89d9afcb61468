// Sign-in abuse over real HTTP: per-client and per-wallet rate limits on auth.nonce / auth.signIn and
// their REST twins (one limit, whichever interface is used), a moved clock instead of sleeping,
// replayed and expired nonces, a signature from another wallet; and the support forms' limits.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server } from '../src/app';
import { loadConfig } from '../src/config';
import { issueNonce, type SignInLimiter } from '../src/services/auth';
import { newWallet, startTestServer, tmpDataDir } from './helpers';

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: any;
}

let server: Server;
let limiter: SignInLimiter;
let clock = Date.now();

/** A POST from a chosen loopback address (each address is a different client to the server). */
function postFrom(from: string, path: string, input: unknown, raw?: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${server.url}${path}`, { method: 'POST', localAddress: from, headers: { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? JSON.parse(text) : null }));
    });
    req.on('error', reject);
    req.end(raw ?? JSON.stringify(input));
  });
}
const trpc = (from: string, proc: string, input: unknown) => postFrom(from, `/trpc/${proc}`, input);
const errorOf = (r: Reply) => ({ status: r.status, code: r.body?.error?.data?.code, message: r.body?.error?.message });

async function nonceCount() {
  const r = await server.services.db.selectFrom('sign_in_nonce').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(r.n);
}
async function sessionCount() {
  const r = await server.services.db.selectFrom('session').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Moves the limiter's clock: a refill is proven without waiting for it. */
const advance = (ms: number) => {
  clock += ms;
};
/** A fresh window for every test: all buckets full again. */
const freshWindow = () => advance(10 * 60_000);

beforeAll(async () => {
  // 3 per client per 60 s (a token every 20 s), 2 nonces per wallet: small numbers, same code path as the defaults.
  server = await startTestServer(tmpDataDir(), {
    ATTESTA_WORKER: 'false',
    SIGN_IN_RATE_LIMIT_PER_IP: '3',
    SIGN_IN_RATE_LIMIT_PER_WALLET: '2',
    SIGN_IN_RATE_LIMIT_WINDOW_SEC: '60',
    API_RATE_LIMIT_PER_MIN: '1000',
  });
  limiter = server.services.signInLimiter;
  limiter.now = () => clock;
});
afterAll(async () => {
  await server?.close();
});

describe('sign-in rate limits', () => {
  it('auth.nonce: 3 per client, then 429 with the wait in seconds; nothing stored for the refused one', async () => {
    freshWindow();
    for (let i = 0; i < 3; i++) expect((await trpc('127.0.0.1', 'auth.nonce', { address: newWallet().address })).status).toBe(200);
    const rows = await nonceCount();
    const r = await trpc('127.0.0.1', 'auth.nonce', { address: newWallet().address });
    expect(errorOf(r)).toEqual({ status: 429, code: 'TOO_MANY_REQUESTS', message: 'Too many sign-in attempts. Try again in 20 seconds.' });
    expect(r.headers['retry-after']).toBe('20');
    expect(await nonceCount()).toBe(rows);

    // Other clients are unaffected.
    expect((await trpc('127.0.0.2', 'auth.nonce', { address: newWallet().address })).status).toBe(200);
    expect((await trpc('127.0.0.3', 'auth.nonce', { address: newWallet().address })).status).toBe(200);
  });

  it('the bucket refills with the clock: one token per 20 s, all three after the window', async () => {
    freshWindow();
    for (let i = 0; i < 3; i++) expect((await trpc('127.0.0.1', 'auth.nonce', { address: newWallet().address })).status).toBe(200);
    expect((await trpc('127.0.0.1', 'auth.nonce', { address: newWallet().address })).status).toBe(429);
    advance(5_000);
    expect(errorOf(await trpc('127.0.0.1', 'auth.nonce', { address: newWallet().address })).message).toBe('Too many sign-in attempts. Try again in 15 seconds.');
    advance(15_000);
    expect((await trpc('127.0.0.1', 'auth.nonce', { address: newWallet().address })).status).toBe(200);
    expect((await trpc('127.0.0.1', 'auth.nonce', { address: newWallet().address })).status).toBe(429);
    advance(60_000);
    for (let i = 0; i < 3; i++) expect((await trpc('127.0.0.1', 'auth.nonce', { address: newWallet().address })).status).toBe(200);
    expect((await trpc('127.0.0.1', 'auth.nonce', { address: newWallet().address })).status).toBe(429);
  });

  it('malformed requests count too (the limit is checked before the input is read)', async () => {
    freshWindow();
    for (let i = 0; i < 3; i++) expect(errorOf(await trpc('127.0.0.1', 'auth.nonce', { address: 'not-a-wallet' })).status).toBe(400);
    expect((await trpc('127.0.0.1', 'auth.nonce', { address: newWallet().address })).status).toBe(429);
  });

  // Was "2 per window whichever client asks": that bucket was anyone's to empty (see the next test),
  // so the wallet limit is now per (wallet, client).
  it('auth.nonce per wallet: 2 per window from one client; another wallet from that client is fine', async () => {
    freshWindow();
    const w = newWallet();
    expect((await trpc('127.0.0.1', 'auth.nonce', { address: w.address })).status).toBe(200);
    expect((await trpc('127.0.0.1', 'auth.nonce', { address: w.address })).status).toBe(200);
    const r = await trpc('127.0.0.1', 'auth.nonce', { address: w.address });
    expect(errorOf(r)).toEqual({ status: 429, code: 'TOO_MANY_REQUESTS', message: 'Too many sign-in attempts for this wallet. Try again in 30 seconds.' });
    // 20 s later the client has a token again (3 per 60 s) but this wallet's bucket not yet (2 per 60 s):
    // another wallet from that same client is fine.
    advance(20_000);
    expect((await trpc('127.0.0.1', 'auth.nonce', { address: newWallet().address })).status).toBe(200);
  });

  it("a stranger's nonce requests for the owner's wallet do not lock the owner out (tRPC and REST)", async () => {
    freshWindow();
    const owner = newWallet();
    // Mallory asks for the owner's address from two clients until each of her buckets is empty…
    for (const from of ['127.0.0.20', '127.0.0.21']) {
      expect((await trpc(from, 'auth.nonce', { address: owner.address })).status).toBe(200);
      expect((await postFrom(from, '/api/v1/auth/nonce', { wallet_address: owner.address })).status).toBe(200);
      expect(errorOf(await trpc(from, 'auth.nonce', { address: owner.address })).status).toBe(429);
      expect((await postFrom(from, '/api/v1/auth/nonce', { wallet_address: owner.address })).status).toBe(429);
    }
    // …and the owner, on their own connection, still gets a message and signs in, on both interfaces.
    const n = await trpc('127.0.0.22', 'auth.nonce', { address: owner.address });
    expect(n.status).toBe(200);
    const { message } = n.body.result.data;
    const signedIn = await trpc('127.0.0.22', 'auth.signIn', { address: owner.address, message, signature: owner.sign(message) });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.result.data.user.wallet_address).toBe(owner.address);
    const rest = await postFrom('127.0.0.23', '/api/v1/auth/nonce', { wallet_address: owner.address });
    expect(rest.status).toBe(200);
    const connect = await postFrom('127.0.0.23', '/api/v1/auth/connect', { wallet_address: owner.address, message: rest.body.message, signature: owner.sign(rest.body.message) });
    expect(connect.status).toBe(200);
    expect(connect.body.user.wallet_address).toBe(owner.address);
  });

  it('the per-client limit still holds across wallets: a client naming many wallets gets 429 after 3', async () => {
    freshWindow();
    const victim = newWallet();
    for (let i = 0; i < 3; i++) expect((await trpc('127.0.0.24', 'auth.nonce', { address: newWallet().address })).status).toBe(200);
    const rows = await nonceCount();
    expect(errorOf(await trpc('127.0.0.24', 'auth.nonce', { address: victim.address }))).toEqual({
      status: 429,
      code: 'TOO_MANY_REQUESTS',
      message: 'Too many sign-in attempts. Try again in 20 seconds.',
    });
    expect(await nonceCount()).toBe(rows);
    // And bad signatures for one wallet are capped per client whatever the wallet (3 here), so trying many signatures needs many clients.
    const { message } = (await trpc('127.0.0.25', 'auth.nonce', { address: victim.address })).body.result.data;
    for (let i = 0; i < 3; i++) expect((await trpc('127.0.0.26', 'auth.signIn', { address: victim.address, message, signature: newWallet().sign(message) })).status).toBe(401);
    expect((await trpc('127.0.0.26', 'auth.signIn', { address: victim.address, message, signature: newWallet().sign(message) })).status).toBe(429);
    // The stranger's failures did not burn the victim's nonce nor their ability to sign in.
    expect((await trpc('127.0.0.25', 'auth.signIn', { address: victim.address, message, signature: victim.sign(message) })).status).toBe(200);
  });

  it('auth.signIn: its own bucket; failed attempts count; another client still signs in', async () => {
    freshWindow();
    const w = newWallet();
    const { message } = (await trpc('127.0.0.1', 'auth.nonce', { address: w.address })).body.result.data;
    const wrong = newWallet().sign(message);
    for (let i = 0; i < 3; i++) expect(errorOf(await trpc('127.0.0.1', 'auth.signIn', { address: w.address, message, signature: wrong })).status).toBe(401);
    const sessions = await sessionCount();
    const good = { address: w.address, message, signature: w.sign(message) };
    expect(errorOf(await trpc('127.0.0.1', 'auth.signIn', good))).toEqual({ status: 429, code: 'TOO_MANY_REQUESTS', message: 'Too many sign-in attempts. Try again in 20 seconds.' });
    expect(await sessionCount()).toBe(sessions);
    // The refused attempt did not consume the nonce: the same signed message works from another client.
    const ok = await trpc('127.0.0.2', 'auth.signIn', good);
    expect(ok.status).toBe(200);
    expect(ok.body.result.data.user.wallet_address).toBe(w.address);
    expect(ok.headers['set-cookie']?.[0]).toMatch(/^attesta_session=/);
  });

  it('REST /api/v1/auth/nonce and /auth/connect share the limit with tRPC (one product, one limit)', async () => {
    freshWindow();
    const w = newWallet();
    expect((await trpc('127.0.0.1', 'auth.nonce', { address: newWallet().address })).status).toBe(200);
    expect((await trpc('127.0.0.1', 'auth.nonce', { address: newWallet().address })).status).toBe(200);
    const n = await postFrom('127.0.0.1', '/api/v1/auth/nonce', { wallet_address: w.address });
    expect(n.status).toBe(200);
    const refused = await postFrom('127.0.0.1', '/api/v1/auth/nonce', { wallet_address: newWallet().address });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: { code: 'rate_limited', message: 'Too many sign-in attempts. Try again in 20 seconds.' } });
    expect(refused.headers['retry-after']).toBe('20');

    for (let i = 0; i < 3; i++) {
      const bad = await postFrom('127.0.0.1', '/api/v1/auth/connect', { wallet_address: w.address, message: n.body.message, signature: newWallet().sign(n.body.message) });
      expect(bad.status).toBe(401);
    }
    const connect = await postFrom('127.0.0.1', '/api/v1/auth/connect', { wallet_address: w.address, message: n.body.message, signature: w.sign(n.body.message) });
    expect(connect.status).toBe(429);
    expect(connect.body.error.code).toBe('rate_limited');
    // Per (wallet, client) on REST too, shared with tRPC: two nonces for one wallet from one client, the third refused.
    freshWindow();
    const v = newWallet();
    expect((await postFrom('127.0.0.4', '/api/v1/auth/nonce', { wallet_address: v.address })).status).toBe(200);
    expect((await trpc('127.0.0.4', 'auth.nonce', { address: v.address })).status).toBe(200);
    expect((await postFrom('127.0.0.4', '/api/v1/auth/nonce', { wallet_address: v.address })).body.error.message).toBe(
      'Too many sign-in attempts for this wallet. Try again in 30 seconds.',
    );
  });
});

describe('sign-in replay and forgery', () => {
  it('a used nonce is refused the second time, and no second session is opened', async () => {
    freshWindow();
    const w = newWallet();
    const { message } = (await trpc('127.0.0.1', 'auth.nonce', { address: w.address })).body.result.data;
    const input = { address: w.address, message, signature: w.sign(message) };
    expect((await trpc('127.0.0.1', 'auth.signIn', input)).status).toBe(200);
    const sessions = await sessionCount();
    const replay = await trpc('127.0.0.2', 'auth.signIn', input);
    expect(errorOf(replay)).toEqual({ status: 401, code: 'UNAUTHORIZED', message: 'This sign-in request was already used.' });
    expect(replay.headers['set-cookie']).toBeUndefined();
    expect(await sessionCount()).toBe(sessions);
    // The same replay on REST.
    const rest = await postFrom('127.0.0.2', '/api/v1/auth/connect', { wallet_address: w.address, message, signature: input.signature });
    expect(rest.status).toBe(401);
    expect(rest.body.error.message).toBe('This sign-in request was already used.');
  });

  it('an expired nonce is refused, even with a valid signature', async () => {
    freshWindow();
    const w = newWallet();
    const host = new URL(server.url).host;
    // Issued six minutes ago (valid five) for exactly this server's host, as auth.nonce would have.
    const { message } = await issueNonce(server.services.db, { address: w.address, domain: host, uri: `http://${host}`, now: Date.now() - 6 * 60_000 });
    const sessions = await sessionCount();
    const r = await trpc('127.0.0.1', 'auth.signIn', { address: w.address, message, signature: w.sign(message) });
    expect(errorOf(r)).toEqual({ status: 401, code: 'UNAUTHORIZED', message: 'This sign-in request has expired. Please try again.' });
    expect(await sessionCount()).toBe(sessions);
  });

  it("another wallet's signature is refused either way, and leaves the nonce for its owner", async () => {
    freshWindow();
    const alice = newWallet();
    const mallory = newWallet();
    const { message } = (await trpc('127.0.0.1', 'auth.nonce', { address: alice.address })).body.result.data;
    // Mallory signs Alice's message and claims to be Alice…
    expect(errorOf(await trpc('127.0.0.2', 'auth.signIn', { address: alice.address, message, signature: mallory.sign(message) }))).toEqual({
      status: 401,
      code: 'UNAUTHORIZED',
      message: 'Signature does not match the address',
    });
    // …or claims to be herself with Alice's message.
    expect(errorOf(await trpc('127.0.0.2', 'auth.signIn', { address: mallory.address, message, signature: mallory.sign(message) })).message).toBe(
      'The signed message does not match the sign-in request.',
    );
    const users = await server.services.db.selectFrom('user').select('wallet_address').where('wallet_address', '=', mallory.address).execute();
    expect(users).toEqual([]);
    // Alice's nonce was not burnt by the forgeries.
    expect((await trpc('127.0.0.1', 'auth.signIn', { address: alice.address, message, signature: alice.sign(message) })).status).toBe(200);
  });
});

describe('configuration', () => {
  it('defaults a real product would use, overridable through the environment', () => {
    expect(loadConfig({}).limits.signIn).toEqual({ perIp: 60, perWallet: 10, windowMs: 600_000 });
    expect(loadConfig({ SIGN_IN_RATE_LIMIT_PER_IP: '1000000', SIGN_IN_RATE_LIMIT_WINDOW_SEC: '1' }).limits.signIn).toEqual({ perIp: 1_000_000, perWallet: 10, windowMs: 1000 });
  });

  it('an invalid value stops the server from starting, naming the variable', async () => {
    await expect(startTestServer(tmpDataDir(), { SIGN_IN_RATE_LIMIT_PER_IP: '0' })).rejects.toThrow(/SIGN_IN_RATE_LIMIT_PER_IP must be a positive integer/);
    await expect(startTestServer(tmpDataDir(), { SIGN_IN_RATE_LIMIT_WINDOW_SEC: 'soon' })).rejects.toThrow(/SIGN_IN_RATE_LIMIT_WINDOW_SEC/);
  });
});

describe('contact and feedback limits', () => {
  const contact = { name: 'Eve', email: 'eve@example.com', subject: 'Hi', inquiryType: 'support', priority: 'normal', message: 'hello there' };

  it('contact: 5 per client, then 429; feedback has its own bucket; another client is unaffected', async () => {
    for (let i = 0; i < 5; i++) expect((await trpc('127.0.0.7', 'support.contact', { ...contact, message: `m${i}` })).status).toBe(200);
    const r = await trpc('127.0.0.7', 'support.contact', contact);
    expect(errorOf(r)).toEqual({ status: 429, code: 'TOO_MANY_REQUESTS', message: expect.stringMatching(/^Too many messages\. Please wait/) });
    expect((await trpc('127.0.0.8', 'support.contact', contact)).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await trpc('127.0.0.7', 'support.feedback', { message: `f${i}` })).status).toBe(200);
    expect(errorOf(await trpc('127.0.0.7', 'support.feedback', { message: 'one more' })).status).toBe(429);
  });

  it('the REST API has no contact or feedback route, so there is no unlimited way around them', async () => {
    for (const p of ['/api/v1/contact', '/api/v1/feedback', '/api/v1/support/contact']) {
      const r = await postFrom('127.0.0.9', p, contact);
      expect(r.status).toBe(404);
      expect(r.body.error.code).toBe('not_found');
    }
  });
});
