// Attacks on the limits (resource exhaustion): what one anonymous client can make the server hold.
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { randomBytes } from 'node:crypto';
import type { Duplex } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Keypair, LAMPORTS_PER_SOL, PublicKey, SystemProgram, Transaction } from '@solana/web3.js';
import { TOKEN_2022_ID } from '../../shared/program/ids';
import type { Server } from '../src/app';
import { PUBSUB_LIMITS, pubSubStats } from '../src/json-rpc/websocket';
import { startTestServer, tmpDataDir, waitFor } from './helpers';
import { rpcConnection } from './attack-support/world';

let server: Server;
let dir: string;

beforeAll(async () => {
  dir = tmpDataDir();
  server = await startTestServer(dir, { ATTESTA_WORKER: 'false' });
}, 120_000);

afterAll(async () => {
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A WebSocket to /rpc that sends masked text frames and can stop reading (a client that never drains). */
async function rawSocket(url: string) {
  const u = new URL(url);
  const req = http.request({ host: u.hostname, port: u.port, path: '/rpc', headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': randomBytes(16).toString('base64') } });
  const socket = await new Promise<net.Socket>((resolve, reject) => {
    req.on('upgrade', (_res, s) => resolve(s as net.Socket));
    req.on('error', reject);
    req.end();
  });
  const closed = new Promise<void>((r) => socket.on('close', () => r()));
  const text = (s: string) => {
    const payload = Buffer.from(s);
    const mask = randomBytes(4);
    const head = payload.length < 126 ? Buffer.from([0x81, 0x80 | payload.length]) : Buffer.from([0x81, 0x80 | 126, payload.length >> 8, payload.length & 0xff]);
    const body = Buffer.from(payload);
    for (let i = 0; i < body.length; i++) body[i] ^= mask[i & 3];
    socket.write(Buffer.concat([head, mask, body]));
  };
  return { socket, text, closed };
}

const LOADER = new PublicKey('BPFLoaderUpgradeab1e11111111111111111111111');
/** Token-2022's program data: ~616 KB, public, and any transaction may list it as a read-only account. */
const TOKEN_2022_PROGRAM_DATA = PublicKey.findProgramAddressSync([TOKEN_2022_ID.toBuffer()], LOADER)[0];

describe('attack: WebSocket notifications to a client that never reads', () => {
  // Proves: the PubSub caps count sockets and subscriptions, not bytes. Socket.frame() writes every
  // notification with sock.write() and never looks at backpressure or size, and accountSubscribe takes
  // any account. The attacker subscribes (base64) to Token-2022's program-data account (616 KB → 821 KB
  // of base64 per notification) up to the caps, stops reading, and sends one ordinary transaction
  // (a 1-lamport self-transfer, fee 5,000 lamports from the faucet) that lists that account read-only:
  // the server encodes and queues subscriptions × 821 KB in its own memory — per transaction, without
  // end. At the caps (10 sockets × 100 subscriptions from one address) that is ~820 MB per transaction.
  // This test uses 2 sockets (~160 MB) to keep the machine alive.
  it('a client that stops reading cannot make the server buffer more than a few MB for it', async () => {
    const serverSide: Duplex[] = [];
    server.app.server.on('upgrade', (_req: unknown, s: Duplex) => serverSide.push(s));
    const conn = rpcConnection(server);
    const attacker = Keypair.generate();
    await conn.confirmTransaction(await conn.requestAirdrop(attacker.publicKey, LAMPORTS_PER_SOL), 'confirmed');
    const SOCKETS = 2;
    const clients = [];
    for (let i = 0; i < SOCKETS; i++) {
      const c = await rawSocket(server.url);
      for (let k = 0; k < PUBSUB_LIMITS.subscriptionsPerSocket; k++) {
        c.text(JSON.stringify({ jsonrpc: '2.0', id: k, method: 'accountSubscribe', params: [TOKEN_2022_PROGRAM_DATA.toBase58(), { encoding: 'base64' }] }));
      }
      clients.push(c);
    }
    await waitFor(async () => pubSubStats(server.app).subscriptions === SOCKETS * PUBSUB_LIMITS.subscriptionsPerSocket, 60_000);
    for (const c of clients) c.socket.pause(); // the attacker stops reading; it keeps its connections open

    const ix = SystemProgram.transfer({ fromPubkey: attacker.publicKey, toPubkey: attacker.publicKey, lamports: 1 });
    ix.keys.push({ pubkey: TOKEN_2022_PROGRAM_DATA, isSigner: false, isWritable: false });
    const started = Date.now();
    await conn.sendTransaction(new Transaction().add(ix), [attacker]); // answered once it has landed (embedded chain)
    await new Promise((r) => setTimeout(r, 1000));
    const queued = serverSide.reduce((n, s) => n + (s.destroyed ? 0 : (s as net.Socket).writableLength), 0);
    console.log(`attack-resources: one 5000-lamport transaction made the server queue ${(queued / 1024 / 1024).toFixed(1)} MB for ${SOCKETS} non-reading sockets (${Date.now() - started} ms)`);
    for (const c of clients) c.socket.destroy();
    expect(queued).toBeLessThan(16 * 1024 * 1024);
  });
});

describe('attack: bodies that never finish (slowloris)', () => {
  // Proves: fastify's defaults in app.ts (requestTimeout 0 — which also switches off Node's own 300 s
  // request timeout — and connectionTimeout 0), no minimum body rate and no per-address connection
  // cap: a client that opens connections and sends each body one byte at a time holds every one of
  // them open for as long as it likes. 200 here from one address, still all open after 70 s; the
  // process's descriptors (ulimit) are the only bound, after which nobody can connect.
  it('connections whose body trickles in at a byte every 5 s are closed by the server within 70 s', async () => {
    const u = new URL(server.url);
    const N = 200;
    const sockets: net.Socket[] = [];
    let closedByServer = 0;
    for (let i = 0; i < N; i++) {
      const s = net.connect(Number(u.port), u.hostname);
      s.on('error', () => undefined);
      s.on('close', () => closedByServer++);
      s.write(`POST /trpc/public.verifyFile HTTP/1.1\r\nHost: ${u.host}\r\nContent-Type: multipart/form-data; boundary=x\r\nContent-Length: 1000000\r\n\r\n--x\r\n`);
      sockets.push(s);
    }
    const drip = setInterval(() => {
      for (const s of sockets) if (!s.destroyed) s.write('a');
    }, 5000);
    // Until the server has closed them all, or 70 s have passed (at 1 KB/s after a 10 s grace, it
    // closes them after about 12 s).
    const started = Date.now();
    while (closedByServer < N && Date.now() - started < 70_000) await new Promise((r) => setTimeout(r, 250));
    clearInterval(drip);
    const open = sockets.filter((s) => !s.destroyed).length;
    console.log(`attack-resources: ${open} of ${N} trickling connections still open after ${((Date.now() - started) / 1000).toFixed(0)} s (server requestTimeout=${server.app.server.requestTimeout}, connectionTimeout via setTimeout=${server.app.server.timeout})`);
    for (const s of sockets) s.destroy();
    expect(closedByServer).toBe(N);
  }, 120_000);
});
