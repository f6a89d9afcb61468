import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { PublicKey } from '@solana/web3.js';
import type { FastifyInstance } from 'fastify';
import type { ChainService } from '../services/chain/types';
import { invalidParams, RpcCode, RpcError } from './errors';
import { journalEvents, type LandedTransaction } from './journal';

// The validator's PubSub (signatureSubscribe, accountSubscribe, slotSubscribe) on `ws://host/rpc`:
// web3.js's confirmTransaction waits for its signature subscription before it polls the status,
// so without this a Connection could never confirm. A minimal RFC 6455 server (text frames,
// fragmentation, ping/pong, close; no extensions) keeps the server free of another dependency.

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
const MAX_MESSAGE = 1024 * 1024;

type Encoder = (acc: Awaited<ReturnType<ChainService['getAccountInfo']>>, cfg: Record<string, unknown>) => unknown;

interface Sub {
  id: number;
  kind: 'signature' | 'account' | 'slot';
  key?: string;
  cfg: Record<string, unknown>;
}

class Socket {
  private buf = Buffer.alloc(0);
  private fragments: Buffer[] = [];
  private closed = false;
  constructor(
    private readonly sock: Duplex,
    private readonly onText: (text: string) => void,
    private readonly onClose: () => void,
  ) {
    sock.on('data', (d: Buffer) => this.read(d));
    sock.on('close', () => this.finish());
    sock.on('error', () => this.finish());
  }

  private finish() {
    if (this.closed) return;
    this.closed = true;
    this.onClose();
  }

  private read(d: Buffer) {
    this.buf = Buffer.concat([this.buf, d]);
    for (;;) {
      if (this.buf.length < 2) return;
      const b0 = this.buf[0];
      const b1 = this.buf[1];
      const fin = (b0 & 0x80) !== 0;
      const opcode = b0 & 0x0f;
      const masked = (b1 & 0x80) !== 0;
      let len = b1 & 0x7f;
      let off = 2;
      if (len === 126) {
        if (this.buf.length < 4) return;
        len = this.buf.readUInt16BE(2);
        off = 4;
      } else if (len === 127) {
        if (this.buf.length < 10) return;
        const big = this.buf.readBigUInt64BE(2);
        if (big > BigInt(MAX_MESSAGE)) return this.close(1009, 'message too big');
        len = Number(big);
        off = 10;
      }
      // Clients must mask every frame (RFC 6455 §5.1).
      if (!masked) return this.close(1002, 'unmasked client frame');
      if (this.buf.length < off + 4 + len) return;
      const mask = this.buf.subarray(off, off + 4);
      const payload = Buffer.from(this.buf.subarray(off + 4, off + 4 + len));
      for (let i = 0; i < payload.length; i++) payload[i] ^= mask[i & 3];
      this.buf = this.buf.subarray(off + 4 + len);
      if (opcode === 0x8) return this.close(1000, '');
      if (opcode === 0x9) {
        this.frame(0xa, payload);
        continue;
      }
      if (opcode === 0xa) continue;
      if (opcode === 0x1 || opcode === 0x2 || opcode === 0x0) {
        this.fragments.push(payload);
        if (this.fragments.reduce((n, f) => n + f.length, 0) > MAX_MESSAGE) return this.close(1009, 'message too big');
        if (fin) {
          const text = Buffer.concat(this.fragments).toString('utf8');
          this.fragments = [];
          this.onText(text);
        }
        continue;
      }
      return this.close(1002, 'unknown opcode');
    }
  }

  private frame(opcode: number, payload: Buffer) {
    if (this.closed) return;
    const n = payload.length;
    const head = n < 126 ? Buffer.from([0x80 | opcode, n]) : n < 65536 ? Buffer.alloc(4) : Buffer.alloc(10);
    if (n >= 126 && n < 65536) {
      head[0] = 0x80 | opcode;
      head[1] = 126;
      head.writeUInt16BE(n, 2);
    } else if (n >= 65536) {
      head[0] = 0x80 | opcode;
      head[1] = 127;
      head.writeBigUInt64BE(BigInt(n), 2);
    }
    this.sock.write(Buffer.concat([head, payload]));
  }

  send(text: string) {
    this.frame(0x1, Buffer.from(text, 'utf8'));
  }

  close(code: number, reason: string) {
    if (this.closed) return;
    const p = Buffer.alloc(2 + Buffer.byteLength(reason));
    p.writeUInt16BE(code, 0);
    p.write(reason, 2);
    this.frame(0x8, p);
    this.sock.end();
    this.finish();
  }
}

