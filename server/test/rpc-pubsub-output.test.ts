/**
 * What PubSub notifications can make the server hold in bytes (red-team finding 2: a client that
 * subscribes to a big account many times and stops reading). Deterministic: a fake chain that lands
 * transactions on demand, and in-memory sockets whose writes complete only while the "client" reads,
 * so the server's unread output (writableLength) is exactly what it queued. The attack itself, over
 * TCP against the real server, is server/test/attack-resources.test.ts.
 */
import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import { Duplex } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Keypair, PublicKey } from '@solana/web3.js';
import { TOKEN_2022_ID } from '../../shared/program/ids';
import { PUBSUB_LIMITS, pubSubEncodings, pubSubStats, registerPubSub, type PubSubLimits } from '../src/json-rpc/websocket';
import type { AccountSnapshot, ChainService, LandedTransaction } from '../src/services/chain/types';
import { tmpDataDir } from './helpers';
import { openRpcSocket, startRpcServer } from './rpc-helpers';

const KB = 1024;
const MB = 1024 * KB;

/** A chain with one account of settable size; `land` tells listeners of a transaction naming `keys`. */
function fakeChain() {
  const listeners: ((t: LandedTransaction) => unknown)[] = [];
  const account = Keypair.generate().publicKey.toBase58();
  let data = new Uint8Array(0);
  let slot = 10;
  const chain = {
    onLanded(l: (t: LandedTransaction) => unknown) {
      listeners.push(l);
      return () => listeners.splice(listeners.indexOf(l), 1);
    },
    async getAccountInfo(k: PublicKey): Promise<AccountSnapshot | null> {
      return k.toBase58() === account ? { pubkey: account, owner: TOKEN_2022_ID.toBase58(), lamports: 1n, data, executable: false } : null;
    },
  };
  return {
    chain: chain as unknown as ChainService,
    account,
    setSize(n: number) {
      data = new Uint8Array(n).fill(7);
    },
    async land(keys = [account]) {
      const t = { signature: randomBytes(8).toString('hex'), slot: ++slot, keys, err: null } as unknown as LandedTransaction;
      for (const l of [...listeners]) await l(t);
      await new Promise((r) => setTimeout(r, 20)); // notifications are queued after the account reads
    },
    listeners,
  };
}

/** The validator's encoder, small: base64 of the data (sliced), as encodeAccount answers. */
function encoder() {
  let calls = 0;
  const encodeAccount = (acc: AccountSnapshot | null, cfg: Record<string, unknown>) => {
    calls++;
    if (!acc) return null;
    const s = cfg.dataSlice as { offset: number; length: number } | undefined;
    const data = Buffer.from(acc.data).subarray(s?.offset ?? 0, s ? s.offset + s.length : undefined);
    return { data: [data.toString('base64'), 'base64'], lamports: Number(acc.lamports), owner: acc.owner, executable: false, rentEpoch: 0, space: acc.data.length };
  };
  return { encodeAccount, calls: () => calls };
}

