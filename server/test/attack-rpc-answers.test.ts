/**
 * Red-team findings against the embedded chain's JSON-RPC (`POST /rpc`), each as the attack:
 * - a7: getMultipleAccounts of a built-in program's ~100 KB account 100 times a call, 10 calls a batch:
 *   a 47 KB request asked for 140 MB of JSON (RSS 170 MB → 1.2 GB);
 * - a7b: simulateTransaction's `accounts.addresses` without a cap: 150 entries, 7.3 KB → 21 MB;
 * - a4: getProgramAccounts over the System Program (thousands of accounts made from faucet lamports),
 *   batches of 100 in parallel: RSS → 3.9 GB, /healthz stalled 11 s; the token methods read every
 *   Token-2022 account per call;
 * - item 2: sendTransaction and simulateTransaction unmetered beyond fees (each landed transaction is kept).
 * What one request can make the server build is asserted on the answers (the error that names the limit)
 * and on what was read from the database, never on timings. Runs on SQLite and on PostgreSQL.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Connection, Keypair, LAMPORTS_PER_SOL, PublicKey, SystemProgram, Transaction } from '@solana/web3.js';
import bs58 from 'bs58';
import type { Server } from '../src/app';
import { loadConfig } from '../src/config';
import { IN_FLIGHT, MAX_BODY_BYTES, RpcGuard, SCAN_METHODS } from '../src/json-rpc/limits';
import { TOKEN_2022_PROGRAM } from '../src/json-rpc/parse-token';
import type { AccountReader, ScanPage } from '../src/services/chain/embedded-account-reader';
import { SCAN_PAGE_KEYS } from '../src/services/chain/embedded-accounts';
import { tmpDataDir } from './helpers';
import { startRpcServer } from './rpc-helpers';

const ATA_PROGRAM = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL';
const SYSTEM = '11111111111111111111111111111111';
const MB = 1024 * 1024;
const body = (method: string, params?: unknown[], id: number | string = 1) => ({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});
const dir = () => {
  const d = tmpDataDir();
  dirs.push(d);
  return d;
};

/** A raw POST from client `ip` (the servers trust one proxy hop: each test is its own client address). */
async function post(url: string, payload: unknown, ip: string) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': ip }, body: typeof payload === 'string' ? payload : JSON.stringify(payload) });
  const text = await res.text();
  return { status: res.status, retryAfter: res.headers.get('retry-after'), text, json: JSON.parse(text) };
}

/** Counts what the database hands the embedded chain's scans: pages of keys, and the keys that matched (the rows then read). */
function countReads(server: Server) {
  const reader = (server.services.chain as unknown as { accounts: { reader: AccountReader } }).accounts.reader;
  const n = { pages: 0, keys: 0 };
  const { scanPage } = reader;
  reader.scanPage = (...a) => {
    n.pages++;
    const count = (p: ScanPage) => ((n.keys += p.keys.length), p);
    const page = scanPage.apply(reader, a);
    return page instanceof Promise ? page.then(count) : count(page);
  };
  return {
    n,
    reset: () => Object.assign(n, { pages: 0, keys: 0 }),
    restore: () => Object.assign(reader, { scanPage }),
  };
}

/** Accounts written as the embedded chain keeps them (committed chain_account rows), many at once. */
async function insertAccounts(server: Server, rows: { pubkey: string; owner: string; data: Uint8Array; lamports?: number }[]) {
  const at = new Date().toISOString();
  for (let i = 0; i < rows.length; i += 200) {
    await server.services.db
      .insertInto('chain_account')
      .values(rows.slice(i, i + 200).map((r) => ({ pubkey: r.pubkey, owner: r.owner, lamports: String(r.lamports ?? 890_880), data: Buffer.from(r.data), executable: 0, rent_epoch: '0', updated_at: at })))
      .execute();
  }
}

