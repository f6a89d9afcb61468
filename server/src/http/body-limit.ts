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
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { TRPCError } from '@trpc/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

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

const tooLargeMessage = (limit: number) => `The request is too large (max ${Math.round(limit / 1024 / 1024)} MB).`;

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

/** The 413 in the error shape of the route family the URL belongs to. */
function replyTooLarge(req: FastifyRequest, reply: FastifyReply, limit: number) {
  const message = tooLargeMessage(limit);
  const path = req.url.split('?')[0];
  reply.code(413).type('application/json');
  if (/^\/trpc(\/|$)/.test(path)) return reply.send({ error: { message, code: -32013, data: { code: 'PAYLOAD_TOO_LARGE', httpStatus: 413 } } });
  if (/^\/api\//.test(path)) return reply.send({ error: { code: 'payload_too_large', message } });
  return reply.send({ statusCode: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE', error: 'Payload Too Large', message });
}

interface GuardState {
  received: number;
  overflowed: boolean;
}

const guards = new WeakMap<IncomingMessage, GuardState>();

/**
 * Counts the body bytes of `raw` as Node's HTTP parser pushes them. Past `limit`: no more bytes are
 * accepted, the socket stops reading (backpressure on the client) and the stream is destroyed with
 * BodyTooLargeError — without destroying the socket, so the route can still answer on it.
 */
function guardBody(raw: IncomingMessage, limit: number, res: ServerResponse): void {
  if (guards.has(raw)) return;
  // Bytes the parser pushed before this hook ran (the first TCP read can carry headers and body).
  const state: GuardState = { received: raw.readableLength, overflowed: false };
  guards.set(raw, state);
  // IncomingMessage's own _destroy would destroy the socket (and emit 'aborted'): keep the socket for
  // the 413, and pass the error on only to a reader that listens (as Node does). Used only once the
  // limit is passed (below); a request under it is destroyed the usual way.
  const ownDestroy = raw._destroy;
  raw._destroy = function keepSocket(this: IncomingMessage, err: Error | null, cb: (e?: Error | null) => void) {
    if (!state.overflowed) return ownDestroy.call(this, err, cb);
    cb(this.listenerCount('error') > 0 ? err : null);
  };
  const push = raw.push;
  raw.push = function guardedPush(this: IncomingMessage, chunk: unknown, encoding?: BufferEncoding): boolean {
    if (chunk === null || chunk === undefined) return state.overflowed ? false : push.call(this, chunk, encoding);
    if (state.overflowed) return false;
    state.received += (chunk as { length: number }).length;
    if (state.received <= limit) return push.call(this, chunk, encoding);
    state.overflowed = true;
    stop();
    return false; // the parser pauses the socket: nothing more is read
  } as typeof raw.push;
  const stop = () => {
    raw.destroy(new BodyTooLargeError(limit));
    const socket = raw.socket;
    const timer = setTimeout(() => {
      if (!res.writableFinished) socket?.destroy();
    }, ANSWER_WITHIN_MS);
    timer.unref();
    res.once('close', () => clearTimeout(timer));
  };
  if (state.received > limit) {
    state.overflowed = true;
    stop();
  }
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
 * other body is counted as it arrives (see guardBody). An answer sent before its request's body ended
 * closes the connection, so Node does not read the rest of the body to reuse it.
 */
export function registerBodyLimit(app: FastifyInstance, limit = MAX_REQUEST_BYTES) {
  app.addHook('onRequest', async (req, reply) => {
    const declared = Number(req.headers['content-length']);
    if (declared > limit) return replyTooLarge(req, reply, limit);
    guardBody(req.raw, limit, reply.raw);
  });
  app.addHook('onSend', async (req, reply, payload) => {
    if (!req.raw.complete && req.raw.socket) {
      reply.header('connection', 'close');
      lingeringClose(req.raw.socket);
    }
    return payload;
  });
}
