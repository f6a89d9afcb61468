/**
 * Red-team findings against the JSON-RPC facade (`POST /rpc`, `ws://…/rpc`), each as the attack:
 * - item 7: the faucet drained anonymously (89 × 10 SOL in 7 s);
 * - item 10: one WebSocket holding 200,000 subscriptions, unbounded sockets;
 * - item 11: replaying a landed (operator-signed) transaction to sendTransaction.
 * Limits are asserted through internal counters and exact replies, never through timings.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Connection, Keypair, LAMPORTS_PER_SOL, PublicKey, SystemProgram, Transaction } from '@solana/web3.js';
import Fastify from 'fastify';
import type { AddressInfo } from 'node:net';
import bs58 from 'bs58';
import type { Server } from '../src/app';
import { OPERATOR_RESERVE_LAMPORTS } from '../src/services/chain/embedded';
import { AIRDROP_LIMITS, AirdropLimiter, clientKey } from '../src/json-rpc/faucet';
import { PUBSUB_LIMITS, pubSubStats, registerPubSub } from '../src/json-rpc/websocket';
import type { EmbeddedChain } from '../src/services/chain/embedded';
import { tmpDataDir } from './helpers';
import { openRpcSocket, rpcCall, startRpcServer } from './rpc-helpers';

const SOL = LAMPORTS_PER_SOL;
const FEE = 5000;
const body = (method: string, params?: unknown[], id: number | string = 1) => ({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });
const dirs: string[] = [];
const dir = () => {
  const d = tmpDataDir();
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

async function post(url: string, payload: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(payload) });
  const text = await res.text();
  return { status: res.status, retryAfter: res.headers.get('retry-after'), json: JSON.parse(text) };
}

const balance = async (url: string, key: PublicKey) => (await rpcCall(url, body('getBalance', [key.toBase58()]))).json.result.value as number;

/** Moves lamports out of the operator with a server-side transfer (what the platform's own fees do over time). */
const sink = Keypair.generate().publicKey;
async function spendOperator(server: Server, lamports: number) {
  const chain = server.services.chain;
  await chain.sendTransaction(new Transaction().add(SystemProgram.transfer({ fromPubkey: chain.operator, toPubkey: sink, lamports })), [], { kind: 'test_spend' });
}