/** A WebSocket client in memory: writes to it complete only while it reads (`reading`), so unread output stays queued on the server. */
function memoryClient(app: FastifyInstance, address = '192.0.2.1') {
  const held: (() => void)[] = [];
  const received: Buffer[] = [];
  let reading = true;
  const duplex = new Duplex({
    read() {},
    write(chunk: Buffer, _enc, cb) {
      if (reading) {
        received.push(chunk);
        cb();
      } else held.push(() => (received.push(chunk), cb()));
    },
  });
  app.server.emit('upgrade', { url: '/rpc', headers: { upgrade: 'websocket', 'sec-websocket-key': randomBytes(16).toString('base64') }, socket: { remoteAddress: address } }, duplex);
  let nextId = 0;
  const frames = () => {
    let buf = Buffer.concat(received);
    buf = buf.subarray(buf.indexOf('\r\n\r\n') + 4); // after the 101 response
    const out: { opcode: number; payload: Buffer }[] = [];
    while (buf.length >= 2) {
      let len = buf[1] & 0x7f;
      let off = 2;
      if (len === 126) [len, off] = [buf.readUInt16BE(2), 4];
      else if (len === 127) [len, off] = [Number(buf.readBigUInt64BE(2)), 10];
      if (buf.length < off + len) break;
      out.push({ opcode: buf[0] & 0x0f, payload: buf.subarray(off, off + len) });
      buf = buf.subarray(off + len);
    }
    return out;
  };
  const messages = () => frames().filter((f) => f.opcode === 1).map((f) => JSON.parse(f.payload.toString('utf8')));
  return {
    duplex,
    /** Sends one JSON-RPC request (a masked text frame) and resolves with its reply. */
    async call(method: string, params: unknown[] = []) {
      const id = ++nextId;
      const payload = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
      const mask = randomBytes(4);
      const head = payload.length < 126 ? Buffer.from([0x81, 0x80 | payload.length]) : Buffer.from([0x81, 0x80 | 126, payload.length >> 8, payload.length & 0xff]);
      duplex.push(Buffer.concat([head, mask, payload.map((b, i) => b ^ mask[i & 3])]));
      await expect.poll(() => messages().some((m) => m.id === id)).toBe(true);
      return messages().find((m) => m.id === id) as { result?: unknown; error?: { code: number; message: string } };
    },
    notifications: () => messages().filter((m) => m.method),
    closeFrame() {
      const f = frames().find((x) => x.opcode === 8);
      return f && { code: f.payload.readUInt16BE(0), reason: f.payload.subarray(2).toString('utf8') };
    },
    stopReading() {
      reading = false;
    },
    read() {
      reading = true;
      for (const h of held.splice(0)) h();
    },
    /** What the server queued and this client has not read. */
    unread: () => duplex.writableLength,
  };
}

async function sideServer(limits: Partial<PubSubLimits> = {}) {
  const fake = fakeChain();
  const enc = encoder();
  const app = Fastify();
  registerPubSub(app, fake.chain, { encodeAccount: enc.encodeAccount, path: '/rpc', rentEpochSentinel: '_', limits: { heartbeatMs: 3_600_000, ...limits } });
  await app.ready();
  return { app, fake, enc };
}

const apps: FastifyInstance[] = [];
afterEach(async () => {
  for (const a of apps.splice(0)) await a.close();
});
async function side(limits: Partial<PubSubLimits> = {}) {
  const s = await sideServer(limits);
  apps.push(s.app);
  return s;
}