export function registerPubSub(
  app: FastifyInstance,
  chain: ChainService,
  p: { encodeAccount: Encoder; path: string; rentEpochSentinel: string },
) {
  const events = journalEvents(chain);
  let nextId = 0;
  const sockets = new Set<Socket>();

  app.server.on('upgrade', (req: IncomingMessage, sock: Duplex) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== p.path) {
      if (app.server.listenerCount('upgrade') === 1) sock.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
      return;
    }
    const key = req.headers['sec-websocket-key'];
    if (typeof key !== 'string' || (req.headers.upgrade ?? '').toLowerCase() !== 'websocket') {
      sock.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
      return;
    }
    const accept = createHash('sha1').update(key + GUID).digest('base64');
    sock.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);

    const subs = new Map<number, Sub>();
    const send = (o: unknown) => ws.send(JSON.stringify(o).replaceAll(`"${p.rentEpochSentinel}"`, '18446744073709551615'));
    const notify = (method: string, sub: Sub, result: unknown) => send({ jsonrpc: '2.0', method, params: { result, subscription: sub.id } });

    const onLanded = async (t: LandedTransaction) => {
      for (const sub of [...subs.values()]) {
        if (sub.kind === 'signature' && sub.key === t.signature) {
          subs.delete(sub.id); // the validator disposes a signature subscription once it fires
          notify('signatureNotification', sub, { context: { slot: t.slot }, value: { err: t.err } });
        } else if (sub.kind === 'account' && sub.key && t.keys.includes(sub.key)) {
          const acc = await chain.getAccountInfo(new PublicKey(sub.key));
          try {
            notify('accountNotification', sub, { context: { slot: t.slot }, value: p.encodeAccount(acc, sub.cfg) });
          } catch {
            /* an encoding the account cannot take (base58 > 128 bytes) was refused at subscribe time */
          }
        } else if (sub.kind === 'slot') {
          notify('slotNotification', sub, { parent: Math.max(0, t.slot - 1), root: t.slot, slot: t.slot });
        }
      }
    };
    events.on('landed', onLanded);

    const ws = new Socket(
      sock,
      (text) => void handle(text),
      () => {
        events.off('landed', onLanded);
        sockets.delete(ws);
      },
    );
    sockets.add(ws);

    async function handle(text: string) {
      let req: Record<string, unknown>;
      try {
        req = JSON.parse(text);
      } catch {
        return send({ jsonrpc: '2.0', error: { code: RpcCode.ParseError, message: 'Parse error' }, id: null });
      }
      const id = (req?.id ?? null) as string | number | null;
      try {
        if (typeof req !== 'object' || req === null || req.jsonrpc !== '2.0' || typeof req.method !== 'string') throw new RpcError(RpcCode.InvalidRequest, 'Invalid request');
        const params = (Array.isArray(req.params) ? req.params : []) as unknown[];
        const cfgOf = (v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
        let result: unknown;
        switch (req.method) {
          case 'signatureSubscribe': {
            if (typeof params[0] !== 'string') throw invalidParams('Invalid params: expected a signature.');
            const sub: Sub = { id: ++nextId, kind: 'signature', key: params[0], cfg: cfgOf(params[1]) };
            subs.set(sub.id, sub);
            result = sub.id;
            break;
          }
          case 'accountSubscribe': {
            if (typeof params[0] !== 'string') throw invalidParams('Invalid params: expected a pubkey.');
            let key: PublicKey;
            try {
              key = new PublicKey(params[0]);
            } catch {
              throw invalidParams('Invalid param: Invalid');
            }
            const cfg = cfgOf(params[1]);
            p.encodeAccount(await chain.getAccountInfo(key), cfg); // refuse an impossible encoding now
            const sub: Sub = { id: ++nextId, kind: 'account', key: key.toBase58(), cfg };
            subs.set(sub.id, sub);
            result = sub.id;
            break;
          }
          case 'slotSubscribe': {
            const sub: Sub = { id: ++nextId, kind: 'slot', cfg: {} };
            subs.set(sub.id, sub);
            result = sub.id;
            break;
          }
          case 'signatureUnsubscribe':
          case 'accountUnsubscribe':
          case 'slotUnsubscribe': {
            const sid = params[0];
            if (typeof sid !== 'number' || !subs.has(sid)) throw invalidParams('Invalid subscription id.');
            subs.delete(sid);
            result = true;
            break;
          }
          default:
            throw new RpcError(RpcCode.MethodNotFound, 'Method not found');
        }
        send({ jsonrpc: '2.0', result, id });
      } catch (e) {
        if (e instanceof RpcError) send({ jsonrpc: '2.0', error: { code: e.code, message: e.message }, id });
        else send({ jsonrpc: '2.0', error: { code: RpcCode.Internal, message: 'Internal error' }, id });
      }
    }
  });

  // Open sockets would keep app.close() waiting.
  app.addHook('onClose', async () => {
    for (const s of sockets) s.close(1001, 'server shutting down');
  });
}
