import type { Server } from '../src/app';
import { startTestServer } from './helpers';

/** The server's `/rpc` URL (mounted by app.ts on the embedded chain). */
export async function rpcUrlOf(s: Server): Promise<{ url: string; close(): Promise<void> }> {
  return { url: `${s.url}/rpc`, close: async () => {} };
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