const tooLarge = (limit: string) => ({
  code: -32012,
  message:
    `Answer too large: this node answers one request (a batch counts as one) with at most ${limit} of JSON, and this one needs more. ` +
    'Ask for less: narrow getProgramAccounts with filters (memcmp, dataSize), take a dataSlice of each account, ask for fewer keys at a time, or split the batch.',
  data: { limitBytes: expect.any(Number) },
});

describe('default limits: the red team’s requests as they were sent', () => {
  let s: Awaited<ReturnType<typeof startRpcServer>>;
  let ataSize = 0;
  beforeAll(async () => {
    s = await startRpcServer(dir(), { TRUST_PROXY: 'true' });
    ataSize = (await post(s.url, body('getAccountInfo', [ATA_PROGRAM, { encoding: 'base64' }]), '198.51.100.1')).json.result.value.space;
    expect(ataSize).toBeGreaterThan(90_000);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('a7: getMultipleAccounts of the Associated Token program 100 times, 10 calls a batch (47 KB) → every call is -32012, a few KB are sent, /healthz answers meanwhile', async () => {
    const ip = '198.51.100.2';
    const attack = Array.from({ length: 10 }, (_, i) => body('getMultipleAccounts', [Array(100).fill(ATA_PROGRAM), { encoding: 'base64' }], i));
    expect(JSON.stringify(attack).length).toBeGreaterThan(45_000);
    const [res, health] = await Promise.all([post(s.url, attack, ip), fetch(`${s.server.url}/healthz`)]);
    expect(health.status).toBe(200);
    expect(res.status).toBe(200);
    expect(res.json).toHaveLength(10);
    res.json.forEach((r: { id: number; error: unknown }, i: number) => expect(r).toEqual({ jsonrpc: '2.0', error: tooLarge('4 MB'), id: i }));
    // 140 MB before the budget; now ten errors. The request's in-flight slot is given back once answered.
    expect(res.text.length).toBeLessThan(10_000);
    await expect.poll(() => s.server.app.rpcInFlight!()).toEqual({ total: 0, keys: 0 });

    // What the error says to do works: fewer keys, or a dataSlice of each.
    const fewer = await post(s.url, body('getMultipleAccounts', [Array(25).fill(ATA_PROGRAM), { encoding: 'base64' }]), ip);
    expect(fewer.json.result.value).toHaveLength(25);
    expect(Buffer.from(fewer.json.result.value[24].data[0], 'base64').length).toBe(ataSize);
    const sliced = await post(s.url, body('getMultipleAccounts', [Array(100).fill(ATA_PROGRAM), { encoding: 'base64', dataSlice: { offset: 0, length: 32 } }]), ip);
    expect(sliced.json.result.value).toHaveLength(100);
    expect(sliced.json.result.value[99]).toMatchObject({ data: [expect.any(String), 'base64'], executable: true, space: ataSize });
  });

  it('a batch shares one budget: getAccountInfo of that account 40 times is answered until the budget, then -32012 for the rest, unbuilt', async () => {
    const ip = '198.51.100.3';
    const res = await post(s.url, Array.from({ length: 40 }, (_, i) => body('getAccountInfo', [ATA_PROGRAM, { encoding: 'base64' }], i)), ip);
    const answered = res.json.filter((r: { result?: unknown }) => r.result !== undefined).length;
    // Each answer is the account in base64 (4/3 of its ~100 KB) and a little JSON: 4 MB hold 29 of them.
    const one = JSON.stringify(res.json[0]).length;
    expect(answered).toBeGreaterThanOrEqual(Math.floor((4 * MB) / (one + 2)) - 1);
    expect(answered).toBeLessThanOrEqual(Math.floor((4 * MB) / one));
    expect(answered).toBeLessThan(40);
    res.json.forEach((r: { result?: unknown; error?: unknown }, i: number) => (i < answered ? expect(r.result).toBeDefined() : expect(r.error).toEqual(tooLarge('4 MB'))));
    expect(res.text.length).toBeLessThanOrEqual(4 * MB + (40 - answered) * 600);
  });

  it('a7b: simulateTransaction with 150 addresses (7.3 KB) is refused as Agave refuses it: no more than the transaction’s account keys, no base58', async () => {
    const ip = '198.51.100.4';
    const payer = Keypair.generate();
    const { blockhash } = (await post(s.url, body('getLatestBlockhash'), ip)).json.result.value;
    const tx = new Transaction({ feePayer: payer.publicKey, recentBlockhash: blockhash }).add(SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: payer.publicKey, lamports: 0 }));
    const wire = tx.serialize({ requireAllSignatures: false, verifySignatures: false }).toString('base64');
    const simulate = (accounts: unknown) => post(s.url, body('simulateTransaction', [wire, { encoding: 'base64', replaceRecentBlockhash: true, accounts }]), ip);

    const attack = await simulate({ encoding: 'base64', addresses: Array(150).fill(ATA_PROGRAM) });
    expect(attack.json.error).toEqual({ code: -32602, message: 'Too many accounts provided; max 2' });
    expect((await simulate({ encoding: 'base58', addresses: [payer.publicKey.toBase58()] })).json.error).toEqual({ code: -32602, message: 'base58 encoding not supported' });
    // Within the cap it answers (the payer has no lamports: the simulation fails, and a failed one has no accounts).
    const ok = await simulate({ encoding: 'base64', addresses: [payer.publicKey.toBase58(), SYSTEM] });
    expect(ok.json.result.value).toMatchObject({ err: 'AccountNotFound', accounts: [null, null] });
  });

  it('getSupply is summed by the database (not a row per account in memory), the same total', async () => {
    const rows = await s.server.services.db.selectFrom('chain_account').select('lamports').execute();
    const total = Number(rows.reduce((n, r) => n + BigInt(r.lamports), 0n));
    const res = await post(s.url, body('getSupply'), '198.51.100.8');
    expect(res.json.result.value).toEqual({ circulating: total, nonCirculating: 0, nonCirculatingAccounts: [], total });
  });

  it('a request body over Agave’s 50 KiB is refused with 413 and a JSON-RPC error that says what to do; one of 50 KiB is answered', async () => {
    const ip = '198.51.100.5';
    const padded = (n: number) => JSON.stringify(body('getHealth', [], 'x'.repeat(n)));
    const fits = MAX_BODY_BYTES - padded(0).length;
    const under = await post(s.url, padded(fits), ip);
    expect(under.status).toBe(200);
    expect(under.json.result).toBe('ok');
    const over = await post(s.url, padded(fits + 1), ip);
    expect(over.status).toBe(413);
    expect(over.json).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: 'Request too large: this node accepts at most 50 KB a request (as a Solana validator); send fewer calls per batch' }, id: null });
  });
});

