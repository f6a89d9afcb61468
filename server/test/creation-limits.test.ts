// Certificate creation limits (red-team item 5: 30 certificates in 912 ms from one wallet, each
// anchored at the operator's expense). Over real HTTP, on tRPC certificate.create and REST POST
// /api/v1/certificates (one limit, whichever interface is used): the per-wallet and per-address pace,
// the daily anchoring budget counted from the database (across a restart), 429 + Retry-After + what
// to do, and a refused request writes nothing — no row, no blob, no chain transaction. The limiter's
// clock is moved instead of waiting.
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { Server } from '../src/app';
import { TokenBuckets } from '../src/lib/rate-limit';
import { closeDocumentReaders } from '../src/services/documents';
import { footprint, makePdf, nameWallet, newWallet, startTestServer, tmpDataDir } from './helpers';

const DAY_MS = 24 * 60 * 60_000;
const claims = { title: 'Certificate of Completion', institution_name: 'Quota College', program_name: 'Budgeting', issue_date: '2025-06-01' };
const dirs: string[] = [];
const servers: Server[] = [];
afterAll(async () => {
  for (const s of servers) await s.close().catch(() => undefined);
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** A server of its own (TRUST_PROXY: each test names its client address in X-Forwarded-For); worker off, so only creates write. */
async function serverWith(env: Record<string, string> = {}, dir = tmpDataDir()) {
  if (!dirs.includes(dir)) dirs.push(dir);
  const server = await startTestServer(dir, { ATTESTA_WORKER: 'false', TRUST_PROXY: 'true', SIGN_IN_RATE_LIMIT_PER_IP: '1000000', ...env });
  servers.push(server);
  return server;
}

interface Holder {
  wallet: ReturnType<typeof newWallet>;
  cookie: string;
  token: string;
  userId: string;
}

/** Signs a wallet in twice: the web app's cookie session (tRPC) and a REST connect token. */
async function holder(server: Server, wallet = newWallet()): Promise<Holder> {
  const post = (path: string, body: unknown) => fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const n = (await (await post('/trpc/auth.nonce', { address: wallet.address })).json()).result.data;
  const res = await post('/trpc/auth.signIn', { address: wallet.address, message: n.message, signature: wallet.sign(n.message) });
  const cookie = res.headers.getSetCookie()[0].split(';')[0];
  const userId = (await res.json()).result.data.user.id;
  const rn = await (await post('/api/v1/auth/nonce', { wallet_address: wallet.address })).json();
  const rc = await (await post('/api/v1/auth/connect', { wallet_address: wallet.address, message: rn.message, signature: wallet.sign(rn.message) })).json();
  await nameWallet(server.url, wallet);
  return { wallet, cookie, token: rc.token, userId };
}

interface Answer {
  status: number;
  retryAfter: string | null;
  /** tRPC: the error's message; REST: error.message. */
  message?: string;
  code?: string;
  id?: string;
}

async function form(file?: Uint8Array, fileField = 'certificate_file') {
  const fd = new FormData();
  for (const [k, v] of Object.entries(claims)) fd.set(k, v);
  fd.set(fileField, new File([(file ?? (await makePdf([claims.institution_name, claims.title, claims.program_name]))) as BlobPart], 'c.pdf', { type: 'application/pdf' }));
  return fd;
}

/** tRPC certificate.create from `ip`, as the web app sends it. */
async function createTrpc(server: Server, h: Holder, ip: string, file?: Uint8Array): Promise<Answer> {
  const res = await fetch(`${server.url}/trpc/certificate.create`, { method: 'POST', headers: { cookie: h.cookie, 'x-forwarded-for': ip }, body: await form(file) });
  const body = await res.json();
  return { status: res.status, retryAfter: res.headers.get('retry-after'), message: body.error?.message, code: body.error?.data?.code, id: body.result?.data?.id };
}

/** REST POST /api/v1/certificates from `ip`, as an integration sends it. */
async function createRest(server: Server, h: Holder, ip: string): Promise<Answer> {
  const res = await fetch(`${server.url}/api/v1/certificates`, { method: 'POST', headers: { authorization: `Bearer ${h.token}`, 'x-forwarded-for': ip }, body: await form(undefined, 'file') });
  const body = await res.json();
  return { status: res.status, retryAfter: res.headers.get('retry-after'), message: body.error?.message, code: body.error?.code, id: body.id };
}

/** Freezes the creation limiter's clock (it also dates the daily budget); returns a setter. */
function clockOf(server: Server, start = Date.now()) {
  let now = start;
  server.services.creationLimiter.now = () => now;
  return (t: number) => {
    now = t;
  };
}

describe('certificate creation limits (defaults)', () => {
  it('the attack: 30 creates at once from one wallet → 20 added, 10 refused with 429, Retry-After and when to try again; the refused wrote nothing', async () => {
    const server = await serverWith();
    clockOf(server);
    const h = await holder(server);
    const before = await footprint(server);
    const pdfs = await Promise.all(Array.from({ length: 30 }, (_, i) => makePdf([claims.institution_name, claims.title, claims.program_name, `copy ${i}`])));
    const answers = await Promise.all(pdfs.map((pdf) => createTrpc(server, h, '198.51.100.1', pdf)));

    const added = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status !== 200);
    expect(added).toHaveLength(20);
    expect(refused).toHaveLength(10);
    for (const r of refused) {
      expect(r).toEqual({
        status: 429,
        code: 'TOO_MANY_REQUESTS',
        retryAfter: '30',
        message: 'You are adding certificates too quickly: at most 20 every 10 minutes from one wallet. You can add another in 30 seconds.',
        id: undefined,
      });
    }
    // Exactly the 20 added certificates: rows, jobs, blobs, anchor transactions, on-chain records.
    const after = await footprint(server);
    expect(after).toEqual({ ...before, certificates: before.certificates + 20, jobs: before.jobs + 20, blobs: before.blobs + 20, chainTxs: before.chainTxs + 20, chainCertificates: before.chainCertificates + 20 });
  });

  it('the daily budget comes next: the 21st in 24 hours is refused even when the pace allows it', async () => {
    const server = await serverWith({ CERTIFICATE_RATE_LIMIT_PER_WALLET: '1000' });
    const h = await holder(server);
    for (let i = 0; i < 20; i++) expect((await createTrpc(server, h, '198.51.100.2')).status).toBe(200);
    const r = await createTrpc(server, h, '198.51.100.2');
    expect(r.status).toBe(429);
    expect(r.message).toMatch(/^You have added 20 certificates in the last 24 hours, the daily limit\. You can add more after \d\d:\d\d UTC (today|tomorrow)\.$/);
  });
});

describe('daily anchoring budget', () => {
  it('counts the last 24 hours from the database: refused with the time it frees up, still after a restart, allowed once the oldest is a day old', async () => {
    const dir = tmpDataDir();
    let server = await serverWith({ ATTESTA_DAILY_ANCHORS_PER_WALLET: '3', CERTIFICATE_RATE_LIMIT_PER_WALLET: '1000' }, dir);
    const h = await holder(server);
    for (let i = 0; i < 3; i++) expect((await createTrpc(server, h, '198.51.100.3')).status).toBe(200);
    const rows = await server.services.db.selectFrom('certificate').select('created_at').where('user_id', '=', h.userId).orderBy('created_at').execute();
    const oldest = Date.parse(rows[0].created_at);

    // 23 hours after the first one: an hour to go.
    clockOf(server, oldest + 23 * 3_600_000);
    const before = await footprint(server);
    const freeAt = new Date(Math.ceil((oldest + DAY_MS) / 60_000) * 60_000); // rounded up to the minute
    const day = freeAt.toISOString().slice(0, 10) === new Date(oldest + 23 * 3_600_000).toISOString().slice(0, 10) ? 'today' : 'tomorrow';
    const expected = `You have added 3 certificates in the last 24 hours, the daily limit. You can add more after ${freeAt.toISOString().slice(11, 16)} UTC ${day}.`;
    expect(await createTrpc(server, h, '198.51.100.3')).toEqual({ status: 429, code: 'TOO_MANY_REQUESTS', retryAfter: '3600', message: expected, id: undefined });
    // The same budget on REST (the same wallet through its connect token), in the REST error shape.
    expect(await createRest(server, h, '198.51.100.3')).toEqual({ status: 429, code: 'rate_limited', retryAfter: '3600', message: expected, id: undefined });
    expect(await footprint(server)).toEqual(before);

    // A restart forgets the buckets, not the budget: the rows are what counts.
    await server.close();
    server = await serverWith({ ATTESTA_DAILY_ANCHORS_PER_WALLET: '3', CERTIFICATE_RATE_LIMIT_PER_WALLET: '1000' }, dir);
    const setClock2 = clockOf(server, oldest + 23 * 3_600_000);
    expect(await createTrpc(server, h, '198.51.100.3')).toMatchObject({ status: 429, retryAfter: '3600', message: expected });

    // A day after the first: one slot free, then full again (the 2nd, 3rd and this one in the window).
    setClock2(oldest + DAY_MS + 1);
    expect((await createTrpc(server, h, '198.51.100.3')).status).toBe(200);
    expect((await createTrpc(server, h, '198.51.100.3')).status).toBe(429);
  });

  it('holds under concurrent requests: 8 at once with 3 left → exactly 3 added, the rest refused, nothing written for them', async () => {
    const server = await serverWith({ ATTESTA_DAILY_ANCHORS_PER_WALLET: '3', CERTIFICATE_RATE_LIMIT_PER_WALLET: '1000' });
    const h = await holder(server);
    const before = await footprint(server);
    const pdfs = await Promise.all(Array.from({ length: 8 }, (_, i) => makePdf([claims.institution_name, claims.title, claims.program_name, `race ${i}`])));
    // tRPC and REST mixed: the budget is one, whichever interface.
    const answers = await Promise.all(pdfs.map((pdf, i) => (i % 2 ? createRest(server, h, '198.51.100.4') : createTrpc(server, h, '198.51.100.4', pdf))));
    expect(answers.filter((a) => a.status === 200 || a.status === 201)).toHaveLength(3);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(5);
    for (const r of refused) expect(r.message).toMatch(/^You have added 3 certificates in the last 24 hours, the daily limit\./);
    expect(await footprint(server)).toEqual({ ...before, certificates: before.certificates + 3, jobs: before.jobs + 3, blobs: before.blobs + 3, chainTxs: before.chainTxs + 3, chainCertificates: before.chainCertificates + 3 });
  });
});

describe('pace per wallet and per client address', () => {
  it('per address: fresh wallets from one address share its limit; another address is not affected', async () => {
    const server = await serverWith({ CERTIFICATE_RATE_LIMIT_PER_IP: '2' });
    clockOf(server);
    const [w1, w2, w3] = [await holder(server), await holder(server), await holder(server)];
    expect((await createTrpc(server, w1, '203.0.113.9')).status).toBe(200);
    expect((await createTrpc(server, w2, '203.0.113.9')).status).toBe(200);
    const before = await footprint(server);
    expect(await createTrpc(server, w3, '203.0.113.9')).toEqual({
      status: 429,
      code: 'TOO_MANY_REQUESTS',
      retryAfter: '300',
      message: 'Too many certificates are being added from your network: at most 2 every 10 minutes. You can add another in 5 minutes.',
      id: undefined,
    });
    expect(await footprint(server)).toEqual(before);
    expect((await createTrpc(server, w3, '203.0.113.10')).status).toBe(200);
  });

  it('per wallet across tRPC and REST, refilled over the window; refused files and duplicates do not use it up', async () => {
    const server = await serverWith({ CERTIFICATE_RATE_LIMIT_PER_WALLET: '2', CERTIFICATE_RATE_LIMIT_WINDOW_SEC: '60' });
    const t0 = Date.now();
    const setClock = clockOf(server, t0);
    const h = await holder(server);
    // Two refusals (a damaged file; a duplicate): no certificate, so no share of the pace.
    expect((await createTrpc(server, h, '192.0.2.1', new Uint8Array([0x25, 0x50]))).status).toBe(400);
    const pdf = await makePdf([claims.institution_name, claims.title, claims.program_name]);
    expect((await createTrpc(server, h, '192.0.2.1', pdf)).status).toBe(200);
    expect((await createTrpc(server, h, '192.0.2.1', pdf)).status).toBe(409);
    expect((await createRest(server, h, '192.0.2.1')).status).toBe(201);

    const before = await footprint(server);
    const refusal = 'You are adding certificates too quickly: at most 2 every minute from one wallet. You can add another in 30 seconds.';
    expect(await createRest(server, h, '192.0.2.1')).toEqual({ status: 429, code: 'rate_limited', retryAfter: '30', message: refusal, id: undefined });
    expect(await createTrpc(server, h, '192.0.2.2')).toEqual({ status: 429, code: 'TOO_MANY_REQUESTS', retryAfter: '30', message: refusal, id: undefined });
    expect(await footprint(server)).toEqual(before);

    setClock(t0 + 20_000);
    expect((await createTrpc(server, h, '192.0.2.1')).retryAfter).toBe('10');
    setClock(t0 + 30_000); // one token back
    expect((await createTrpc(server, h, '192.0.2.1')).status).toBe(200);
    expect((await createTrpc(server, h, '192.0.2.1')).status).toBe(429);
  });
});

describe('refused uploads (each read and parsed before its refusal) are paced apart', () => {
  const damaged = new Uint8Array(Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\n', 'latin1'));

  it('per wallet: refused files and duplicates use refusals, not the creation pace; over them 429 before any byte is read', async () => {
    const server = await serverWith({ REFUSED_UPLOAD_LIMIT_PER_WALLET: '2', CERTIFICATE_RATE_LIMIT_WINDOW_SEC: '60' });
    const t0 = Date.now();
    const setClock = clockOf(server, t0);
    const h = await holder(server);
    const pdf = await makePdf([claims.institution_name, claims.title, claims.program_name]);
    // Added certificates use no refusal: three in a row.
    for (let i = 0; i < 3; i++) expect((await createTrpc(server, h, '192.0.2.1')).status).toBe(200);
    expect((await createTrpc(server, h, '192.0.2.1', pdf)).status).toBe(200);
    // A damaged file and a duplicate: both read, both refused.
    expect((await createTrpc(server, h, '192.0.2.1', damaged)).status).toBe(400);
    expect((await createTrpc(server, h, '192.0.2.1', pdf)).status).toBe(409);

    const before = await footprint(server);
    const refusal = 'Too many of your recent uploads could not be added (refused files or duplicates): at most 2 every minute from one wallet. You can upload again in 30 seconds.';
    // Refused before its file is read, whatever it holds and whichever interface (or address) sends it.
    expect(await createTrpc(server, h, '192.0.2.1')).toEqual({ status: 429, code: 'TOO_MANY_REQUESTS', retryAfter: '30', message: refusal, id: undefined });
    expect(await createRest(server, h, '192.0.2.2')).toEqual({ status: 429, code: 'rate_limited', retryAfter: '30', message: refusal, id: undefined });
    expect(await footprint(server)).toEqual(before);
    // Another wallet is not affected.
    expect((await createTrpc(server, await holder(server), '192.0.2.1')).status).toBe(200);

    setClock(t0 + 30_000); // one refusal back
    expect((await createTrpc(server, h, '192.0.2.1')).status).toBe(200);
    expect((await createTrpc(server, h, '192.0.2.1', damaged)).status).toBe(400);
    expect((await createTrpc(server, h, '192.0.2.1')).status).toBe(429);
  });

  it('uploads sent at once are each read, and every refusal among them is charged: the burst is paid off before the next upload is read', async () => {
    const server = await serverWith({ REFUSED_UPLOAD_LIMIT_PER_WALLET: '2', CERTIFICATE_RATE_LIMIT_WINDOW_SEC: '60' });
    const t0 = Date.now();
    const setClock = clockOf(server, t0);
    const h = await holder(server);
    await closeDocumentReaders(); // the first check starts a reader (~1 s): all twenty are in flight before any is refused
    const burst = await Promise.all(Array.from({ length: 20 }, () => createTrpc(server, h, '192.0.2.1', damaged)));
    expect(burst.map((a) => a.status)).toEqual(Array(20).fill(400));
    // 2 − 20 refusals, held at −2 (the most a bucket owes): three tokens to refill, 30 s each.
    const refused = await createTrpc(server, h, '192.0.2.1');
    expect(refused).toMatchObject({ status: 429, retryAfter: '90' });
    setClock(t0 + 60_000);
    expect((await createTrpc(server, h, '192.0.2.1')).status).toBe(429);
    setClock(t0 + 90_000);
    expect((await createTrpc(server, h, '192.0.2.1')).status).toBe(200);
  });

  it('per address: fresh wallets from one address share its refusals; another address is not affected', async () => {
    const server = await serverWith({ REFUSED_UPLOAD_LIMIT_PER_IP: '2' });
    clockOf(server, Date.now());
    const [a, b, c] = [await holder(server), await holder(server), await holder(server)];
    expect((await createTrpc(server, a, '203.0.113.7', damaged)).status).toBe(400);
    expect((await createTrpc(server, b, '203.0.113.7', damaged)).status).toBe(400);
    expect(await createTrpc(server, c, '203.0.113.7')).toEqual({
      status: 429,
      code: 'TOO_MANY_REQUESTS',
      retryAfter: '300',
      message: 'Too many uploads from your network could not be added (refused files or duplicates): at most 2 every 10 minutes. You can upload again in 5 minutes.',
      id: undefined,
    });
    expect((await createTrpc(server, c, '203.0.113.8')).status).toBe(200);
  });
});

describe('token buckets (lib/rate-limit)', () => {
  it('takes from several buckets all or none, names the empty one, and gives back', () => {
    let now = 0;
    const b = new TokenBuckets({ now: () => now });
    const wallet = { capacity: 2, windowMs: 60_000 };
    const ip = { capacity: 1, windowMs: 60_000 };
    expect(b.takeAll([['w', wallet], ['ip', ip]])).toEqual({ ok: true, remaining: 0 });
    // The address is empty: refused, and the wallet keeps its last token.
    expect(b.takeAll([['w', wallet], ['ip', ip]])).toEqual({ ok: false, key: 'ip', retryAfterMs: 60_000 });
    expect(b.take('w', wallet)).toEqual({ ok: true, remaining: 0 });
    expect(b.take('w', wallet)).toEqual({ ok: false, key: 'w', retryAfterMs: 30_000 });
    b.give('w');
    expect(b.take('w', wallet)).toEqual({ ok: true, remaining: 0 });
    now = 30_000;
    expect(b.take('w', wallet).ok).toBe(true);
    b.give('unknown'); // nothing to give back to: no bucket is made
    expect(b.size).toBe(2);
  });

  it('checks without taking: what takeAll would answer, every bucket left as it was', () => {
    let now = 0;
    const b = new TokenBuckets({ now: () => now });
    const limit = { capacity: 2, windowMs: 60_000 };
    expect(b.check([['r', limit]])).toEqual({ ok: true, remaining: 2 });
    expect(b.size).toBe(0);
    b.take('r', limit);
    b.take('r', limit);
    expect(b.check([['r', limit], ['s', limit]])).toEqual({ ok: false, key: 'r', retryAfterMs: 30_000 });
    expect(b.check([['r', limit]])).toEqual({ ok: false, key: 'r', retryAfterMs: 30_000 });
    now = 30_000;
    expect(b.check([['r', limit]])).toEqual({ ok: true, remaining: 1 });
    expect(b.take('r', limit)).toEqual({ ok: true, remaining: 0 });
  });

  it('charges a cost already incurred into debt, down to minus the capacity', () => {
    let now = 0;
    const b = new TokenBuckets({ now: () => now });
    const limit = { capacity: 2, windowMs: 60_000 };
    for (let i = 0; i < 3; i++) b.charge('r', limit);
    expect(b.check([['r', limit]])).toEqual({ ok: false, key: 'r', retryAfterMs: 60_000 }); // −1: two tokens to refill
    for (let i = 0; i < 10; i++) b.charge('r', limit);
    expect(b.check([['r', limit]])).toEqual({ ok: false, key: 'r', retryAfterMs: 90_000 }); // held at −2
    now = 90_000;
    expect(b.take('r', limit)).toEqual({ ok: true, remaining: 0 });
  });
});
