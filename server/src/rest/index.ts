import type { FastifyInstance } from 'fastify';
import { requestContext } from '../context';
import { clientKey } from '../lib/rate-limit';
import { appRouter } from '../router';
import type { Services } from '../services';
import { authenticateApiKey, looksLikeApiKey, TokenBucketLimiter } from '../services/api-keys';
import { userForSession } from '../services/auth';
import { ENDPOINTS, type Endpoint, type RestAuth } from './endpoints';
import { RestError, sendError, toRestError } from './errors';
import { buildOpenApiDocument } from './openapi';
import { registerVerifyHashRoute } from './verify-hash';

export { ENDPOINTS } from './endpoints';
export { buildOpenApiDocument } from './openapi';

// Certificates are at most 10 MB; the multipart envelope adds a little.
const MULTIPART_LIMIT = 10 * 1024 * 1024 + 256 * 1024;
const JSON_LIMIT = 64 * 1024;

declare module 'fastify' {
  interface FastifyRequest {
    restAuth: RestAuth | null;
  }
}

/**
 * REST API v1 under /api (SEED-SPEC.md §7) + GET /api/openapi.json, and the public hash verdict
 * (./verify-hash.ts). Requests per minute per API key / connect token (per IP for unauthenticated
 * calls): config.limits.apiPerMin (API_RATE_LIMIT_PER_MIN).
 */
export async function registerRestApi(app: FastifyInstance, services: Services) {
  registerVerifyHashRoute(app, services);
  const perMin = services.config.limits.apiPerMin;
  const limiter = new TokenBucketLimiter(perMin);
  const openapi = JSON.stringify(buildOpenApiDocument(ENDPOINTS, { rateLimitPerMin: perMin }));

  await app.register(
    async (api) => {
      api.decorateRequest('restAuth', null);
      // Encapsulated: these parsers apply to /api only. An empty JSON body is "no body" (mint step 1).
      api.removeContentTypeParser('application/json');
      api.removeContentTypeParser('text/plain'); // JSON or multipart only: anything else is a 415
      api.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: JSON_LIMIT }, (_req, body, done) => {
        const text = String(body);
        if (!text.trim()) return done(null, undefined);
        try {
          done(null, JSON.parse(text));
        } catch {
          done(new RestError(400, 'bad_request', 'The request body is not valid JSON.'), undefined);
        }
      });
      // Buffered, then read with the web FormData parser (the same one tRPC uses for the app's uploads).
      api.addContentTypeParser('multipart/form-data', { parseAs: 'buffer', bodyLimit: MULTIPART_LIMIT }, (_req, body, done) => done(null, body));

      api.setErrorHandler((err, req, reply) => {
        const e = toRestError(err);
        if (e.status >= 500) req.log.error({ err: e.cause ?? err }, 'REST error');
        return sendError(reply, e);
      });
      // Unknown /api/v1/* paths answer in the error shape. A wildcard route, not a prefix not-found
      // handler: that would also capture GET /api, which is the web app's API documentation page.
      api.route({
        method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
        url: '/v1/*',
        handler: (req, reply) => sendError(reply, new RestError(404, 'not_found', `No endpoint ${req.method} ${req.url.split('?')[0]}`)),
      });

      api.get('/openapi.json', (_req, reply) => reply.type('application/json').header('cache-control', 'no-cache').send(openapi));

      for (const ep of ENDPOINTS) {
        if (ep.external || !ep.handler) continue;
        api.route({
          method: ep.method,
          url: ep.path.replace(/^\/api/, '').replace(/\{(\w+)\}/g, ':$1'),
          // Authenticate before the body is read: a 401 never costs a 10 MB upload.
          onRequest: async (req, reply) => {
            const limit = (bucket: string) => {
              const r = limiter.take(bucket);
              reply.header('x-ratelimit-limit', r.limit).header('x-ratelimit-remaining', r.remaining);
              if (!r.ok) {
                throw new RestError(429, 'rate_limited', `Too many requests. Try again in ${r.retryAfterSec} seconds.`, undefined, { 'retry-after': String(r.retryAfterSec) });
              }
            };
            // The client address as every per-address limit counts it: req.ip (TRUST_PROXY's rule), IPv6 by its /64.
            const ipBucket = `ip:${clientKey(req.ip)}`;
            if (!ep.auth) return limit(ipBucket);
            const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
            if (!m) {
              limit(ipBucket);
              throw new RestError(401, 'unauthorized', 'Missing API key. Send the header Authorization: Bearer <API key or connect token>.');
            }
            const credential = m[1];
            if (looksLikeApiKey(credential)) {
              const r = await authenticateApiKey(services.db, credential);
              if (!r.ok) {
                limit(ipBucket);
                throw new RestError(401, 'unauthorized', r.reason === 'revoked' ? 'This API key has been revoked' : 'Invalid API key');
              }
              req.restAuth = { user: r.user, kind: 'api_key', id: r.key.id };
              return limit(`key:${r.key.id}`);
            }
            const s = await userForSession(services.db, credential);
            if (!s) {
              limit(ipBucket);
              throw new RestError(401, 'unauthorized', 'Invalid or expired token');
            }
            req.restAuth = { user: s.user, kind: 'connect_token', id: s.tokenHash };
            return limit(`token:${s.tokenHash}`);
          },
          handler: async (req, reply) => {
            const auth = req.restAuth as RestAuth;
            // The procedures see the caller as a signed-in session (an API key has no session token hash).
            const session = auth ? { user: auth.user, tokenHash: auth.kind === 'connect_token' ? auth.id : `api_key:${auth.id}` } : null;
            const ctx = requestContext(services, req, session);
            const out = await (ep as Required<Pick<Endpoint, 'handler'>>).handler({ req, reply, services, auth, ctx, caller: appRouter.createCaller(ctx) });
            if (out.headers) for (const [k, v] of Object.entries(out.headers)) reply.header(k, v);
            return reply.code(out.status).type('application/json').send(out.body);
          },
        });
      }
    },
    { prefix: '/api' },
  );
}
