import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Transaction } from '@solana/web3.js';
import bs58 from 'bs58';

/**
 * A JSON-RPC proxy in front of a real endpoint that fails like a cluster can:
 * - `down` drops every connection (the RPC is unreachable);
 * - `dropSends` accepts that many transactions and loses them (answering with their signature, as an
 *   RPC node does when its forward is lost; `Infinity` loses every one);
 * - `heightOffset` reports the block height that far ahead (every blockhash expired).
 * `sends` counts sendTransaction calls; `landed` holds the signatures actually forwarded.
 */
export async function startFlakyRpc(target: string) {
  const state = { down: false, dropSends: 0, heightOffset: 0, sends: 0, landed: new Set<string>() };
  const server = http.createServer(async (req, res) => {
    if (state.down) return req.socket.destroy();
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString();
    const msg = JSON.parse(body) as { id: unknown; method: string; params?: unknown[] };
    const reply = (v: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(v));
    if (msg.method === 'sendTransaction') {
      state.sends++;
      const sig = bs58.encode(Transaction.from(Buffer.from(String(msg.params![0]), 'base64')).signature!);
      if (state.dropSends > 0) {
        state.dropSends--;
        return reply({ jsonrpc: '2.0', id: msg.id, result: sig });
      }
      state.landed.add(sig);
    }
    const upstream = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).catch(() => null);
    if (!upstream) return req.socket.destroy();
    const json = (await upstream.json()) as { result?: unknown };
    if (msg.method === 'getBlockHeight' && typeof json.result === 'number') json.result += state.heightOffset;
    reply(json);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/rpc`,
    state,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
