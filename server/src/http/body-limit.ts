// One size limit for every request body, whatever its headers say (content type in any case, with or
// without Content-Length, chunked) and whichever route reads it (/trpc, /api/v1, plain routes).
//
// Why on the raw IncomingMessage and not in a preParsing hook: tRPC's fastify adapter hands the
// multipart body to undici as the IncomingMessage itself (`req.body instanceof IncomingMessage`,
// anything else is JSON.stringify'd), so a wrapping stream would break uploads. Every body byte enters
// the IncomingMessage through `push()` (Node's HTTP parser calls it per chunk), so counting there sees
// the body whoever reads it and however it is framed. At the limit the guard stops reading from the
// socket, fails the body stream with a PAYLOAD_TOO_LARGE error (the reader — tRPC, fastify's body
// parsers, the REST API — answers 413 in its own error shape) and keeps the socket open long enough
// to deliver that answer; then the connection is closed instead of reading the rest.
//
// The same count gives the body's rate: a body that trickles in (slowloris: a byte every few seconds,
// holding a connection and a reader for as long as the client likes) is cut the same way, with a 408.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { TRPCError } from '@trpc/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { clientKey, ConcurrencyLimiter } from '../lib/rate-limit';

/** Uploads are at most 10 MB (files service); this bounds the envelope around them and every other body. */
export const MAX_REQUEST_BYTES = 25 * 1024 * 1024;
/**
 * After answering a request whose body was not read to its end, the connection is closed. Closing a
 * socket with unread input makes the kernel reset it, which can destroy our answer before the client
 * read it: the socket half-closes (our answer, then FIN) and is destroyed this much later.
 */
const LINGER_MS = 1000;
/** A reader that never answers after its body was stopped: the connection is closed anyway. */
const ANSWER_WITHIN_MS = 10_000;

/**
 * The slowest body accepted: after a grace period, a body whose bytes arrived at under this average
 * rate since its request began is cut with a 408. 1 KB/s (8 kbit/s) is far below any link that can
 * upload a file at all (GPRS is ~40 kbit/s) and far above a trickle; the grace lets a connection
 * ramp up (TCP slow start, a mobile radio waking). The request timeout (app.ts, 300 s) bounds a body
 * that keeps just above this rate.
 */
export const MIN_BODY_RATE = { bytesPerSec: 1024, graceMs: 10_000, checkEveryMs: 2_000 };

const tooLargeMessage = (limit: number) => `The request is too large (max ${Math.round(limit / 1024 / 1024)} MB).`;
const tooSlowMessage = (rate: typeof MIN_BODY_RATE) =>
  `The request body arrived too slowly (under ${Math.round(rate.bytesPerSec / 1024)} KB/s after ${Math.round(rate.graceMs / 1000)} s), so it was stopped. Check your connection and try again.`;

/**
 * The error a body stream fails with at the limit. A TRPCError (tRPC answers 413 in its envelope, the
 * REST error mapper reads its HTTP status), with `statusCode` for fastify's body parsers and default
 * error handler.
 */
export class BodyTooLargeError extends TRPCError {
  readonly statusCode = 413;
  constructor(limit: number) {
    super({ code: 'PAYLOAD_TOO_LARGE', message: tooLargeMessage(limit) });
  }
}

/** The error a body stream fails with when it arrives too slowly: tRPC's TIMEOUT (408), with `statusCode` for fastify. */
export class BodyTooSlowError extends TRPCError {
  readonly statusCode = 408;
  constructor(rate: typeof MIN_BODY_RATE) {
    super({ code: 'TIMEOUT', message: tooSlowMessage(rate) });
  }
}

/** A refusal answered before the body is read, in the error shape of the route family the URL belongs to. */
const REFUSALS = {
  413: { trpc: -32013, trpcCode: 'PAYLOAD_TOO_LARGE', rest: 'payload_too_large', fastify: 'FST_ERR_CTP_BODY_TOO_LARGE', error: 'Payload Too Large' },
  429: { trpc: -32029, trpcCode: 'TOO_MANY_REQUESTS', rest: 'rate_limited', fastify: 'FST_ERR_TOO_MANY_REQUESTS', error: 'Too Many Requests' },
} as const;