describe('small limits (64 KB answers; 5 scans, 3 sendTransaction and 2 simulateTransaction a minute)', () => {
  let s: Awaited<ReturnType<typeof startRpcServer>>;
  let reads: ReturnType<typeof countReads>;
  const many = Array.from({ length: 1200 }, () => Keypair.generate().publicKey.toBase58());
  beforeAll(async () => {
    s = await startRpcServer(dir(), { TRUST_PROXY: 'true', RPC_ANSWER_LIMIT_MB: '0.0625', RPC_SEND_RATE_LIMIT_PER_MIN: '3', RPC_SIMULATE_RATE_LIMIT_PER_MIN: '2', RPC_SCAN_RATE_LIMIT_PER_MIN: '5' });
    // As a3 made them with faucet lamports: 1,200 wallets (System Program accounts without data).
    await insertAccounts(s.server, many.map((pubkey) => ({ pubkey, owner: SYSTEM, data: new Uint8Array(0) })));
    reads = countReads(s.server);
    // The Clock sysvar (every answer's context) is read once, and never again from the database.
    await post(s.url, body('getSlot'), '203.0.113.0');
  });
  afterAll(async () => {
    reads?.restore();
    await s?.close();
  });

  it('a4: getProgramAccounts of the System Program, a batch of 100 → -32012 for each; one page of keys is read for the whole batch, not every account', async () => {
    reads.reset();
    const res = await post(s.url, Array.from({ length: 100 }, (_, i) => body('getProgramAccounts', [SYSTEM, { encoding: 'base64' }], i)), '203.0.113.1');
    expect(res.status).toBe(200);
    res.json.forEach((r: { id: number }, i: number) => expect(r).toEqual({ jsonrpc: '2.0', error: tooLarge('64 KB'), id: i }));
    // The first call read one page of keys and stopped within it; the other 99 ran nothing.
    expect(reads.n).toEqual({ pages: 1, keys: SCAN_PAGE_KEYS });
    await expect.poll(() => s.server.app.rpcInFlight!()).toEqual({ total: 0, keys: 0 });
  });

  it('a filter the database checks: a rare memcmp over 1,200 accounts reads them in pages of keys and loads only the matches; an account type (first 8 bytes) is read from its index', async () => {
    const program = Keypair.generate().publicKey.toBase58();
    const tag = Buffer.from('issuer!!');
    const data = (i: number) => Buffer.concat([i % 400 === 7 ? tag : Buffer.from('record!!'), Buffer.alloc(8, i % 300 === 5 ? 0xab : 0), Buffer.alloc(16, 1)]);
    const keys = Array.from({ length: 1200 }, () => Keypair.generate().publicKey.toBase58());
    await insertAccounts(s.server, keys.map((pubkey, i) => ({ pubkey, owner: program, data: data(i) })));
    const sorted = (ks: string[]) => [...ks].sort((a, b) => (a < b ? -1 : 1));

    reads.reset();
    const rare = await post(s.url, body('getProgramAccounts', [program, { encoding: 'base64', filters: [{ memcmp: { offset: 8, bytes: bs58.encode(Buffer.alloc(8, 0xab)) } }] }]), '203.0.113.2');
    const expected = keys.filter((_, i) => i % 300 === 5);
    // In key (byte) order, on both databases.
    expect(rare.json.result.map((a: { pubkey: string }) => a.pubkey)).toEqual(sorted(expected));
    expect(reads.n).toEqual({ pages: Math.ceil(1200 / SCAN_PAGE_KEYS), keys: expected.length });

    reads.reset();
    const typed = await post(s.url, body('getProgramAccounts', [program, { encoding: 'base64', filters: [{ memcmp: { offset: 0, bytes: bs58.encode(tag) } }, { dataSize: 32 }] }]), '203.0.113.2');
    const issuers = keys.filter((_, i) => i % 400 === 7);
    expect(typed.json.result.map((a: { pubkey: string }) => a.pubkey)).toEqual(sorted(issuers));
    expect(reads.n).toEqual({ pages: 1, keys: issuers.length });
  });

  it('getTokenAccountsByOwner reads the owner’s token accounts only, and getTokenLargestAccounts the mint’s, keeping the largest 20', async () => {
    const mint = Keypair.generate().publicKey;
    const other = Keypair.generate().publicKey;
    const victim = Keypair.generate().publicKey;
    const mintData = Buffer.alloc(82);
    mintData[44] = 6; // decimals
    mintData[45] = 1; // initialized
    const account = (m: PublicKey, owner: PublicKey, amount: bigint) => {
      const d = Buffer.alloc(165);
      m.toBuffer().copy(d, 0);
      owner.toBuffer().copy(d, 32);
      d.writeBigUInt64LE(amount, 64);
      d[108] = 1; // initialized
      return d;
    };
    const holders = Array.from({ length: 300 }, (_, i) => ({ pubkey: Keypair.generate().publicKey.toBase58(), amount: BigInt((i * 7919) % 1000) }));
    const victims = [1n, 2n, 3n].map((amount, i) => ({ pubkey: Keypair.generate().publicKey.toBase58(), owner: TOKEN_2022_PROGRAM, data: account(i < 2 ? mint : other, victim, amount) }));
    await insertAccounts(s.server, [
      { pubkey: mint.toBase58(), owner: TOKEN_2022_PROGRAM, data: mintData },
      ...holders.map((h) => ({ pubkey: h.pubkey, owner: TOKEN_2022_PROGRAM, data: account(mint, Keypair.generate().publicKey, h.amount) })),
      // Other owners' accounts of another mint: what the scan used to read on every call.
      ...Array.from({ length: 600 }, () => ({ pubkey: Keypair.generate().publicKey.toBase58(), owner: TOKEN_2022_PROGRAM, data: account(other, Keypair.generate().publicKey, 1n) })),
      ...victims,
    ]);
    const ip = '203.0.113.3';
    const keysOf = (r: { json: { result: { value: { pubkey: string }[] } } }) => r.json.result.value.map((a) => a.pubkey).sort();

    reads.reset();
    const mine = await post(s.url, body('getTokenAccountsByOwner', [victim.toBase58(), { programId: TOKEN_2022_PROGRAM }, { encoding: 'base64' }]), ip);
    expect(keysOf(mine)).toEqual(victims.map((v) => v.pubkey).sort());
    expect(reads.n).toEqual({ pages: 1, keys: 3 });
    reads.reset();
    const ofMint = await post(s.url, body('getTokenAccountsByOwner', [victim.toBase58(), { mint: mint.toBase58() }, { encoding: 'base64' }]), ip);
    expect(keysOf(ofMint)).toEqual(victims.slice(0, 2).map((v) => v.pubkey).sort());
    expect(reads.n).toEqual({ pages: 1, keys: 2 });

    reads.reset();
    const largest = await post(s.url, body('getTokenLargestAccounts', [mint.toBase58()]), ip);
    const top = [...holders].sort((x, y) => (y.amount > x.amount ? 1 : -1)).slice(0, 20);
    expect(largest.json.result.value.map((v: { address: string; amount: string }) => [v.address, v.amount])).toEqual(top.map((t) => [t.pubkey, String(t.amount)]));
    expect(largest.json.result.value[0]).toMatchObject({ decimals: 6 });
    // The mint's 302 accounts (one page), not the 600 of the other mint.
    expect(reads.n).toEqual({ pages: 1, keys: 302 });
  });

  it('the methods that read many accounts are paced per client address (5 calls a minute here): HTTP 429 with Retry-After; another address is not affected', async () => {
    const ip = '203.0.113.7';
    const res = await post(s.url, Array.from({ length: 6 }, (_, i) => body('getMultipleAccounts', [[SYSTEM]], i)), ip);
    expect(res.json.slice(0, 5).every((r: { result?: unknown }) => r.result !== undefined)).toBe(true);
    const refusal = res.json[5].error;
    expect(refusal).toEqual({
      code: 429,
      message: `rate limit reached: each client address may make 5 calls a minute to ${SCAN_METHODS.join(', ')} (together) to this node; try again in ${refusal.data.retryAfter} seconds`,
      data: { retryAfter: expect.any(Number), scope: 'scan' },
    });
    for (const [method, params] of [['getProgramAccounts', [SYSTEM]], ['getTokenLargestAccounts', [SYSTEM]], ['getSupply', []]] as const) {
      const one = await post(s.url, body(method, [...params]), ip);
      expect(one.status).toBe(429);
      expect(one.retryAfter).toBe(String(one.json.error.data.retryAfter));
    }
    // web3.js (without its own retries) reports it readably.
    const conn = new Connection(s.url, { commitment: 'confirmed', disableRetryOnRateLimit: true, httpHeaders: { 'x-forwarded-for': ip } });
    await expect(conn.getMultipleAccountsInfo([PublicKey.default])).rejects.toThrow(/429 Too Many Requests: .*rate limit reached: each client address may make 5 calls a minute/);
    // Other calls and other clients go on.
    expect((await post(s.url, body('getBalance', [SYSTEM]), ip)).json.result).toBeDefined();
    expect((await post(s.url, body('getMultipleAccounts', [[SYSTEM]]), '203.0.113.8')).json.result).toBeDefined();
  });

  it('sendTransaction is paced per client address (3 a minute here): the 4th is HTTP 429 with when to retry, nothing of it is kept; another address and the server’s own transactions go on', async () => {
    const ip = '203.0.113.4';
    const db = s.server.services.db;
    const payer = Keypair.generate();
    expect(typeof (await post(s.url, body('requestAirdrop', [payer.publicKey.toBase58(), LAMPORTS_PER_SOL]), ip)).json.result).toBe('string');
    const transfer = async () => {
      const { blockhash } = (await post(s.url, body('getLatestBlockhash'), ip)).json.result.value;
      const tx = new Transaction({ feePayer: payer.publicKey, recentBlockhash: blockhash }).add(SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: Keypair.generate().publicKey, lamports: 1_000_000 }));
      tx.sign(payer);
      return tx.serialize().toString('base64');
    };
    for (let i = 0; i < 3; i++) expect(typeof (await post(s.url, body('sendTransaction', [await transfer(), { encoding: 'base64' }]), ip)).json.result).toBe('string');
    const count = async () => Number((await db.selectFrom('chain_transaction').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();
    const refused = await post(s.url, body('sendTransaction', [await transfer(), { encoding: 'base64' }]), ip);
    expect(refused.status).toBe(429);
    expect(refused.json.error).toEqual({
      code: 429,
      message: `rate limit reached: each client address may make 3 sendTransaction calls a minute to this node; try again in ${refused.json.error.data.retryAfter} seconds`,
      data: { retryAfter: expect.any(Number), scope: 'send' },
    });
    expect(refused.json.error.data.retryAfter).toBeGreaterThanOrEqual(1);
    expect(refused.json.error.data.retryAfter).toBeLessThanOrEqual(20);
    expect(refused.retryAfter).toBe(String(refused.json.error.data.retryAfter));
    expect(await count()).toBe(before);
    // web3.js tells its caller what happened.
    const conn = new Connection(s.url, { commitment: 'confirmed', disableRetryOnRateLimit: true, httpHeaders: { 'x-forwarded-for': ip } });
    await expect(conn.sendRawTransaction(Buffer.from(await transfer(), 'base64'))).rejects.toThrow(/429 Too Many Requests: .*3 sendTransaction calls a minute to this node; try again in \d+ seconds/);
    // Another client address sends; the server's own flows do not go through /rpc.
    expect(typeof (await post(s.url, body('sendTransaction', [await transfer(), { encoding: 'base64' }]), '203.0.113.5')).json.result).toBe('string');
    await s.server.services.chain.sendTransaction(new Transaction().add(SystemProgram.transfer({ fromPubkey: s.server.services.chain.operator, toPubkey: payer.publicKey, lamports: 1 })), [], { kind: 'test_spend' });
    expect(await count()).toBe(before + 2);
  });

  it('simulateTransaction is paced per client address (2 a minute here)', async () => {
    const ip = '203.0.113.6';
    const payer = Keypair.generate();
    const { blockhash } = (await post(s.url, body('getLatestBlockhash'), ip)).json.result.value;
    const wire = new Transaction({ feePayer: payer.publicKey, recentBlockhash: blockhash })
      .add(SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: payer.publicKey, lamports: 0 }))
      .serialize({ requireAllSignatures: false, verifySignatures: false })
      .toString('base64');
    const simulate = () => post(s.url, body('simulateTransaction', [wire, { encoding: 'base64', replaceRecentBlockhash: true }]), ip);
    for (let i = 0; i < 2; i++) expect((await simulate()).json.result.value).toBeDefined();
    const refused = await simulate();
    expect(refused.status).toBe(429);
    expect(refused.json.error.message).toMatch(/^rate limit reached: each client address may make 2 simulateTransaction calls a minute to this node; try again in \d+ seconds$/);
    expect(refused.json.error.data.scope).toBe('simulate');
  });
});