describe('requestAirdrop: the faucet cannot be drained (item 7)', () => {
  let s: Awaited<ReturnType<typeof startRpcServer>>;
  beforeAll(async () => {
    s = await startRpcServer(dir());
  });
  afterAll(async () => {
    await s?.close();
  });

  it('the red-team burst (89 × 10 SOL) takes nothing; 89 concurrent 2 SOL requests take only the per-IP allowance', async () => {
    const operator = s.server.services.chain.operator;
    const before = await balance(s.url, operator);
    const victim = Keypair.generate().publicKey;

    // The original attack: 10 SOL a request is over the per-request cap, every one is refused.
    const big = await Promise.all(Array.from({ length: 89 }, (_, i) => post(s.url, body('requestAirdrop', [victim.toBase58(), 10 * SOL], i))));
    for (const r of big) {
      expect(r.status).toBe(200);
      expect(r.json.error).toEqual({ code: -32600, message: 'Invalid request: airdrop request too large; req: ◎10, cap: ◎2 (at most 2000000000 lamports a request)' });
    }
    expect(await balance(s.url, operator)).toBe(before);

    // The same burst at the cap, concurrently: exactly two land (4 SOL ≤ 5 SOL a window), the rest are 429.
    const burst = await Promise.all(Array.from({ length: 89 }, (_, i) => post(s.url, body('requestAirdrop', [victim.toBase58(), 2 * SOL], i))));
    const granted = burst.filter((r) => typeof r.json.result === 'string');
    const refused = burst.filter((r) => r.json.error);
    expect(granted).toHaveLength(2);
    expect(refused).toHaveLength(87);
    for (const r of refused) {
      expect(r.status).toBe(429);
      expect(r.json.error.code).toBe(429);
      expect(r.json.error.message).toMatch(
        /^airdrop request limit reached: each client address may receive ◎5 in at most 10 airdrops per hour \(received ◎4 in 2; requested ◎2\); try again in \d+ seconds$/,
      );
      const retry = r.json.error.data.retryAfter;
      expect(r.json.error.data).toEqual({ retryAfter: retry, scope: 'ip' });
      expect(retry).toBeGreaterThan(3500);
      expect(retry).toBeLessThanOrEqual(3600);
      expect(r.retryAfter).toBe(String(retry));
      expect(r.json.error.message).toContain(`try again in ${retry} seconds`);
    }
    // What is left of the allowance (1 SOL) is still granted; after it, even one lamport is refused.
    expect(typeof (await post(s.url, body('requestAirdrop', [victim.toBase58(), 1 * SOL]))).json.result).toBe('string');
    const last = await post(s.url, body('requestAirdrop', [victim.toBase58(), 1]));
    expect(last.status).toBe(429);
    expect(last.json.error.message).toMatch(/received ◎5 in 3; requested ◎0\.000000001/);

    // Without TRUST_PROXY a forged X-Forwarded-For is not a new client.
    const forged = await post(s.url, body('requestAirdrop', [victim.toBase58(), SOL]), { 'x-forwarded-for': '198.51.100.7' });
    expect(forged.status).toBe(429);

    // Figures: 5 SOL moved in all (plus three fees), against 890 SOL before the fix.
    expect(await balance(s.url, victim)).toBe(5 * SOL);
    expect(before - (await balance(s.url, operator))).toBe(5 * SOL + 3 * FEE);
  });

  it('web3.js reports it as Solana’s public RPC does: "429 Too Many Requests" with the reason', async () => {
    const conn = new Connection(s.url, { commitment: 'confirmed', disableRetryOnRateLimit: true });
    const err = await conn.requestAirdrop(Keypair.generate().publicKey, SOL).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/^429 Too Many Requests: .*"code":429,"message":"airdrop request limit reached: each client address may receive ◎5/);
  });

  it('inside a batch the refusal is that element’s error (HTTP 200), the others are answered', async () => {
    const to = Keypair.generate().publicKey.toBase58();
    const res = await post(s.url, [body('requestAirdrop', [to, SOL], 'a'), body('getHealth', [], 'b')]);
    expect(res.status).toBe(200);
    expect(res.json[0].error.code).toBe(429);
    expect(res.json[1]).toEqual({ jsonrpc: '2.0', result: 'ok', id: 'b' });
  });
});

