import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Transaction } from '@solana/web3.js';
import bs58 from 'bs58';

/**
 * A JSON-RPC proxy in front of a real endpoint that misbehaves like a loaded cluster: it can
 * accept a transaction and drop it (answering with its signature, as an RPC node does when its
 * forward is lost) and report the block height far ahead (every blockhash expired).
 */
export async function startFlakyRpc(target: string) {
  const state = { dropSends: 0, heightOffset: 0, sends: 0 };
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString();
    const msg = JSON.parse(body) as { id: unknown; method: string; params?: unknown[] };
    const reply = (v: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(v));
    if (msg.method === 'sendTransaction') {
      state.sends++;
      if (state.dropSends > 0) {
        state.dropSends--;
        const tx = Transaction.from(Buffer.from(String(msg.params![0]), 'base64'));
        return reply({ jsonrpc: '2.0', id: msg.id, result: bs58.encode(tx.signature!) });
      }
    }
    const upstream = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const json = (await upstream.json()) as { result?: unknown };
    if (msg.method === 'getBlockHeight' && typeof json.result === 'number') json.result += state.heightOffset;
    reply(json);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/rpc`,
    state,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