describe('requests with calls that read many accounts being answered at once', () => {
  const limits = { answerBytes: 4 * MB, scanPerMin: 1000, sendPerMin: 10, simulatePerMin: 10 };

  it(`hold a slot each until answered: ${IN_FLIGHT.perAddress} per client address, ${IN_FLIGHT.total} in all; a batch holds one; answered ones free theirs`, () => {
    const guard = new RpcGuard(limits);
    const held = Array.from({ length: IN_FLIGHT.perAddress }, () => guard.request('192.0.2.1'));
    for (const r of held) {
      r.admit('getProgramAccounts');
      r.admit('getMultipleAccounts'); // the same request: no second slot
    }
    const extra = guard.request('192.0.2.1');
    expect(() => extra.admit('getTokenAccountsByOwner')).toThrow(`too many requests at once: each client address may have ${IN_FLIGHT.perAddress} requests to ${SCAN_METHODS.join(', ')} being answered at a time; wait for an answer, then try again in 1 second`);
    // Other methods are not held back.
    extra.admit('getBalance');
    held[0].release();
    extra.admit('getTokenAccountsByOwner');
    expect(guard.inFlight.stats()).toEqual({ total: IN_FLIGHT.perAddress, keys: 1 });

    // Many addresses together: the server's total.
    const others = Array.from({ length: IN_FLIGHT.total - IN_FLIGHT.perAddress }, (_, i) => guard.request(`192.0.2.${10 + i}`));
    for (const r of others) r.admit('getProgramAccounts');
    let refusal: unknown;
    try {
      guard.request('192.0.2.200').admit('getProgramAccounts');
    } catch (e) {
      refusal = e;
    }
    expect(refusal).toMatchObject({ code: 429, message: `server busy: ${IN_FLIGHT.total} requests to ${SCAN_METHODS.join(', ')} are being answered; try again in 1 second`, data: { retryAfter: 1, scope: 'server' } });
    for (const r of [...held, extra, ...others]) r.release();
    expect(guard.inFlight.stats()).toEqual({ total: 0, keys: 0 });
  });
});