describe('requestAirdrop behind a trusted proxy: per client and for everyone', () => {
  let s: Awaited<ReturnType<typeof startRpcServer>>;
  beforeAll(async () => {
    s = await startRpcServer(dir(), { TRUST_PROXY: 'true' });
  });
  afterAll(async () => {
    await s?.close();
  });
  const from = (ip: string) => ({ 'x-forwarded-for': ip });

  it('each client has its own allowance, all of them together the global one', async () => {
    const to = Keypair.generate().publicKey.toBase58();
    const operator = s.server.services.chain.operator;
    const before = await balance(s.url, operator);
    // Five clients take 5 SOL each (2 + 2 + 1): the global 25 SOL an hour is then used up.
    for (let i = 1; i <= 5; i++) {
      for (const amount of [2, 2, 1]) expect((await post(s.url, body('requestAirdrop', [to, amount * SOL]), from(`203.0.113.${i}`))).json.result).toBeTypeOf('string');
      expect((await post(s.url, body('requestAirdrop', [to, 1]), from(`203.0.113.${i}`))).json.error.data.scope).toBe('ip');
    }
    const sixth = await post(s.url, body('requestAirdrop', [to, SOL]), from('203.0.113.6'));
    expect(sixth.status).toBe(429);
    expect(sixth.json.error.message).toMatch(/^airdrop request limit reached: the faucet gives at most ◎25 in 50 airdrops per hour to all clients together; try again in \d+ seconds$/);
    expect(sixth.json.error.data.scope).toBe('global');
    expect(before - (await balance(s.url, operator))).toBe(25 * SOL + 15 * FEE);
  });

  it('IPv6 clients are counted per /64 (one host’s prefix), IPv4-mapped addresses as IPv4', () => {
    expect(clientKey('2001:db8:1:2::1')).toBe(clientKey('2001:db8:1:2:ffff:0:0:9'));
    expect(clientKey('2001:db8:1:2::1')).not.toBe(clientKey('2001:db8:1:3::1'));
    expect(clientKey('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(clientKey('192.0.2.1')).toBe('192.0.2.1');
  });
});

describe('AirdropLimiter: a sliding window with an exact retry time', () => {
  it('counts lamports and requests per client and globally; an aged-out grant frees its share', () => {
    let now = 1_000_000;
    const l = new AirdropLimiter(AIRDROP_LIMITS, () => now);
    const hour = AIRDROP_LIMITS.windowMs;
    expect(l.take('a', 2 * SOL).ok).toBe(true);
    now += 10 * 60_000;
    expect(l.take('a', 2 * SOL).ok).toBe(true);
    now += 10 * 60_000;
    const full = l.take('a', 2 * SOL);
    expect(full).toMatchObject({ ok: false, scope: 'ip' });
    // 4 + 2 > 5: only the first grant's expiry makes room, 40 minutes from now.
    expect(!full.ok && full.retryAfter).toBe((hour - 20 * 60_000) / 1000);
    now += (hour - 20 * 60_000);
    expect(l.take('a', 2 * SOL).ok).toBe(true);
    // A grant whose transfer failed is given back.
    const t = l.take('b', SOL);
    expect(t.ok).toBe(true);
    if (t.ok) t.release();
    expect(l.live()).toEqual({ grants: 2, lamports: 4 * SOL });

    // Request count: 10 per client, 50 overall.
    const m = new AirdropLimiter(AIRDROP_LIMITS, () => now);
    for (let i = 0; i < 10; i++) expect(m.take('c', 1).ok).toBe(true);
    expect(m.take('c', 1)).toMatchObject({ ok: false, scope: 'ip' });
    for (let k = 0; k < 4; k++) for (let i = 0; i < 10; i++) expect(m.take(`k${k}`, 1).ok).toBe(true);
    expect(m.take('fresh', 1)).toMatchObject({ ok: false, scope: 'global', retryAfter: 3600 });
    now += hour; // everything ages out: nothing is kept beyond the window
    expect(m.take('fresh', 1).ok).toBe(true);
    expect(m.live()).toEqual({ grants: 1, lamports: 1 });
  });
});

describe('the operator keeps its reserve; start-up refills below the same reserve', () => {
  it('refuses an airdrop that would cross the reserve; a restart below the reserve refills', async () => {
    const d = dir();
    let s = await startRpcServer(d);
    try {
      const operator = s.server.services.chain.operator;
      const reserve = Number(OPERATOR_RESERVE_LAMPORTS);
      // The platform's own spending leaves the operator 0.5 SOL above its reserve.
      await spendOperator(s.server, (await balance(s.url, operator)) - reserve - SOL / 2 - FEE);
      expect(await balance(s.url, operator)).toBe(reserve + SOL / 2);
      const to = Keypair.generate().publicKey.toBase58();
      const dry = await post(s.url, body('requestAirdrop', [to, SOL]));
      expect(dry.status).toBe(200);
      expect(dry.json.error).toEqual({ code: -32603, message: 'Internal error: the airdrop faucet has run dry (the operator keeps ◎100 for the platform’s transaction fees)' });
      expect(await balance(s.url, operator)).toBe(reserve + SOL / 2);
      // Down to the reserve exactly, not below.
      expect(typeof (await post(s.url, body('requestAirdrop', [to, SOL / 2 - FEE]))).json.result).toBe('string');
      expect(await balance(s.url, operator)).toBe(reserve);
      expect((await post(s.url, body('requestAirdrop', [to, 1]))).json.error.code).toBe(-32603);

      // At the reserve a restart changes nothing; one lamport under it, the restart refills.
      await s.close();
      s = await startRpcServer(d);
      expect(await balance(s.url, operator)).toBe(reserve);
      await spendOperator(s.server, 1);
      await s.close();
      s = await startRpcServer(d);
      expect(await balance(s.url, operator)).toBeGreaterThan(reserve + AIRDROP_LIMITS.global.lamports);
      expect(typeof (await post(s.url, body('requestAirdrop', [to, SOL]))).json.result).toBe('string');
    } finally {
      await s.close();
    }
  });
});

describe('PubSub: bounded subscriptions and sockets (item 10)', () => {
  let s: Awaited<ReturnType<typeof startRpcServer>>;
  let landedListeners = 0;
  beforeAll(async () => {
    s = await startRpcServer(dir());
    landedListeners = (s.server.services.chain as EmbeddedChain).landedListenerCount;
  });
  afterAll(async () => {
    await s?.close();
  });
  const sig = (i: number) => bs58.encode(Buffer.alloc(64, i % 250 + 1));

  it(`one socket holds at most ${PUBSUB_LIMITS.subscriptionsPerSocket} subscriptions; the rest get a JSON-RPC error; close frees them all`, async () => {
    const ws = await openRpcSocket(s.url);
    // The red team's flood, scaled down: 1,000 signatureSubscribe calls on one socket.
    const replies = await Promise.all(Array.from({ length: 1000 }, (_, i) => ws.call('signatureSubscribe', [sig(i), { commitment: 'confirmed' }])));
    const ok = replies.filter((r) => typeof r.result === 'number');
    const refused = replies.filter((r) => r.error);
    expect(ok).toHaveLength(PUBSUB_LIMITS.subscriptionsPerSocket);
    expect(refused).toHaveLength(1000 - PUBSUB_LIMITS.subscriptionsPerSocket);
    const refusal = {
      code: -32603,
      message: `Internal Error: Subscription refused. Connection subscription limit reached (${PUBSUB_LIMITS.subscriptionsPerSocket} per WebSocket); unsubscribe first or open another connection`,
    };
    for (const r of refused) expect(r.error).toEqual(refusal);
    expect((await ws.call('slotSubscribe')).error).toEqual(refusal);
    expect((await ws.call('accountSubscribe', [Keypair.generate().publicKey.toBase58()])).error).toEqual(refusal);
    expect(pubSubStats(s.server.app)).toMatchObject({ sockets: 1, subscriptions: PUBSUB_LIMITS.subscriptionsPerSocket });

    // Unsubscribing frees a slot.
    expect((await ws.call('signatureUnsubscribe', [ok[0].result])).result).toBe(true);
    expect(pubSubStats(s.server.app).subscriptions).toBe(PUBSUB_LIMITS.subscriptionsPerSocket - 1);
    expect(typeof (await ws.call('slotSubscribe')).result).toBe('number');
    expect((s.server.services.chain as EmbeddedChain).landedListenerCount).toBe(landedListeners + 1);

    await ws.close();
    expect(pubSubStats(s.server.app)).toEqual({ sockets: 0, subscriptions: 0, addresses: 0 });
    expect((s.server.services.chain as EmbeddedChain).landedListenerCount).toBe(landedListeners);
  });

  it(`at most ${PUBSUB_LIMITS.socketsPerAddress} sockets per client address: the next is closed with 1008 and why; closing one frees a slot`, async () => {
    const open = await Promise.all(Array.from({ length: PUBSUB_LIMITS.socketsPerAddress }, () => openRpcSocket(s.url)));
    for (const ws of open) expect(typeof (await ws.call('slotSubscribe')).result).toBe('number');
    expect(pubSubStats(s.server.app)).toEqual({ sockets: PUBSUB_LIMITS.socketsPerAddress, subscriptions: PUBSUB_LIMITS.socketsPerAddress, addresses: 1 });

    const extra = await openRpcSocket(s.url);
    expect(await extra.closed).toEqual({ code: 1008, reason: `too many connections: at most ${PUBSUB_LIMITS.socketsPerAddress} WebSockets per client address` });
    // A forged X-Forwarded-For (TRUST_PROXY is off) is the same client.
    const forged = await openRpcSocket(s.url, { 'x-forwarded-for': '198.51.100.9' });
    expect((await forged.closed).code).toBe(1008);
    expect(pubSubStats(s.server.app).sockets).toBe(PUBSUB_LIMITS.socketsPerAddress);

    await open.pop()!.close();
    const again = await openRpcSocket(s.url);
    expect(typeof (await again.call('slotSubscribe')).result).toBe('number');
    open.push(again);

    for (const ws of open) await ws.close();
    expect(pubSubStats(s.server.app)).toEqual({ sockets: 0, subscriptions: 0, addresses: 0 });
    expect((s.server.services.chain as EmbeddedChain).landedListenerCount).toBe(landedListeners);
  });

  it('a socket dropped without a close frame is freed as well', async () => {
    const ws = await openRpcSocket(s.url);
    for (let i = 0; i < 5; i++) expect(typeof (await ws.call('signatureSubscribe', [sig(i)])).result).toBe('number');
    expect(pubSubStats(s.server.app)).toEqual({ sockets: 1, subscriptions: 5, addresses: 1 });
    ws.destroy();
    await ws.closed;
    await expect.poll(() => pubSubStats(s.server.app)).toEqual({ sockets: 0, subscriptions: 0, addresses: 0 });
    expect((s.server.services.chain as EmbeddedChain).landedListenerCount).toBe(landedListeners);
  });

  it('a client that vanished without a FIN (no pong to the heartbeat ping) is dropped; one that answers stays', async () => {
    const side = Fastify();
    registerPubSub(side, s.server.services.chain, { encodeAccount: () => null, path: '/rpc', rentEpochSentinel: '_', limits: { heartbeatMs: 100 } });
    await side.listen({ port: 0, host: '127.0.0.1' });
    try {
      const url = `http://127.0.0.1:${(side.server.address() as AddressInfo).port}/rpc`;
      const answering = await openRpcSocket(url);
      const silent = await openRpcSocket(url, {}, false);
      for (const ws of [answering, silent]) expect(typeof (await ws.call('slotSubscribe')).result).toBe('number');
      expect(pubSubStats(side)).toEqual({ sockets: 2, subscriptions: 2, addresses: 1 });
      // The silent one is dropped after two rounds without a pong; the answering one, opened together, is not.
      expect((await silent.closed).code).toBe(1006);
      expect(pubSubStats(side)).toEqual({ sockets: 1, subscriptions: 1, addresses: 1 });
      expect(typeof (await answering.call('slotSubscribe')).result).toBe('number');
      await answering.close();
      expect(pubSubStats(side)).toEqual({ sockets: 0, subscriptions: 0, addresses: 0 });
    } finally {
      await side.close();
    }
  });

  it('a server-wide socket cap (here 3, behind two trusted proxies) closes the next one with 1013', async () => {
    const side = Fastify();
    // Two hops (a CDN, then a load balancer that appends the CDN's 10.0.0.1): the client is the entry before them.
    registerPubSub(side, s.server.services.chain, { encodeAccount: () => null, path: '/rpc', rentEpochSentinel: '_', trustProxy: 2, limits: { sockets: 3 } });
    await side.listen({ port: 0, host: '127.0.0.1' });
    try {
      const url = `http://127.0.0.1:${(side.server.address() as AddressInfo).port}/rpc`;
      // Behind the trusted proxy each forwarded address is its own client.
      const open = await Promise.all(['192.0.2.1', '192.0.2.2', '2001:db8::1'].map((ip) => openRpcSocket(url, { 'x-forwarded-for': `${ip}, 10.0.0.1` })));
      expect(pubSubStats(side)).toEqual({ sockets: 3, subscriptions: 0, addresses: 3 });
      const full = await openRpcSocket(url, { 'x-forwarded-for': '192.0.2.4' });
      expect(await full.closed).toEqual({ code: 1013, reason: 'server busy: 3 WebSockets open; try again later' });
      await open[0].close();
      const next = await openRpcSocket(url, { 'x-forwarded-for': '192.0.2.4' });
      expect(typeof (await next.call('slotSubscribe')).result).toBe('number');
      for (const ws of [...open.slice(1), next]) await ws.close();
      expect(pubSubStats(side)).toEqual({ sockets: 0, subscriptions: 0, addresses: 0 });
    } finally {
      await side.close();
    }
  });
});

// ---------------------------------------------------------------------------------------------

/** Everything a replay could change: every account row, the slot, and the row counts of the chain tables. */
async function chainState(server: Server, url: string, keys: PublicKey[]) {
  const db = server.services.db;
  const accounts = await db.selectFrom('chain_account').select(['pubkey', 'owner', 'lamports', 'data']).orderBy('pubkey').execute();
  const meta = await db.selectFrom('chain_meta').selectAll().orderBy('key').execute();
  const count = async (t: 'chain_transaction' | 'chain_account') => Number((await db.selectFrom(t).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const jdb = db as unknown as import('kysely').Kysely<Record<'rpc_transaction' | 'rpc_transaction_account', { signature: string }>>;
  const jcount = async (t: 'rpc_transaction' | 'rpc_transaction_account') => Number((await jdb.selectFrom(t).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const live = [];
  for (const k of keys) {
    const r = (await rpcCall(url, body('getAccountInfo', [k.toBase58(), { encoding: 'base64' }]))).json.result.value;
    live.push(r && { lamports: r.lamports, data: r.data[0], owner: r.owner });
  }
  return {
    accounts: accounts.map((a) => ({ ...a, data: Buffer.from(a.data).toString('hex') })),
    meta,
    rows: { chain_transaction: await count('chain_transaction'), chain_account: await count('chain_account'), rpc_transaction: await jcount('rpc_transaction'), rpc_transaction_account: await jcount('rpc_transaction_account') },
    live,
  };
}

const ALREADY_PROCESSED = {
  code: -32002,
  message: 'Transaction simulation failed: This transaction has already been processed',
  data: { accounts: null, err: 'AlreadyProcessed', innerInstructions: null, logs: [], replacementBlockhash: null, returnData: null, unitsConsumed: 0 },
};

describe('replayed transactions are refused before they run (item 11)', () => {
  const d = dir();
  let s: Awaited<ReturnType<typeof startRpcServer>>;
  const landed: { name: string; wire: string; keys: PublicKey[] }[] = [];
  beforeAll(async () => {
    s = await startRpcServer(d);
  });
  afterAll(async () => {
    await s?.close();
  });

  async function wireOf(signature: string) {
    const got = (await rpcCall(s.url, body('getTransaction', [signature, { encoding: 'base64', maxSupportedTransactionVersion: 0 }]))).json.result;
    expect(got, `journal has ${signature}`).not.toBeNull();
    const wire = got.transaction[0] as string;
    const keys = Transaction.from(Buffer.from(wire, 'base64')).compileMessage().accountKeys;
    return { wire, keys };
  }

  async function expectRefused(wire: string, keys: PublicKey[]) {
    const before = await chainState(s.server, s.url, keys);
    const base64 = await rpcCall(s.url, body('sendTransaction', [wire, { encoding: 'base64' }]));
    expect(base64.json.error).toEqual(ALREADY_PROCESSED);
    const base58 = await rpcCall(s.url, body('sendTransaction', [bs58.encode(Buffer.from(wire, 'base64'))]));
    expect(base58.json.error).toEqual(ALREADY_PROCESSED);
    const skip = await rpcCall(s.url, body('sendTransaction', [wire, { encoding: 'base64', skipPreflight: true }]));
    expect(skip.json.error).toEqual(ALREADY_PROCESSED);
    expect(await chainState(s.server, s.url, keys)).toEqual(before);
  }

  it('operator-signed transactions (anchor, airdrop) and a user transfer replayed to sendTransaction: AlreadyProcessed, nothing changes', async () => {
    const chain = s.server.services.chain;
    const holder = Keypair.generate();
    const anchor = await chain.anchorCertificate({ hash: new Uint8Array(32).map((_, i) => 200 - i), holder: holder.publicKey }, { kind: 'anchor_certificate' });
    landed.push({ name: 'anchor', ...(await wireOf(anchor.signature)) });
    const verdictParams = { hash: new Uint8Array(32).map((_, i) => 200 - i), verified: true, reasonCode: 0 };
    const verdict = await chain.recordVerification(verdictParams, { kind: 'record_verification' });
    landed.push({ name: 'verdict', ...(await wireOf(verdict.signature)) });
    const airdrop = (await rpcCall(s.url, body('requestAirdrop', [holder.publicKey.toBase58(), SOL]))).json.result as string;
    landed.push({ name: 'airdrop', ...(await wireOf(airdrop)) });
    const { blockhash } = (await rpcCall(s.url, body('getLatestBlockhash'))).json.result.value;
    const transfer = new Transaction({ feePayer: holder.publicKey, recentBlockhash: blockhash }).add(SystemProgram.transfer({ fromPubkey: holder.publicKey, toPubkey: Keypair.generate().publicKey, lamports: SOL / 10 }));
    transfer.sign(holder);
    const sent = await rpcCall(s.url, body('sendTransaction', [transfer.serialize().toString('base64'), { encoding: 'base64' }]));
    expect(sent.json.result).toBe(bs58.encode(transfer.signature!));
    landed.push({ name: 'transfer', ...(await wireOf(sent.json.result)) });

    for (const t of landed) await expectRefused(t.wire, t.keys);
  });

  it('simulateTransaction of a landed transaction with sigVerify answers err AlreadyProcessed without running it', async () => {
    for (const t of landed) {
      const before = await chainState(s.server, s.url, t.keys);
      const sim = await rpcCall(s.url, body('simulateTransaction', [t.wire, { encoding: 'base64', sigVerify: true }]));
      expect(sim.json.result.value).toEqual({ accounts: null, err: 'AlreadyProcessed', innerInstructions: null, logs: [], replacementBlockhash: null, returnData: null, unitsConsumed: 0 });
      const withAccounts = await rpcCall(s.url, body('simulateTransaction', [t.wire, { encoding: 'base64', sigVerify: true, accounts: { addresses: [t.keys[0].toBase58()], encoding: 'base64' } }]));
      expect(withAccounts.json.result.value).toMatchObject({ err: 'AlreadyProcessed', accounts: [null] });
      expect(await chainState(s.server, s.url, t.keys)).toEqual(before);
    }
  });

  it('after a restart (empty in-memory history, same blockhash) the persisted signatures still refuse the replay', async () => {
    await s.close();
    s = await startRpcServer(d);
    for (const t of landed) await expectRefused(t.wire, t.keys);
    // The chain still lands new transactions.
    const to = Keypair.generate().publicKey;
    expect(typeof (await rpcCall(s.url, body('requestAirdrop', [to.toBase58(), SOL]))).json.result).toBe('string');
    expect(await balance(s.url, to)).toBe(SOL);
  });

  it('the same new transaction sent concurrently lands once; the copies are AlreadyProcessed', async () => {
    const payer = Keypair.generate();
    expect(typeof (await rpcCall(s.url, body('requestAirdrop', [payer.publicKey.toBase58(), SOL]))).json.result).toBe('string');
    const to = Keypair.generate().publicKey;
    const { blockhash } = (await rpcCall(s.url, body('getLatestBlockhash'))).json.result.value;
    const tx = new Transaction({ feePayer: payer.publicKey, recentBlockhash: blockhash }).add(SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: to, lamports: SOL / 4 }));
    tx.sign(payer);
    const wire = tx.serialize().toString('base64');
    const replies = await Promise.all(Array.from({ length: 8 }, () => rpcCall(s.url, body('sendTransaction', [wire, { encoding: 'base64' }]))));
    expect(replies.filter((r) => r.json.result === bs58.encode(tx.signature!))).toHaveLength(1);
    for (const r of replies.filter((x) => x.json.error)) expect(r.json.error).toEqual(ALREADY_PROCESSED);
    expect(await balance(s.url, to)).toBe(SOL / 4);
    expect(await balance(s.url, payer.publicKey)).toBe(SOL - SOL / 4 - FEE);
  });
});
