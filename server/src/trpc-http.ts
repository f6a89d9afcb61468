// The tRPC transport over HTTP: tRPC's own fastify adapter, with a direct path for GET queries.
//
// The adapter turns every request into a web Request (its headers copied, an AbortController) and
// resolves it into a web Response, combining abort signals with AbortSignal.any twice per request. On
// Node 20 AbortSignal.any holds its signals until a full garbage collection: under load the heap
// grew by ~300 MB and the collector took ~15 % of the CPU for a trivial query. GET queries (what the
// app's batch link sends for every read) are resolved here instead, with tRPC's own pieces (request
// parsing, procedure call, error shape, HTTP status, transformer) and the same answer, byte for byte
// (held by server/test/trpc-http.test.ts against the adapter). Everything else — mutations, SSE
// subscriptions, streaming (jsonl) batches, HEAD, unknown procedures, bodies — goes to the adapter.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fastifyRequestHandler, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import {
  defaultTransformer,
  getErrorShape,
  getHTTPStatusCode,
  getRequestInfo,
  getTRPCErrorFromUnknown,
  isAsyncIterable,
  isObject,
  isPromise,
  transformTRPCResponse,
  TRPCError,
  type AnyRouter,
  type TRPCRequestInfo,
} from '@trpc/server/unstable-core-do-not-import';

type Options<R extends AnyRouter> = FastifyTRPCPluginOptions<R>['trpcOptions'];

/** tRPC's test for an answer that needs a streaming link (resolveResponse's isDataStream). */
const isDataStream = (v: unknown) =>
  isObject(v) && (isAsyncIterable(v) || Object.values(v).some(isPromise) || Object.values(v).some(isAsyncIterable));

/** The request headers as the web Headers methods tRPC's request parsing calls (get, has). */
function headersOf(req: FastifyRequest) {
  const h = req.headers;
  return {
    get(name: string): string | null {
      const v = h[name.toLowerCase()];
      return v === undefined ? null : Array.isArray(v) ? v.join(', ') : String(v);
    },
    has: (name: string) => h[name.toLowerCase()] !== undefined,
  };
}

/** The URL as the adapter builds it (scheme from the socket, host header); null when it cannot. */
function urlOf(req: FastifyRequest): URL | null {
  const raw = req.raw;
  const secure = raw.headers[':scheme'] === 'https' || (!!raw.socket && 'encrypted' in raw.socket && !!raw.socket.encrypted);
  try {
    return new URL(raw.url ?? '/', `${secure ? 'https:' : 'http:'}//${raw.headers.host ?? raw.headers[':authority'] ?? 'localhost'}`);
  } catch {
    return null;
  }
}

/**
 * Answers a GET of queries (one, or a batch) the way tRPC's resolveResponse would, without the web
 * Request/Response; false (nothing sent) when the request is anything else, for the adapter to answer.
 */
async function directQuery<R extends AnyRouter>(opts: Options<R>, req: FastifyRequest, reply: FastifyReply, rawPath: string): Promise<boolean> {
  if (req.method !== 'GET' || req.headers['content-type'] !== undefined) return false;
  const url = urlOf(req);
  if (!url) return false;
  let path: string;
  try {
    path = decodeURIComponent(rawPath);
  } catch {
    return false;
  }
  const router = opts.router;
  const headers = headersOf(req);
  const abort = new AbortController();
  let info: TRPCRequestInfo;
  try {
    info = await getRequestInfo({
      req: { method: 'GET', headers, signal: abort.signal } as unknown as Request,
      path,
      router,
      searchParams: url.searchParams,
      headers: headers as unknown as Headers,
      url,
      maxBatchSize: opts.maxBatchSize,
    });
  } catch {
    return false;
  }
  if (info.accept === 'application/jsonl' || info.type !== 'query' || info.calls.some((c) => c.procedure?._def.type !== 'query')) return false;
  if (info.isBatchCall && (opts.allowBatching ?? opts.batching?.enabled ?? true) === false) return false;

  // As the adapter: the procedures' signal aborts when the client goes away before the answer.
  const onClose = () => {
    if (!reply.raw.writableEnded) abort.abort();
  };
  reply.raw.once('close', onClose);
  const config = router._def._config;
  let ctx: unknown;
  let ctxError: TRPCError | null = null;
  try {
    ctx = await opts.createContext?.({ req, res: reply, info });
  } catch (cause) {
    ctxError = getTRPCErrorFromUnknown(cause);
  }
  const results = await Promise.all(
    info.calls.map(async (call) => {
      try {
        if (ctxError) throw ctxError;
        const data = await call.procedure!({ path: call.path, getRawInput: call.getRawInput, ctx, type: 'query', signal: abort.signal, batchIndex: call.batchIndex });
        // Not reported to onError, as resolveResponse does not (a query never answers with a stream here).
        if (isDataStream(data)) return { error: getErrorShape({ config, ctx, error: new TRPCError({ code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Cannot use stream-like response in non-streaming request - use httpBatchStreamLink' }), input: call.result(), path: call.path, type: 'query' }) };
        return { result: { data } };
      } catch (cause) {
        const error = getTRPCErrorFromUnknown(cause);
        const input = call.result();
        opts.onError?.({ error, path: call.path, input, ctx: ctxError ? undefined : (ctx as never), type: 'query', req });
        return { error: getErrorShape({ config, ctx: ctxError ? undefined : ctx, error, input, path: call.path, type: 'query' }) };
      }
    }),
  );
  const untransformed = info.isBatchCall ? results : results[0];
  reply
    .code(getHTTPStatusCode(untransformed as never))
    .header('content-type', 'application/json')
    .header('vary', 'trpc-accept, accept');
  reply.raw.off('close', onClose);
  // A Buffer, as the adapter's buffered Response (fastify adds "; charset=utf-8" to a string's type).
  // The default transformer (the server sets none) serializes as it is: transformTRPCResponse would
  // only copy every item (~6 µs a call, measured) to write the same JSON.
  const body = config.transformer === defaultTransformer ? untransformed : transformTRPCResponse(config, untransformed as never);
  await reply.send(Buffer.from(JSON.stringify(body)));
  return true;
}

/**
 * tRPC on `prefix` (e.g. /trpc): as fastifyTRPCPlugin registers it (bodies reach tRPC as text or the
 * raw stream), with GET queries answered by directQuery.
 */
export async function registerTrpc<R extends AnyRouter>(app: FastifyInstance, prefix: string, opts: Options<R>) {
  await app.register(
    async (scope) => {
      scope.removeContentTypeParser('application/json');
      scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => done(null, body));
      scope.removeContentTypeParser('multipart/form-data');
      scope.addContentTypeParser('multipart/form-data', {}, (_req, body, done) => done(null, body));
      scope.all<{ Params: { path: string } }>('/:path', async (req, reply) => {
        if (await directQuery(opts, req, reply, req.params.path)) return;
        await fastifyRequestHandler({ ...opts, req, res: reply, path: req.params.path });
      });
    },
    { prefix },
  );
}
