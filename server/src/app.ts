import fs from 'node:fs';
import type { Server as HttpServer } from 'node:http';
import type { Socket } from 'node:net';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import type { FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import { closeServices, composeServices, startBackgroundWork, type BackgroundWork } from './compose';
import type { Config } from './config';
import { contextFactory } from './context';
import { registerBodyLimit, registerUploadSlots } from './http/body-limit';
import { registerDevAccountsRoute } from './http/dev-accounts';
import { registerFileRoutes } from './http/files';
import { registerHealthRoute } from './http/health';
import { registerPermanentRoutes } from './http/permanent';
import { registerSecurity } from './http/security';
import { registerJsonRpc } from './json-rpc';
import { clientKey, proxyTrust, type ProxyTrust } from './lib/rate-limit';
import { registerRestApi } from './rest';
import { registerTrpc } from './trpc-http';
import { appRouter, type AppRouter } from './router';
import { isAppPath } from '../../shared/app-routes';
import { ANONYMOUS_UPLOADS } from './routers/public';
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

/**
 * How long a client may take to send its request (Node's own timers; fastify turns them off by default).
 * - Headers: 20 s. A request's headers are a few KB; even a stalled mobile link sends them in seconds.
 * - The whole request, body included: 300 s (Node's own default, which fastify's 0 had switched off).
 *   Uploads are at most 10 MB (+ the multipart envelope; any body at most 25 MB): 10 MB in 300 s needs
 *   ~35 KB/s (~280 kbit/s), below a poor 3G uplink; a 25 MB body needs ~85 KB/s. A body that is
 *   merely slow is cut earlier by the minimum body rate (http/body-limit.ts), so this is the backstop
 *   for one that keeps just above it. Once the request is in, its answer may take as long as it needs
 *   (SSE subscriptions stay open).
 * - Checked every 5 s (Node's default is 30 s, which would let a 20 s limit run to 50 s).
 * - Idle keep-alive connections: fastify's 72 s (above common load balancers' 60 s idle timeout).
 */
export const HTTP_TIMEOUTS = { headersMs: 20_000, requestMs: 300_000, checkEveryMs: 5_000 };

/**
 * At most `perAddress` TCP connections at once from one client address (IPv6: its /64) that connects
 * directly; the next is closed at once, as Node's own `maxConnections` does. A connection from a trusted
 * proxy (TRUST_PROXY) is not counted: the proxy carries many clients, whose expensive requests (uploads)
 * are limited by their forwarded address instead. Bounds what one address holds of the process's file
 * descriptors, whatever the timeouts allow each connection.
 */
function limitConnectionsPerAddress(server: HttpServer, perAddress: number, trust: ProxyTrust | null) {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const remote = socket.remoteAddress;
    if (!remote || trust?.(remote, 0)) return;
    const key = clientKey(remote);
    const held = open.get(key) ?? 0;
    if (held >= perAddress) {
      socket.destroy();
      return;
    }
    open.set(key, held + 1);
    socket.once('close', () => {
      const n = (open.get(key) ?? 1) - 1;
      if (n > 0) open.set(key, n);
      else open.delete(key);
    });
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

  // One trust rule for every client address: req.ip here, the WebSocket upgrade (json-rpc/websocket.ts).
  const trust = proxyTrust(config.trustProxy);
  const app = Fastify({
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel },
    trustProxy: trust ?? false,
    requestTimeout: HTTP_TIMEOUTS.requestMs,
    http: { headersTimeout: HTTP_TIMEOUTS.headersMs, connectionsCheckingInterval: HTTP_TIMEOUTS.checkEveryMs },
    // Over fastify's default (100), a long id/hash fell through to the /api/v1/* 404 ("No endpoint …")
    // instead of its handler's 400 that says what is wrong. Node's 16 KB header limit still caps URLs.
    routerOptions: { maxParamLength: 16 * 1024 },
  });
  limitConnectionsPerAddress(app.server, config.limits.connectionsPerIp, trust);
  await app.register(fastifyCookie);
  registerSecurity(app, config); // security headers on every response; CSRF check for cookie-authenticated mutations
  registerBodyLimit(app); // every request body is counted and stopped at 25 MB, or when it trickles in too slowly
  registerUploadSlots(app, ANONYMOUS_UPLOADS); // anonymous uploads held at once, per client address and in all
  bufferWebResponses(app);
  await registerTrpc(app, '/trpc', {
    router: appRouter,
    createContext: contextFactory(services),
    onError({ error, path: p }) {
      if (error.code === 'INTERNAL_SERVER_ERROR') app.log.error({ err: error.cause ?? error, path: p }, 'tRPC error');
    },
  } satisfies FastifyTRPCPluginOptions<AppRouter>['trpcOptions']);
  registerHealthRoute(app, config);
  registerDevAccountsRoute(app, services); // the embedded chain's named development accounts, to this machine only
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
      // The app's pages (shared/app-routes.ts) get the app; any other page path gets the app too (it shows
      // its not-found page), with status 404 for link checkers and crawlers. `/api` alone is the API
      // documentation page; `/api/...` is the REST API. A missing asset is a plain 404: the app page in
      // its place is no script, and the browser would show a blank page. HEAD answers like GET.
      const pathname = req.url.split('?')[0];
      if ((req.method === 'GET' || req.method === 'HEAD') && !/^\/(trpc|files|permanent|healthz|rpc|assets)(\/|$)|^\/api\//.test(pathname)) {
        return isAppPath(pathname) ? reply.sendFile('index.html') : reply.code(404).sendFile('index.html');
      }
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
