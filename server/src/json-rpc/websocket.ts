import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { PublicKey } from '@solana/web3.js';
import type { FastifyInstance } from 'fastify';
import { clientKey, forwardedClient, proxyTrust, type TrustProxy } from '../lib/rate-limit';
import type { AccountSnapshot, ChainService, LandedTransaction } from '../services/chain/types';
import { invalidParams, RpcCode, RpcError } from './errors';
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
 *
 * And what they can make the server hold in bytes: a subscription costs nothing until a transaction
 * lands, and then every subscription to an account it names gets that account. So:
 * - Each account is read and encoded once per landed transaction and encoding, whatever the number
 *   of subscriptions to it (Agave serializes a notification once and shares it between subscribers):
 *   the shared bytes are queued to each socket as they are, not copied.
 * - A notification is at most 1 MB: an account whose encoding is larger is refused at accountSubscribe
 *   (-32600, "use a dataSlice", as Agave refuses base58 over 128 bytes), and a subscribed account that
 *   grows past it closes the socket (1008, why). Agave sends accounts of any size (up to 10 MiB), but
 *   Agave is not also the web server of a product; the embedded chain's big accounts are programs.
 * - A socket may leave 4 MB of output unread: past that it is closed as too slow (1008), its queue
 *   freed (Agave disconnects a client that lags behind its queue). So a client that stops reading costs
 *   at most ~5 MB per socket, ~50 MB per address, however many transactions land.
 * - All sockets together may hold 64 MB unread: past that, a socket that is behind (has unread output)
 *   is closed (1013, try again later) before anything more is queued for it; one that keeps up is served.
 */
const MB = 1024 * 1024;
export const PUBSUB_LIMITS = {
  subscriptionsPerSocket: 100,
  socketsPerAddress: 10,
  sockets: 1000,
  /** Ping round: a socket silent for two whole rounds (no pong) is dropped, so vanished clients free their slots. */
  heartbeatMs: 30_000,
  /** The largest notification (JSON bytes) this node sends. */
  notificationBytes: 1 * MB,
  /** Output one socket may leave unread before it is closed as too slow. */
  bufferedBytesPerSocket: 4 * MB,
  /** Output all sockets together may leave unread before sockets that are behind are closed. */
  bufferedBytes: 64 * MB,
};
export type PubSubLimits = typeof PUBSUB_LIMITS;

type Stats = { sockets: number; subscriptions: number; addresses: number };

declare module 'fastify' {
  interface FastifyInstance {
    /** Live PubSub state (registerPubSub). */
    pubSubStats?: () => Stats & { encodings: number };
  }
}

/** Live PubSub state of a server (tests: caps hold and everything is freed on close). */
export function pubSubStats(app: FastifyInstance): Stats {
  const s = app.pubSubStats?.();
  return s ? { sockets: s.sockets, subscriptions: s.subscriptions, addresses: s.addresses } : { sockets: 0, subscriptions: 0, addresses: 0 };
}

/** Accounts encoded for notifications since the server started (tests: once per transaction and encoding, not per subscription). */
export function pubSubEncodings(app: FastifyInstance): number {
  return app.pubSubStats?.().encodings ?? 0;
}

type Encoder = (acc: AccountSnapshot | null, cfg: Record<string, unknown>) => unknown;

interface Sub {
  id: number;
  kind: 'signature' | 'account' | 'slot';
  key?: string;
  cfg: Record<string, unknown>;
  /** Accounts: what the encoding depends on (two subscriptions with the same share one encoding). */
  encoding?: string;
}

/** An account whose notification would be over PUBSUB_LIMITS.notificationBytes. */
class NotificationTooLarge extends RpcError {}

/** Whether a dataSlice is one encodeAccount accepts (else it refuses it, with its own message). */
const validSlice = (s: unknown): s is { offset: number; length: number } =>
  !!s && typeof s === 'object' && typeof (s as { offset?: unknown }).offset === 'number' && typeof (s as { length?: unknown }).length === 'number';

