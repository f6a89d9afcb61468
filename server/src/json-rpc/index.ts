import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Services } from '../services';
import { RpcCode, RpcError } from './errors';
import { MAX_BATCH, MAX_BODY_BYTES, RpcGuard, type RequestLimits } from './limits';
import { createMethods, RENT_EPOCH_SENTINEL, type Method } from './methods';
import { registerPubSub } from './websocket';

const U64_MAX = '18446744073709551615';

declare module 'fastify' {
  interface FastifyInstance {
    /** The /rpc requests holding an in-flight slot now, in all and by how many client addresses (registerJsonRpc; tests). */
    rpcInFlight?: () => { total: number; keys: number };
  }
}

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers': 'content-type, solana-client, accept, accept-encoding',
  'access-control-max-age': '86400',
};

type Id = string | number | null;
type Reply = { jsonrpc: '2.0'; id: Id; result?: unknown; error?: { code: number; message: string; data?: unknown } };

const errorReply = (id: Id, code: number, message: string, data?: unknown): Reply => ({ jsonrpc: '2.0', error: data === undefined ? { code, message } : { code, message, data }, id });

/**
 * `POST /rpc`: Solana JSON-RPC 2.0 over the embedded chain, for web3.js's Connection, the
 * `attesta` CLI and Solana Explorer's custom cluster (CORS open: no cookies, no credentials).
 * With an external chain (`SOLANA_RPC_URL`) it answers 404: clients should use that RPC directly
 * (proxying it would make this server an open relay for a possibly keyed endpoint).
 */
export async function registerJsonRpc(app: FastifyInstance, svc: Services): Promise<void> {
  if (svc.chain.mode !== 'embedded') {
    app.all('/rpc', async (_req, reply) =>
      reply.code(404).send({ error: 'This server uses an external Solana RPC (SOLANA_RPC_URL); send JSON-RPC requests to that endpoint.' }),
    );
    return;
  }
  const { methods, encodeAccount } = createMethods(svc);
  const guard = new RpcGuard(svc.config.rpc);
  app.decorate('rpcInFlight', () => guard.inFlight.stats());
  // PubSub on the same path (ws://host/rpc); clients pass it as web3.js's `wsEndpoint`.
  registerPubSub(app, svc.chain, { encodeAccount, path: '/rpc', rentEpochSentinel: RENT_EPOCH_SENTINEL, trustProxy: svc.config.trustProxy });

  await app.register(async (scope) => {
    // Validators accept the body whatever its content type and answer malformed JSON with -32700.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: MAX_BODY_BYTES }, (_req, body, done) => done(null, body));

    scope.options('/rpc', async (_req, reply) => reply.code(200).headers(CORS).send());
    scope.get('/rpc', async (_req, reply) =>
      reply.code(405).headers({ ...CORS, allow: 'POST, OPTIONS' }).type('text/plain').send('Used HTTP Method is not allowed. POST or OPTIONS is required'),
    );
    // Over Agave's body limit: its 413, with a JSON-RPC error that says what to do.
    scope.setErrorHandler((err: Error & { statusCode?: number; code?: string }, _req, reply) => {
      if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || err.statusCode === 413) {
        return send(reply, errorReply(null, RpcCode.InvalidRequest, `Request too large: this node accepts at most ${MAX_BODY_BYTES / 1024} KB a request (as a Solana validator); send fewer calls per batch`), 413);
      }
      throw err;
    });
    scope.post('/rpc', async (req, reply) => {
      const limits = guard.request(req.ip); // req.ip honours TRUST_PROXY
      // The in-flight slot is held until the answer has gone out (or the client went away).
      reply.raw.once('close', limits.release);
      let body: unknown;
      try {
        body = JSON.parse(typeof req.body === 'string' ? req.body : '');
      } catch {
        return send(reply, errorReply(null, RpcCode.ParseError, 'Parse error'));
      }
      if (Array.isArray(body)) {
        if (body.length === 0) return send(reply, errorReply(null, RpcCode.InvalidRequest, 'Invalid request'));
        if (body.length > MAX_BATCH) return send(reply, errorReply(null, RpcCode.InvalidRequest, `Invalid request: batch of ${body.length} exceeds ${MAX_BATCH}`));
        const out: string[] = [];
        // In order, one at a time: later calls in a batch see earlier writes, as on a single node. They
        // share one answer budget: past it each call is answered with the error, built no further.
        for (const r of body) {
          const res = await handle(methods, r, req.ip, limits);
          if (res) out.push(res.text);
        }
        return out.length ? sendText(reply, `[${out.join(',')}]`) : reply.code(200).headers(CORS).send();
      }
      const res = await handle(methods, body, req.ip, limits);
      if (!res) return reply.code(200).headers(CORS).send();
      // A rate-limited call alone is answered as Solana's public RPC does: HTTP 429 (web3.js backs off
      // and retries, then reports "429 Too Many Requests: …") with Retry-After. In a batch it is that
      // element's error and the batch stays 200.
      const retry = (res.reply.error?.data as { retryAfter?: unknown } | undefined)?.retryAfter;
      if (res.reply.error?.code === RpcCode.TooManyRequests)
        return sendText(reply, res.text, 429, typeof retry === 'number' ? { 'retry-after': String(retry), 'access-control-expose-headers': 'retry-after' } : {});
      return sendText(reply, res.text);
    });
  });
}

