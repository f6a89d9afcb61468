import Fastify, { type FastifyInstance } from 'fastify';
import type { Server } from '../src/app';
import { registerJsonRpc } from '../src/rpc';
import { startTestServer } from './helpers';

/**
 * The server's `/rpc` URL. When app.ts does not mount the JSON-RPC plugin yet, the same plugin is
 * mounted on a side Fastify over the *same* services (chain, DB), so the tests exercise it unchanged.
 */
export async function rpcUrlOf(s: Server): Promise<{ url: string; close(): Promise<void> }> {
  const probe = await fetch(`${s.url}/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"getHealth"}' });
  if (probe.status === 200) return { url: `${s.url}/rpc`, close: async () => {} };
  const side: FastifyInstance = Fastify();
  await registerJsonRpc(side, s.services);
  await side.listen({ port: 0, host: '127.0.0.1' });
  const addr = side.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return { url: `http://127.0.0.1:${port}/rpc`, close: () => side.close() };
}

export async function startRpcServer(dataDir: string, env: Record<string, string> = {}) {
  const server = await startTestServer(dataDir, { ATTESTA_DEMO_DATA: 'true', ATTESTA_WORKER: 'false', ...env });
  const rpc = await rpcUrlOf(server);
  return {
    server,
    url: rpc.url,
    async close() {
      await rpc.close();
      await server.close();
    },
  };
}

/** A raw JSON-RPC call (single or batch), returning the parsed body and the HTTP response. */
export async function rpcCall(url: string, body: unknown) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: text ? JSON.parse(text) : undefined };
}
