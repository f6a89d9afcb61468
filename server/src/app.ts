import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import { closeServices, composeServices, startBackgroundWork, type BackgroundWork } from './compose';
import type { Config } from './config';
import { contextFactory } from './context';
import { registerBodyLimit } from './http/body-limit';
import { registerFileRoutes } from './http/files';
import { registerHealthRoute } from './http/health';
import { registerPermanentRoutes } from './http/permanent';
import { registerSecurity } from './http/security';
import { registerJsonRpc } from './json-rpc';
import { registerRestApi } from './rest';
import { appRouter, type AppRouter } from './router';
import type { Services } from './services';

/**
 * tRPC's fastify adapter replies with a web Response, which fastify streams as a chunked body in
 * several writes; under concurrency that measured ~5× slower than a buffered reply (idle time, not
 * CPU). Buffer every finite Response (all but SSE subscriptions, which must stream).
 */
function bufferWebResponses(app: FastifyInstance) {
  app.addHook('onSend', async (_req, reply, payload) => {
    if (payload === null || typeof payload !== 'object' || Object.prototype.toString.call(payload) !== '[object Response]') return payload;
    const res = payload as unknown as Response;
    if (!res.body || (res.headers.get('content-type') ?? '').startsWith('text/event-stream')) return payload;
    reply.code(res.status);
    for (const [k, v] of res.headers) reply.header(k, v);
    return Buffer.from(await res.arrayBuffer());
  });
}

export interface Server {
  app: FastifyInstance;
  services: Services;
  /** Base URL after listen(). */
  url: string;
  /** What start-up found and repaired (mints finished from the chain record after a crash). */
  startup: { reconciledMints: BackgroundWork['reconciledMints'] };
  /** Keeps rows in line with what others change on chain; `idle()` resolves once it has caught up. */
  chainSync: BackgroundWork['chainSync'];
  close(): Promise<void>;
}

/** Builds every service (compose.ts), starts the background work, then serves HTTP. */
export async function startServer(config: Config): Promise<Server> {
  const services = await composeServices(config);
  const background = await startBackgroundWork(services);

  const app = Fastify({
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel },
    trustProxy: config.trustProxy,
    // Over fastify's default (100), a long id/hash fell through to the /api/v1/* 404 ("No endpoint …")
    // instead of its handler's 400 that says what is wrong. Node's 16 KB header limit still caps URLs.
    routerOptions: { maxParamLength: 16 * 1024 },
  });
  await app.register(fastifyCookie);
  registerSecurity(app, config); // security headers on every response; CSRF check for cookie-authenticated mutations
  registerBodyLimit(app); // every request body is counted and stopped at 25 MB, whatever its headers say
  bufferWebResponses(app);
  await app.register(fastifyTRPCPlugin, {
    prefix: '/trpc',
    trpcOptions: {
      router: appRouter,
      createContext: contextFactory(services),
      onError({ error, path: p }) {
        if (error.code === 'INTERNAL_SERVER_ERROR') app.log.error({ err: error.cause ?? error, path: p }, 'tRPC error');
      },
    } satisfies FastifyTRPCPluginOptions<AppRouter>['trpcOptions'],
  });
  registerHealthRoute(app, config);
  registerFileRoutes(app, services);
  await registerPermanentRoutes(app, services);
  await registerRestApi(app, services);
  await registerJsonRpc(app, services);

  // The web app, when it has been built; unknown non-API paths fall back to index.html (SPA).
  if (fs.existsSync(path.join(config.appDistDir, 'index.html'))) {
    await app.register(fastifyStatic, {
      root: config.appDistDir,
      wildcard: false,
      // The page is revalidated on every visit (a deploy shows at once); hashed assets never change.
      cacheControl: false,
      setHeaders(res, file) {
        const asset = file.includes(`${path.sep}assets${path.sep}`);
        res.setHeader('cache-control', asset ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
    app.setNotFoundHandler((req, reply) => {
      // `/api` alone is the API documentation page of the app; `/api/...` is the REST API. HEAD answers
      // like GET (link previewers and uptime checks use it).
      if ((req.method === 'GET' || req.method === 'HEAD') && !/^\/(trpc|files|permanent|healthz|rpc)(\/|$)|^\/api\//.test(req.url)) return reply.sendFile('index.html');
      return reply.code(404).send({ error: 'Not found' });
    });
  }

  await app.listen({ port: config.port, host: config.host });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : config.port;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;

  let closed = false;
  return {
    app,
    services,
    url,
    startup: { reconciledMints: background.reconciledMints },
    chainSync: background.chainSync,
    async close() {
      if (closed) return;
      closed = true;
      await app.close();
      await background.stop();
      await closeServices(services);
    },
  };
}