function replyRefused(req: FastifyRequest, reply: FastifyReply, status: keyof typeof REFUSALS, message: string) {
  const r = REFUSALS[status];
  const path = req.url.split('?')[0];
  reply.code(status).type('application/json');
  if (/^\/trpc(\/|$)/.test(path)) return reply.send({ error: { message, code: r.trpc, data: { code: r.trpcCode, httpStatus: status } } });
  if (/^\/api\//.test(path)) return reply.send({ error: { code: r.rest, message } });
  return reply.send({ statusCode: status, code: r.fastify, error: r.error, message });
}

interface GuardState {
  received: number;
  /** The body was stopped (over the limit, or too slow): nothing more is read. */
  stopped: boolean;
}

const guards = new WeakMap<IncomingMessage, GuardState>();

/**
 * Counts the body bytes of `raw` as Node's HTTP parser pushes them. Past `limit`: no more bytes are
 * accepted, the socket stops reading (backpressure on the client) and the stream is destroyed with
 * BodyTooLargeError — without destroying the socket, so the route can still answer on it.
 */
function guardBody(raw: IncomingMessage, limit: number, res: ServerResponse, rate: typeof MIN_BODY_RATE): void {
  if (guards.has(raw)) return;
  // Bytes the parser pushed before this hook ran (the first TCP read can carry headers and body).
  const state: GuardState = { received: raw.readableLength, stopped: false };
  guards.set(raw, state);
  // IncomingMessage's own _destroy would destroy the socket (and emit 'aborted'): keep the socket for
  // the 413, and pass the error on only to a reader that listens (as Node does). Used only once the
  // limit is passed (below); a request under it is destroyed the usual way.
  const ownDestroy = raw._destroy;
  raw._destroy = function keepSocket(this: IncomingMessage, err: Error | null, cb: (e?: Error | null) => void) {
    if (!state.stopped) return ownDestroy.call(this, err, cb);
    cb(this.listenerCount('error') > 0 ? err : null);
  };
  const push = raw.push;
  raw.push = function guardedPush(this: IncomingMessage, chunk: unknown, encoding?: BufferEncoding): boolean {
    if (chunk === null || chunk === undefined) return state.stopped ? false : push.call(this, chunk, encoding);
    if (state.stopped) return false;
    state.received += (chunk as { length: number }).length;
    if (state.received <= limit) return push.call(this, chunk, encoding);
    stop(new BodyTooLargeError(limit));
    return false; // the parser pauses the socket: nothing more is read
  } as typeof raw.push;
  const stop = (err: Error) => {
    state.stopped = true;
    raw.destroy(err);
    const socket = raw.socket;
    const timer = setTimeout(() => {
      if (!res.writableFinished) socket?.destroy();
    }, ANSWER_WITHIN_MS);
    timer.unref();
    res.once('close', () => clearTimeout(timer));
  };
  if (state.received > limit) return stop(new BodyTooLargeError(limit));
  watchRate(raw, res, state, rate, stop);
}

/** Whether a request announces a body (a Content-Length over 0, or chunked). */
const hasBody = (raw: IncomingMessage) => Number(raw.headers['content-length']) > 0 || raw.headers['transfer-encoding'] !== undefined;

/**
 * The minimum body rate: after `graceMs`, and every `checkEveryMs` until the body is in, a body whose
 * average rate since its request began is under `bytesPerSec` is stopped with BodyTooSlowError (the
 * reader answers 408 in its shape, then the connection is closed, as at the size limit). Nothing is
 * checked once the body is complete, the answer is sent, or the request is gone.
 */
function watchRate(raw: IncomingMessage, res: ServerResponse, state: GuardState, rate: typeof MIN_BODY_RATE, stop: (err: Error) => void) {
  if (raw.complete || !hasBody(raw)) return;
  const started = Date.now();
  let timer: NodeJS.Timeout | null = null;
  const done = () => {
    if (timer) clearTimeout(timer);
    timer = null;
  };
  const check = () => {
    timer = null;
    if (state.stopped || raw.complete || res.writableEnded || raw.destroyed) return;
    const seconds = (Date.now() - started) / 1000;
    if (state.received < rate.bytesPerSec * seconds) return stop(new BodyTooSlowError(rate));
    timer = setTimeout(check, rate.checkEveryMs);
    timer.unref();
  };
  timer = setTimeout(check, rate.graceMs);
  timer.unref();
  raw.once('end', done);
  raw.once('close', done);
  res.once('close', done);
}

/** Half-close now (the answer, then FIN), destroy after LINGER_MS: see LINGER_MS. */
function lingeringClose(socket: Socket) {
  socket.destroySoon = function destroyAfterLinger(this: Socket) {
    if (this.writable) this.end();
    const timer = setTimeout(() => this.destroy(), LINGER_MS);
    timer.unref();
    this.once('close', () => clearTimeout(timer));
  };
}

/**
 * Registers the limit: a declared Content-Length over it is refused before anything is read; every
 * other body is counted as it arrives (see guardBody), and stopped when it goes over the limit or
 * arrives slower than `rate` (see watchRate). An answer sent before its request's body ended closes
 * the connection, so Node does not read the rest of the body to reuse it.
 */
export function registerBodyLimit(app: FastifyInstance, limit = MAX_REQUEST_BYTES, rate = MIN_BODY_RATE) {
  app.addHook('onRequest', async (req, reply) => {
    const declared = Number(req.headers['content-length']);
    if (declared > limit) return replyRefused(req, reply, 413, tooLargeMessage(limit));
    guardBody(req.raw, limit, reply.raw, rate);
  });
  app.addHook('onSend', async (req, reply, payload) => {
    if (!req.raw.complete && req.raw.socket) {
      reply.header('connection', 'close');
      lingeringClose(req.raw.socket);
    }
    return payload;
  });
}

/** Which requests take an upload slot, and how many may be in flight per client address and in all. */
export interface UploadSlots {
  /** tRPC procedure paths (`public.verifyFile`): a request to one, batched or not, takes a slot. */
  procedures: readonly string[];
  perAddress: number;
  total: number;
  /** Sent as Retry-After with a refusal (a slot frees when an upload ends, which takes seconds). */
  retryAfterSec: number;
}

/**
 * Concurrency of uploads: an upload is read whole into memory (tRPC's FormData parser buffers the
 * multipart body, then the file), so what counts for memory is how many are in flight at once, not
 * how many a minute. A request to one of `procedures` takes a slot for its client address (req.ip:
 * TRUST_PROXY's rule, IPv6 by /64) before its body is read, and gives it back when its answer is sent
 * or the connection is gone. Over the per-address or the overall count it is answered 429 with
 * Retry-After and why, without reading the body (the connection is then closed: see onSend above).
 */
export function registerUploadSlots(app: FastifyInstance, slots: UploadSlots) {
  const limiter = new ConcurrencyLimiter({ perKey: slots.perAddress, total: slots.total });
  const watched = new Set(slots.procedures);
  const procedureOf = (p: string) => {
    try {
      return decodeURIComponent(p);
    } catch {
      return p;
    }
  };
  app.decorate('uploadSlotStats', () => limiter.stats());
  app.addHook('onRequest', async (req, reply) => {
    const path = req.url.split('?')[0];
    if (!path.startsWith('/trpc/') || !path.slice('/trpc/'.length).split(',').some((p) => watched.has(procedureOf(p)))) return;
    const slot = limiter.acquire(clientKey(req.ip));
    if (!slot.ok) {
      reply.header('retry-after', String(slots.retryAfterSec));
      const message =
        slot.scope === 'key'
          ? `Too many uploads from your address at once (at most ${slots.perAddress} are checked at a time). Wait for one to finish, then try again in ${slots.retryAfterSec} seconds.`
          : `The server is checking as many uploads as it can (${slots.total} at once). Try again in ${slots.retryAfterSec} seconds.`;
      return replyRefused(req, reply, 429, message);
    }
    reply.raw.once('close', slot.release);
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Upload slots held now (registerUploadSlots; tests: every slot is given back). */
    uploadSlotStats?: () => { total: number; keys: number };
  }
}