export function registerPubSub(
  app: FastifyInstance,
  chain: ChainService,
  p: { encodeAccount: Encoder; path: string; rentEpochSentinel: string; trustProxy?: TrustProxy | boolean | number; limits?: Partial<PubSubLimits> },
) {
  const limits: PubSubLimits = { ...PUBSUB_LIMITS, ...p.limits };
  // The client address of an upgrade request: the same rule as fastify's req.ip (app.ts), the
  // right-most X-Forwarded-For hop that is not a trusted proxy — never the entry the client wrote first.
  const trust = proxyTrust(p.trustProxy);
  const upgradeClient = (req: IncomingMessage) => clientKey(forwardedClient(req.socket.remoteAddress, req.headers['x-forwarded-for'], trust) || 'unknown');
  let nextId = 0;
  let encodings = 0;
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
    encodings,
  }));

  const tooLarge = (bytes: number) =>
    new NotificationTooLarge(
      RpcCode.InvalidRequest,
      `Encoded account data is ${bytes} bytes; notifications are at most ${limits.notificationBytes} bytes on this node. Subscribe with a dataSlice, or read the account with getAccountInfo.`,
    );
  /**
   * The `value` of an account notification as JSON bytes, or a refusal (RpcError): an encoding the
   * account cannot take, or one over the notification size. Large base64 is refused from its length,
   * before anything is encoded.
   */
  const encodeValue = (acc: AccountSnapshot | null, cfg: Record<string, unknown>): Buffer => {
    const encoding = cfg.encoding;
    if (acc && (encoding === 'base64' || encoding === 'jsonParsed')) {
      if (cfg.dataSlice !== undefined && !validSlice(cfg.dataSlice)) p.encodeAccount({ ...acc, data: new Uint8Array(0) }, cfg); // its own refusal
      const n = acc.data.length;
      const raw = validSlice(cfg.dataSlice) ? Math.max(0, Math.min(cfg.dataSlice.offset + cfg.dataSlice.length, n) - Math.min(cfg.dataSlice.offset, n)) : n;
      const base64 = 4 * Math.ceil(raw / 3);
      if (base64 > limits.notificationBytes) throw tooLarge(base64);
    }
    encodings++;
    const json = Buffer.from(JSON.stringify(p.encodeAccount(acc, cfg) ?? null).replaceAll(`"${p.rentEpochSentinel}"`, '18446744073709551615'), 'utf8');
    if (json.length > limits.notificationBytes) throw tooLarge(json.length);
    return json;
  };

  // One listener for all sockets while any is open: a landed transaction is matched against every
  // subscription, each account it names is read and encoded once, and the notifications are queued.
  let stopListening: (() => void) | null = null;
  const listen = () => {
    stopListening ??= chain.onLanded((t) => void dispatch(t).catch((e) => console.warn('pubsub: notifications failed', e))); // never holds up the send
  };
  const stopIfIdle = () => {
    if (sockets.size > 0 || !stopListening) return;
    stopListening();
    stopListening = null;
  };

  async function dispatch(t: LandedTransaction) {
    const named = new Set(t.keys);
    const wanted = new Set<string>();
    for (const subs of sockets.values()) for (const sub of subs.values()) if (sub.kind === 'account' && named.has(sub.key!)) wanted.add(sub.key!);
    const accounts = new Map<string, AccountSnapshot | null>();
    for (const key of wanted) accounts.set(key, await chain.getAccountInfo(new PublicKey(key)));
    /** Per account and encoding: its value's JSON, or why it cannot be sent. */
    const values = new Map<string, Buffer | RpcError>();
    const valueOf = (sub: Sub) => {
      const k = `${sub.key}\n${sub.encoding}`;
      let v = values.get(k);
      if (!v) {
        try {
          v = encodeValue(accounts.get(sub.key!) ?? null, sub.cfg);
        } catch (e) {
          v = e instanceof RpcError ? e : new RpcError(RpcCode.Internal, 'Internal error');
        }
        values.set(k, v);
      }
      return v;
    };
    const accountHead = Buffer.from(`{"jsonrpc":"2.0","method":"accountNotification","params":{"result":{"context":{"slot":${t.slot}},"value":`);
    let queued = 0;
    for (const ws of sockets.keys()) queued += ws.bufferedAmount;

    for (const [ws, subs] of [...sockets]) {
      for (const sub of [...subs.values()]) {
        if (!ws.isOpen) break;
        let parts: Buffer[];
        if (sub.kind === 'signature' && sub.key === t.signature) {
          subs.delete(sub.id); // the validator disposes a signature subscription once it fires
          parts = [message('signatureNotification', sub, { context: { slot: t.slot }, value: { err: t.err } })];
        } else if (sub.kind === 'account' && named.has(sub.key!)) {
          const value = valueOf(sub);
          if (value instanceof RpcError) {
            // Grown past the notification size since it was subscribed: say so rather than go silent.
            if (value instanceof NotificationTooLarge) {
              ws.close(1008, `account ${sub.key!.slice(0, 8)}… grew past ${Math.round(limits.notificationBytes / MB)} MB: subscribe with a dataSlice`);
            }
            continue; // else an encoding refused at subscribe time
          }
          parts = [accountHead, value, Buffer.from(`},"subscription":${sub.id}}}`)];
        } else if (sub.kind === 'slot') {
          parts = [message('slotNotification', sub, { parent: Math.max(0, t.slot - 1), root: t.slot, slot: t.slot })];
        } else continue;
        const size = parts.reduce((n, b) => n + b.length, 0);
        if (queued + size > limits.bufferedBytes && ws.bufferedAmount > 0) {
          ws.close(1013, 'server busy: too many notifications left unread; reconnect later');
          break;
        }
        const before = ws.bufferedAmount;
        if (!ws.sendParts(parts)) break; // closed as too slow (1008)
        queued += ws.bufferedAmount - before;
      }
    }
  }

  const message = (method: string, sub: Sub, result: unknown) =>
    Buffer.from(JSON.stringify({ jsonrpc: '2.0', method, params: { result, subscription: sub.id } }).replaceAll(`"${p.rentEpochSentinel}"`, '18446744073709551615'), 'utf8');

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
    const address = upgradeClient(req);
    const held = perAddress.get(address) ?? 0;
    const refusal =
      held >= limits.socketsPerAddress
        ? ([1008, `too many connections: at most ${limits.socketsPerAddress} WebSockets per client address`] as const)
        : sockets.size >= limits.sockets
          ? ([1013, `server busy: ${limits.sockets} WebSockets open; try again later`] as const)
          : null;
    if (refusal) {
      new Socket(sock, () => undefined, () => undefined, limits.bufferedBytesPerSocket).close(refusal[0], refusal[1]);
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

    const ws = new Socket(
      sock,
      (text) => void handle(text),
      () => {
        // Everything the socket held goes with it: its subscriptions, its address slot (and the shared listener with the last socket).
        open = false;
        subs.clear();
        sockets.delete(ws);
        const n = (perAddress.get(address) ?? 1) - 1;
        if (n > 0) perAddress.set(address, n);
        else perAddress.delete(address);
        stopIfIdle();
      },
      limits.bufferedBytesPerSocket,
    );
    sockets.set(ws, subs);
    listen();

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
            encodeValue(await chain.getAccountInfo(key), cfg); // refuse an impossible encoding, or one over the notification size, now
            result = subscribe({ kind: 'account', key: key.toBase58(), cfg, encoding: JSON.stringify([cfg.encoding ?? null, cfg.dataSlice ?? null]) });
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
