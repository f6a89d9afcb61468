// Attack on per-client limits behind a reverse proxy (TRUST_PROXY=true, the README's setting for that
// deployment). A proxy such as nginx (`proxy_add_x_forwarded_for`) or a load balancer *appends* the
// address it saw to whatever X-Forwarded-For the client sent. Fastify's `trustProxy: true` (app.ts) and
// the WebSocket upgrade (rpc/websocket.ts upgradeClient: "the first X-Forwarded-For entry") take the
// left-most entry — the one the client wrote — so every per-address limit (faucet, PubSub sockets,
// sign-in, certificate creation, REST without a key) is counted per made-up address.
// Here the test is the proxy: requests come from 127.0.0.1 with "<client's header>, <real client>".
import fs from 'node:fs';
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Keypair, LAMPORTS_PER_SOL } from '@solana/web3.js';
import type { Server } from '../src/app';
import { AIRDROP_LIMITS } from '../src/json-rpc/faucet';
import { PUBSUB_LIMITS } from '../src/json-rpc/websocket';
import { startTestServer, tmpDataDir } from './helpers';

let server: Server;
let dir: string;
const REAL_CLIENT = '203.0.113.7';
/** What the proxy forwards: the client's own header, then the address the proxy saw. */
const viaProxy = (spoofed: string) => ({ 'x-forwarded-for': `${spoofed}, ${REAL_CLIENT}` });

beforeAll(async () => {
  dir = tmpDataDir();
  server = await startTestServer(dir, { TRUST_PROXY: 'true', ATTESTA_WORKER: 'false' });
}, 120_000);

afterAll(async () => {
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('attack: a made-up X-Forwarded-For entry behind the proxy', () => {
  // Proves: the faucet's per-client allowance (5 SOL / 10 airdrops an hour) is per spoofed entry: one
  // client takes the whole hourly faucet (25 SOL / 50 airdrops) for everyone.
  it('the faucet counts one real client once, whatever X-Forwarded-For it sends', async () => {
    const to = Keypair.generate().publicKey.toBase58();
    let granted = 0;
    for (let i = 0; i < 6; i++) {
      const res = await fetch(`${server.url}/rpc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...viaProxy(`198.51.100.${i + 1}`) },
        body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'requestAirdrop', params: [to, 2 * LAMPORTS_PER_SOL] }),
      });
      if (typeof ((await res.json()) as { result?: unknown }).result === 'string') granted++;
    }
    // 5 SOL a client an hour: two 2-SOL airdrops at most.
    expect(granted * 2 * LAMPORTS_PER_SOL).toBeLessThanOrEqual(AIRDROP_LIMITS.perClient.lamports);
  });

  // Proves: the PubSub cap of 10 sockets per client address is per spoofed entry.
  it('one real client cannot hold more WebSockets than the per-address cap', async () => {
    const u = new URL(server.url);
    const outcomes = await Promise.all(
      Array.from({ length: PUBSUB_LIMITS.socketsPerAddress + 5 }, (_, i) =>
        new Promise<'open' | 'refused'>((resolve, reject) => {
          const req = http.request({
            host: u.hostname,
            port: u.port,
            path: '/rpc',
            headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': randomBytes(16).toString('base64'), ...viaProxy(`198.51.100.${100 + i}`) },
          });
          req.on('upgrade', (_res, sock, head: Buffer) => {
            // A refused socket gets a close frame (opcode 8) at once; an accepted one gets nothing.
            // The frame may come in the same read as the 101 response: node passes those bytes as `head`.
            const t = setTimeout(() => resolve('open'), 500);
            const first = (d: Buffer) => {
              clearTimeout(t);
              resolve((d[0] & 0x0f) === 0x8 ? 'refused' : 'open');
            };
            if (head.length) first(head);
            else sock.once('data', first);
            setTimeout(() => sock.destroy(), 1500);
          });
          req.on('error', reject);
          req.end();
        }),
      ),
    );
    expect(outcomes.filter((o) => o === 'open').length).toBeLessThanOrEqual(PUBSUB_LIMITS.socketsPerAddress);
  });
});
