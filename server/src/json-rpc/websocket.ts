import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { PublicKey } from '@solana/web3.js';
import type { FastifyInstance } from 'fastify';
import type { ChainService, LandedTransaction } from '../services/chain/types';
import { invalidParams, RpcCode, RpcError } from './errors';
import { clientKey } from './faucet';
import { acceptKey, Socket } from './ws-socket';

// The validator's PubSub (signatureSubscribe, accountSubscribe, slotSubscribe) on `ws://host/rpc`:
// web3.js's confirmTransaction waits for its signature subscription before it polls the status,
// so without this a Connection could never confirm. A minimal RFC 6455 server (text frames,
// fragmentation, ping/pong, close; no extensions: ./ws-socket.ts) keeps the server free of another dependency.


/**
 * Every WebSocket is anonymous, so what one client can hold is bounded:
 * - 100 subscriptions a socket: a web3.js Connection multiplexes all of an app's subscriptions on one
 *   socket, and a wallet or this product's pages hold a handful (a signature per transaction being
 *   confirmed, an account per record on screen); 100 is far above that and keeps the per-transaction
 *   fan-out (every landed transaction is matched against every subscription) small.
 * - 10 sockets per client address (IPv4, or IPv6 /64): a few tabs or test processes on one machine.
 *   Behind a proxy set TRUST_PROXY, otherwise every client shares the proxy's address.
 * - 1,000 sockets in all: with the per-socket cap at most 100,000 live subscriptions in the process.
 * Refusals: a subscribe over the cap gets Agave's "Subscription refused" JSON-RPC error (the socket
 * stays usable); a socket over a connection cap is accepted and closed at once with a close code
 * (1008 policy violation per address, 1013 try again later when the server is full) and the reason.
 */
export const PUBSUB_LIMITS = {
  subscriptionsPerSocket: 100,
  socketsPerAddress: 10,
  sockets: 1000,
  /** Ping round: a socket silent for two whole rounds (no pong) is dropped, so vanished clients free their slots. */
  heartbeatMs: 30_000,
};
export type PubSubLimits = typeof PUBSUB_LIMITS;

type Stats = { sockets: number; subscriptions: number; addresses: number };

declare module 'fastify' {
  interface FastifyInstance {
    /** Live PubSub state (registerPubSub). */
    pubSubStats?: () => Stats;
  }
}

/** Live PubSub state of a server (tests: caps hold and everything is freed on close). */
export function pubSubStats(app: FastifyInstance): Stats {
  return app.pubSubStats?.() ?? { sockets: 0, subscriptions: 0, addresses: 0 };
}

/** The client address of an upgrade request, as fastify's req.ip: the first X-Forwarded-For entry only with TRUST_PROXY. */
function upgradeClient(req: IncomingMessage, trustProxy: boolean): string {
  const forwarded = req.headers['x-forwarded-for'];
  const first = trustProxy && typeof forwarded === 'string' ? forwarded.split(',')[0].trim() : '';
  return clientKey(first || req.socket.remoteAddress || 'unknown');
}

type Encoder = (acc: Awaited<ReturnType<ChainService['getAccountInfo']>>, cfg: Record<string, unknown>) => unknown;

interface Sub {
  id: number;
  kind: 'signature' | 'account' | 'slot';
  key?: string;
  cfg: Record<string, unknown>;
}

export function registerPubSub(
  app: FastifyInstance,
  chain: ChainService,
  p: { encodeAccount: Encoder; path: string; rentEpochSentinel: string; trustProxy?: boolean; limits?: Partial<PubSubLimits> },
) {
  const limits: PubSubLimits = { ...PUBSUB_LIMITS, ...p.limits };
  let nextId = 0;
  const sockets = new Map<Socket, Map<number, Sub>>(); // every open socket and its subscriptions
  const perAddress = new Map<string, number>();
  const heartbeat = setInterval(() => {
    for (const ws of [...sockets.keys()]) ws.heartbeat();
  }, limits.heartbeatMs);
  heartbeat.unref();
  app.decorate('pubSubStats', () => ({
    sockets: sockets.size,
    subscriptions: [...sockets.values()].reduce((n, subs) => n + subs.size, 0),
    addresses: perAddress.size,
  }));

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
    const accept = acceptKey(key);
    sock.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);

    // Over a connection cap: accepted, then closed with the reason (browsers cannot read an HTTP
    // refusal of a WebSocket handshake, but they do get the close code and reason).
    const address = upgradeClient(req, p.trustProxy ?? false);
    const held = perAddress.get(address) ?? 0;
    const refusal =
      held >= limits.socketsPerAddress
        ? ([1008, `too many connections: at most ${limits.socketsPerAddress} WebSockets per client address`] as const)
        : sockets.size >= limits.sockets
          ? ([1013, `server busy: ${limits.sockets} WebSockets open; try again later`] as const)
          : null;
    if (refusal) {
      new Socket(sock, () => undefined, () => undefined).close(refusal[0], refusal[1]);
      return;
    }
    perAddress.set(address, held + 1);

    const subs = new Map<number, Sub>();
    let open = true;
    /** Adds a subscription unless the socket holds the most it may (checked when it is added: subscribe handlers can await). */
    const subscribe = (sub: Omit<Sub, 'id'>) => {
      if (!open) throw new RpcError(RpcCode.Internal, 'Internal error: connection closed');
      if (subs.size >= limits.subscriptionsPerSocket) {
        throw new RpcError(
          RpcCode.Internal,
          `Internal Error: Subscription refused. Connection subscription limit reached (${limits.subscriptionsPerSocket} per WebSocket); unsubscribe first or open another connection`,
        );
      }
      const s: Sub = { id: ++nextId, ...sub };
      subs.set(s.id, s);
      return s.id;
    };
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
    const unsubscribe = chain.onLanded((t) => void onLanded(t)); // notifications never hold up the send

    const ws = new Socket(
      sock,
      (text) => void handle(text),
      () => {
        // Everything the socket held goes with it: its subscriptions, its listener, its address slot.
        open = false;
        unsubscribe();
        subs.clear();
        sockets.delete(ws);
        const n = (perAddress.get(address) ?? 1) - 1;
        if (n > 0) perAddress.set(address, n);
        else perAddress.delete(address);
      },
    );
    sockets.set(ws, subs);

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
            result = subscribe({ kind: 'signature', key: params[0], cfg: cfgOf(params[1]) });
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
            result = subscribe({ kind: 'account', key: key.toBase58(), cfg });
            break;
          }
          case 'slotSubscribe': {
            result = subscribe({ kind: 'slot', cfg: {} });
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
    clearInterval(heartbeat);
    for (const s of [...sockets.keys()]) s.close(1001, 'server shutting down');
  });
}
