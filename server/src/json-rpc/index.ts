import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Services } from '../services';
import { RpcCode, RpcError } from './errors';
import { createMethods, RENT_EPOCH_SENTINEL, type CallContext, type Method } from './methods';
import { registerPubSub } from './websocket';

const MAX_BODY_BYTES = 1024 * 1024;
const MAX_BATCH = 100;
const U64_MAX = '18446744073709551615';

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
    scope.post('/rpc', async (req, reply) => {
      const call: CallContext = { ip: req.ip }; // honours TRUST_PROXY
      let body: unknown;
      try {
        body = JSON.parse(typeof req.body === 'string' ? req.body : '');
      } catch {
        return send(reply, errorReply(null, RpcCode.ParseError, 'Parse error'));
      }
      if (Array.isArray(body)) {
        if (body.length === 0) return send(reply, errorReply(null, RpcCode.InvalidRequest, 'Invalid request'));
        if (body.length > MAX_BATCH) return send(reply, errorReply(null, RpcCode.InvalidRequest, `Invalid request: batch of ${body.length} exceeds ${MAX_BATCH}`));
        const out: Reply[] = [];
        // In order, one at a time: later calls in a batch see earlier writes, as on a single node.
        for (const r of body) {
          const res = await handle(methods, r, call);
          if (res) out.push(res);
        }
        return out.length ? send(reply, out) : reply.code(200).headers(CORS).send();
      }
      const res = await handle(methods, body, call);
      // A rate-limited call alone is answered as Solana's public RPC does: HTTP 429 (web3.js backs off
      // and retries, then reports "429 Too Many Requests: …") with Retry-After. In a batch it is that
      // element's error and the batch stays 200.
      const retry = (res?.error?.data as { retryAfter?: unknown } | undefined)?.retryAfter;
      if (res?.error?.code === RpcCode.TooManyRequests) return send(reply, res, 429, typeof retry === 'number' ? { 'retry-after': String(retry), 'access-control-expose-headers': 'retry-after' } : {});
      return res ? send(reply, res) : reply.code(200).headers(CORS).send();
    });
  });
}

function send(reply: FastifyReply, payload: Reply | Reply[], status = 200, headers: Record<string, string> = {}) {
  // rentEpoch of rent-exempt accounts is u64::MAX, which a JS number cannot hold: emit it literally.
  const text = JSON.stringify(payload).replaceAll(`"${RENT_EPOCH_SENTINEL}"`, U64_MAX);
  return reply.code(status).headers({ ...CORS, ...headers }).type('application/json; charset=utf-8').send(text);
}

async function handle(methods: Record<string, Method>, req: unknown, call: CallContext): Promise<Reply | null> {
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
    const result = await method((r.params as unknown[] | undefined) ?? [], call);
    return hasId ? { jsonrpc: '2.0', result, id: rid } : null;
  } catch (e) {
    if (!hasId) return null;
    if (e instanceof RpcError) return errorReply(rid, e.code, e.message, e.data);
    console.error('rpc: internal error in', r.method, e);
    return errorReply(rid, RpcCode.Internal, 'Internal error');
  }
}