describe('PubSub output is bounded in bytes (finding 2)', () => {
  it('each account is encoded once per transaction and encoding, however many subscriptions and sockets want it', async () => {
    const { app, fake, enc } = await side();
    fake.setSize(3 * KB);
    const clients = [memoryClient(app, '192.0.2.1'), memoryClient(app, '192.0.2.2'), memoryClient(app, '192.0.2.3')];
    const ids: number[][] = [];
    for (const c of clients) {
      const mine: number[] = [];
      for (let i = 0; i < 30; i++) mine.push((await c.call('accountSubscribe', [fake.account, { encoding: 'base64' }])).result as number);
      for (let i = 0; i < 20; i++) mine.push((await c.call('accountSubscribe', [fake.account, { encoding: 'base64', dataSlice: { offset: 0, length: 16 } }])).result as number);
      ids.push(mine);
    }
    expect(fake.listeners).toHaveLength(1); // one listener for all sockets
    const before = enc.calls();
    expect(pubSubEncodings(app)).toBeGreaterThan(0);
    const encodedBefore = pubSubEncodings(app);
    await fake.land();
    // 150 notifications, 2 encodings (whole account, and the 16-byte slice).
    expect(enc.calls() - before).toBe(2);
    expect(pubSubEncodings(app) - encodedBefore).toBe(2);
    const whole = Buffer.alloc(3 * KB, 7).toString('base64');
    for (const [k, c] of clients.entries()) {
      const got = c.notifications();
      expect(got).toHaveLength(50);
      expect(got.map((n) => n.params.subscription).sort((a, b) => a - b)).toEqual([...ids[k]].sort((a, b) => a - b));
      for (const n of got) {
        expect(n.method).toBe('accountNotification');
        expect(n.params.result.context.slot).toBe(11);
        expect(n.params.result.value.data[0]).toBe(ids[k].indexOf(n.params.subscription) < 30 ? whole : Buffer.alloc(16, 7).toString('base64'));
      }
    }
    // A transaction that does not name the account encodes nothing.
    const calls = enc.calls();
    await fake.land([Keypair.generate().publicKey.toBase58()]);
    expect(enc.calls()).toBe(calls);
  });

  it(`a client that stops reading is closed as too slow (1008) before its unread output passes ${PUBSUB_LIMITS.bufferedBytesPerSocket / MB} MB; its queue is freed; the others are served`, async () => {
    const { app, fake } = await side();
    fake.setSize(600 * KB); // ~800 KB of base64 per notification, like Token-2022's program data
    const slow = memoryClient(app, '192.0.2.1');
    const reader = memoryClient(app, '192.0.2.2');
    for (let i = 0; i < PUBSUB_LIMITS.subscriptionsPerSocket; i++) expect(typeof (await slow.call('accountSubscribe', [fake.account, { encoding: 'base64' }])).result).toBe('number');
    expect(typeof (await reader.call('accountSubscribe', [fake.account, { encoding: 'base64' }])).result).toBe('number');
    slow.stopReading();
    let maxUnread = 0;
    slow.duplex.on('drain', () => undefined);
    const watch = setInterval(() => (maxUnread = Math.max(maxUnread, slow.unread())), 1);
    await fake.land();
    clearInterval(watch);
    maxUnread = Math.max(maxUnread, slow.unread());
    // Before the fix: 100 × 800 KB = 80 MB queued for this one socket, per transaction.
    expect(maxUnread).toBeLessThanOrEqual(PUBSUB_LIMITS.bufferedBytesPerSocket + 64 * KB);
    expect(pubSubStats(app)).toEqual({ sockets: 1, subscriptions: 1, addresses: 1 });
    // The close frame is queued behind what it did not read: a client that reads again gets it, and why.
    slow.read();
    await expect.poll(() => slow.closeFrame()).toEqual({ code: 1008, reason: 'client too slow: over 4 MB of messages left unread' });
    expect(slow.duplex.writableEnded).toBe(true);
    expect(reader.notifications()).toHaveLength(1);
    // The next transaction queues nothing more for it, and the reader still gets its notification.
    await fake.land();
    expect(reader.notifications()).toHaveLength(2);
  });

  it('all sockets together: past the overall budget a socket that is behind is closed (1013); one that keeps up is served', async () => {
    const { app, fake } = await side({ bufferedBytes: 1 * MB });
    fake.setSize(200 * KB); // ~270 KB of base64
    const behind = [memoryClient(app, '192.0.2.1'), memoryClient(app, '192.0.2.2'), memoryClient(app, '192.0.2.3')];
    const keeping = memoryClient(app, '192.0.2.4');
    for (const c of [...behind, keeping]) for (let i = 0; i < 3; i++) await c.call('accountSubscribe', [fake.account, { encoding: 'base64' }]);
    for (const c of behind) c.stopReading();
    await fake.land();
    const total = behind.reduce((n, c) => n + (c.duplex.destroyed ? 0 : c.unread()), 0);
    // Past the budget a socket with nothing unread still gets one notification (it has shown it reads):
    // the first behind socket queues 3 (~820 KB), the next two one each; unbounded it would be 9 (~2.4 MB).
    const notification = Math.ceil((200 * KB * 4) / 3) + 300;
    expect(total).toBeLessThanOrEqual(1 * MB + 2 * notification);
    const closed = behind.filter((c) => pubSubStats(app).sockets < 4 && c.closeFrame() === undefined && c.duplex.writableEnded);
    expect(closed.length).toBeGreaterThan(0);
    for (const c of behind) c.read();
    const codes = behind.map((c) => c.closeFrame()).filter(Boolean);
    expect(codes.length).toBeGreaterThan(0);
    for (const code of codes) expect(code).toEqual({ code: 1013, reason: 'server busy: too many notifications left unread; reconnect later' });
    expect(keeping.notifications()).toHaveLength(3);
  });

  it('an account whose notification would pass the size limit is refused at accountSubscribe; a dataSlice of it is fine; one that grows past it closes the socket with why', async () => {
    const { app, fake, enc } = await side({ notificationBytes: 64 * KB });
    const c = memoryClient(app);
    fake.setSize(100 * KB);
    const calls = enc.calls();
    expect((await c.call('accountSubscribe', [fake.account, { encoding: 'base64' }])).error).toEqual({
      code: -32600,
      message: 'Encoded account data is 136536 bytes; notifications are at most 65536 bytes on this node. Subscribe with a dataSlice, or read the account with getAccountInfo.',
    });
    expect(enc.calls()).toBe(calls); // refused from its size, nothing encoded
    expect(typeof (await c.call('accountSubscribe', [fake.account, { encoding: 'base64', dataSlice: { offset: 0, length: 1024 } }])).result).toBe('number');
    fake.setSize(1 * KB);
    expect(typeof (await c.call('accountSubscribe', [fake.account, { encoding: 'base64' }])).result).toBe('number');
    fake.setSize(100 * KB);
    await fake.land();
    expect(c.closeFrame()).toEqual({ code: 1008, reason: `account ${fake.account.slice(0, 8)}… grew past 0 MB: subscribe with a dataSlice` });
    expect(pubSubStats(app)).toEqual({ sockets: 0, subscriptions: 0, addresses: 0 });
  });

  it('a client that pings without reading the pongs is closed as too slow too; control frames over 125 bytes are refused', async () => {
    const { app } = await side({ bufferedBytesPerSocket: 8 * KB });
    const c = memoryClient(app);
    c.stopReading();
    const ping = (n: number) => {
      const mask = randomBytes(4);
      c.duplex.push(Buffer.concat([Buffer.from([0x89, 0x80 | n]), mask, Buffer.alloc(n, 1)]));
    };
    for (let i = 0; i < 200; i++) ping(100);
    await expect.poll(() => pubSubStats(app).sockets).toBe(0);
    expect(c.unread()).toBeLessThanOrEqual(8 * KB + 200);
    const big = memoryClient(app, '192.0.2.9');
    const mask = randomBytes(4);
    big.duplex.push(Buffer.concat([Buffer.from([0x89, 0x80 | 126, 0, 200]), mask, Buffer.alloc(200, 1)]));
    await expect.poll(() => big.closeFrame()).toEqual({ code: 1002, reason: 'invalid control frame' });
  });
});