describe('configuration of the /rpc limits', () => {
  it('has defaults, and a value that is not one is refused at start with what to set', () => {
    expect(loadConfig({}).rpc).toEqual({ answerBytes: 4 * MB, scanPerMin: 60, sendPerMin: 120, simulatePerMin: 300 });
    expect(loadConfig({ RPC_ANSWER_LIMIT_MB: '0.5', RPC_SEND_RATE_LIMIT_PER_MIN: '10' }).rpc).toMatchObject({ answerBytes: MB / 2, sendPerMin: 10 });
    expect(() => loadConfig({ RPC_ANSWER_LIMIT_MB: 'lots' })).toThrow('RPC_ANSWER_LIMIT_MB must be a number of megabytes from 0.0625 to 256 (got "lots")');
    expect(() => loadConfig({ RPC_ANSWER_LIMIT_MB: '0' })).toThrow('RPC_ANSWER_LIMIT_MB must be a number of megabytes from 0.0625 to 256 (got "0")');
    expect(() => loadConfig({ RPC_SCAN_RATE_LIMIT_PER_MIN: '0' })).toThrow('RPC_SCAN_RATE_LIMIT_PER_MIN must be a positive integer (got "0")');
    expect(() => loadConfig({ RPC_SIMULATE_RATE_LIMIT_PER_MIN: '1.5' })).toThrow('RPC_SIMULATE_RATE_LIMIT_PER_MIN must be a positive integer (got "1.5")');
  });
});