/** One reply as it goes out: rentEpoch of rent-exempt accounts is u64::MAX, which a JS number cannot hold, so it is emitted literally. */
const serialize = (payload: Reply | Reply[]) => JSON.stringify(payload).replaceAll(`"${RENT_EPOCH_SENTINEL}"`, U64_MAX);

function send(reply: FastifyReply, payload: Reply | Reply[], status = 200, headers: Record<string, string> = {}) {
  return sendText(reply, serialize(payload), status, headers);
}

function sendText(reply: FastifyReply, text: string, status = 200, headers: Record<string, string> = {}) {
  return reply.code(status).headers({ ...CORS, ...headers }).type('application/json; charset=utf-8').send(text);
}

/**
 * One call, answered and serialized: its reply is charged to the request's answer budget (a reply
 * that does not fit is replaced by the budget's error; errors are always sent).
 */
async function handle(methods: Record<string, Method>, req: unknown, ip: string, limits: RequestLimits): Promise<{ reply: Reply; text: string } | null> {
  const budget = limits.budget;
  const before = budget.used;
  const reply = await call(methods, req, ip, limits);
  if (!reply) return null;
  let text = serialize(reply);
  budget.used = before; // what the method counted while building is replaced by what it built
  if (reply.result !== undefined) {
    try {
      budget.charge(text.length + 1);
    } catch (e) {
      const refusal = errorReply(reply.id, (e as RpcError).code, (e as RpcError).message, (e as RpcError).data);
      return { reply: refusal, text: (text = serialize(refusal)) };
    }
  } else budget.used += text.length + 1;
  return { reply, text };
}

async function call(methods: Record<string, Method>, req: unknown, ip: string, limits: RequestLimits): Promise<Reply | null> {
  if (typeof req !== 'object' || req === null || Array.isArray(req)) return errorReply(null, RpcCode.InvalidRequest, 'Invalid request');
  const r = req as Record<string, unknown>;
  const hasId = 'id' in r;
  const id = r.id;
  if (hasId && id !== null && typeof id !== 'string' && typeof id !== 'number') return errorReply(null, RpcCode.InvalidRequest, 'Invalid request');
  const rid = (hasId ? id : null) as Id;
  if (r.jsonrpc !== '2.0' || typeof r.method !== 'string') return errorReply(rid, RpcCode.InvalidRequest, 'Invalid request');
  const method = Object.prototype.hasOwnProperty.call(methods, r.method) ? methods[r.method] : undefined;
  // A notification (no id) gets no reply, whatever happens.
  if (!method) return hasId ? errorReply(rid, RpcCode.MethodNotFound, 'Method not found') : null;
  if (r.params !== undefined && r.params !== null && !Array.isArray(r.params)) {
    return hasId ? errorReply(rid, RpcCode.InvalidParams, 'Invalid params: invalid type: map, expected a sequence.') : null;
  }
  try {
    // Its pace (and, for a call that reads many accounts, an in-flight slot) before anything runs.
    limits.admit(r.method);
    const result = await method((r.params as unknown[] | undefined) ?? [], { ip, budget: limits.budget });
    return hasId ? { jsonrpc: '2.0', result, id: rid } : null;
  } catch (e) {
    if (!hasId) return null;
    if (e instanceof RpcError) return errorReply(rid, e.code, e.message, e.data);
    console.error('rpc: internal error in', r.method, e);
    return errorReply(rid, RpcCode.Internal, 'Internal error');
  }
}
