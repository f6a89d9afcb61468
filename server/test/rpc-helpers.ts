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

/**
 * A bare WebSocket client for `ws://…/rpc` (RFC 6455 over node:http, no dependency): JSON-RPC calls
 * matched by id, notifications collected, and the close code/reason the server sent.
 */
export interface RpcSocket {
  /** Sends one JSON-RPC request and resolves with its reply (result or error). */
  call(method: string, params?: unknown[]): Promise<{ result?: unknown; error?: { code: number; message: string } }>;
  /** Resolves with the server's close frame (or 1006 when the connection dropped without one). */
  closed: Promise<{ code: number; reason: string }>;
  notifications: unknown[];
  close(): Promise<void>;
  /** Drops the TCP connection without a close frame (a client that vanished). */
  destroy(): void;
}

export async function openRpcSocket(httpUrl: string, headers: Record<string, string> = {}, answerPings = true): Promise<RpcSocket> {
  const http = await import('node:http');
  const { randomBytes } = await import('node:crypto');
  const u = new URL(httpUrl);
  const req = http.request({
    host: u.hostname,
    port: u.port,
    path: u.pathname,
    headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': randomBytes(16).toString('base64'), ...headers },
  });
  const { socket, head } = await new Promise<{ socket: import('node:net').Socket; head: Buffer }>((resolve, reject) => {
    req.on('upgrade', (_res, socket, head) => resolve({ socket, head }));
    req.on('response', (res) => reject(new Error(`no upgrade: HTTP ${res.statusCode}`)));
    req.on('error', reject);
    req.end();
  });
  let nextId = 0;
  const pending = new Map<number, (v: { result?: unknown; error?: { code: number; message: string } }) => void>();
  const notifications: unknown[] = [];
  let buf = Buffer.alloc(0);
  let closeFrame: { code: number; reason: string } | null = null;
  const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.on('close', () => resolve(closeFrame ?? { code: 1006, reason: '' })));
  const write = (opcode: number, payload: Buffer) => {
    const mask = randomBytes(4);
    const n = payload.length;
    const headLen = n < 126 ? 2 : n < 65536 ? 4 : 10;
    const head = Buffer.alloc(headLen);
    head[0] = 0x80 | opcode;
    if (n < 126) head[1] = 0x80 | n;
    else if (n < 65536) {
      head[1] = 0x80 | 126;
      head.writeUInt16BE(n, 2);
    } else {
      head[1] = 0x80 | 127;
      head.writeBigUInt64BE(BigInt(n), 2);
    }
    const body = Buffer.from(payload);
    for (let i = 0; i < n; i++) body[i] ^= mask[i & 3];
    if (!socket.destroyed) socket.write(Buffer.concat([head, mask, body]));
  };
  const onData = (d: Buffer) => {
    buf = Buffer.concat([buf, d]);
    for (;;) {
      if (buf.length < 2) return;
      let len = buf[1] & 0x7f;
      let off = 2;
      if (len === 126) {
        if (buf.length < 4) return;
        len = buf.readUInt16BE(2);
        off = 4;
      } else if (len === 127) {
        if (buf.length < 10) return;
        len = Number(buf.readBigUInt64BE(2));
        off = 10;
      }
      if (buf.length < off + len) return;
      const opcode = buf[0] & 0x0f;
      const payload = buf.subarray(off, off + len);
      buf = buf.subarray(off + len);
      if (opcode === 0x8) {
        closeFrame = { code: payload.length >= 2 ? payload.readUInt16BE(0) : 1005, reason: payload.subarray(2).toString('utf8') };
        socket.end();
        continue;
      }
      if (opcode === 0x9 && answerPings) write(0xa, Buffer.from(payload));
      if (opcode !== 0x1) continue;
      const msg = JSON.parse(payload.toString('utf8'));
      if (typeof msg.id === 'number' && pending.has(msg.id)) {
        pending.get(msg.id)!(msg);
        pending.delete(msg.id);
      } else notifications.push(msg);
    }
  };
  socket.on('data', onData);
  if (head.length) onData(head);
  return {
    call(method, params = []) {
      const id = ++nextId;
      const p = new Promise<{ result?: unknown; error?: { code: number; message: string } }>((resolve) => pending.set(id, resolve));
      write(0x1, Buffer.from(JSON.stringify({ jsonrpc: '2.0', id, method, params })));
      return p;
    },
    closed,
    notifications,
    async close() {
      if (!socket.destroyed) write(0x8, Buffer.from([0x03, 0xe8]));
      await closed;
    },
    destroy() {
      socket.destroy();
    },
  };
}