describe('PubSub on the real server: Token-2022 program data (finding 2)', () => {
  const dir = tmpDataDir();
  let s: Awaited<ReturnType<typeof startRpcServer>>;
  beforeAll(async () => {
    s = await startRpcServer(dir);
  });
  afterAll(async () => {
    await s?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('base64 of the 616 KB account is within the 1 MB notification limit; base58 is refused as Agave does; a slice is fine', async () => {
    const LOADER = new PublicKey('BPFLoaderUpgradeab1e11111111111111111111111');
    const programData = PublicKey.findProgramAddressSync([TOKEN_2022_ID.toBuffer()], LOADER)[0].toBase58();
    const ws = await openRpcSocket(s.url);
    expect(typeof (await ws.call('accountSubscribe', [programData, { encoding: 'base64' }])).result).toBe('number');
    expect((await ws.call('accountSubscribe', [programData])).error).toEqual({ code: -32600, message: 'Encoded binary (base 58) data should be less than 128 bytes, please use Base64 encoding.' });
    expect(typeof (await ws.call('accountSubscribe', [programData, { encoding: 'base64', dataSlice: { offset: 0, length: 64 } }])).result).toBe('number');
    await ws.close();
    expect(pubSubStats(s.server.app)).toEqual({ sockets: 0, subscriptions: 0, addresses: 0 });
  });
});
