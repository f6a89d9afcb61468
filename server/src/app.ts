import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import type { Config } from './config';
import { contextFactory } from './context';
import { openDatabase } from './db';
import { registerBodyLimit } from './http/body-limit';
import { registerFileRoutes } from './http/files';
import { registerHealthRoute } from './http/health';
import { registerPermanentRoutes } from './http/permanent';
import { registerSecurity } from './http/security';
import { registerVerifyRoutes } from './http/verify';
import { registerRestApi } from './rest';
import { installTransactionJournal, registerJsonRpc } from './rpc';
import { journalEvents } from './rpc/journal';
import { ChainSync } from './services/chain-sync';
import { RpcChain } from './services/chain/rpc';
import { appRouter, type AppRouter } from './router';
import type { Services } from './services';
import { createChain } from './services/chain';
import { reconcileMints } from './services/mint';
import { closeOcr } from './services/ocr';
import { closeDocumentReaders } from './services/documents';
import { supportServiceFor } from './services/support';
import { signInLimiterFor } from './services/auth';
import { seedDemoData } from './services/demo/seed';
import { openBlobStore, startOrphanBlobSweeper } from './services/blobs';
import { EventBus } from './services/verification/events';
import { VerificationQueue } from './services/verification/queue';
import { VerificationWorker } from './services/verification/worker';

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
  startup: { reconciledMints: Awaited<ReturnType<typeof reconcileMints>> };
  /** Keeps rows in line with what others change on chain; `idle()` resolves once it has caught up. */
  chainSync: ChainSync;
  close(): Promise<void>;
}

/** Opens the data dir, the database, the chain and the blob store, then serves HTTP. */
export async function startServer(config: Config): Promise<Server> {
  const { db } = await openDatabase(config.database);
  supportServiceFor(db, config.env); // validates CHAT_*, TELEGRAM_*, SMTP_* at start, not on the first message
  signInLimiterFor(db, config.env); // validates SIGN_IN_RATE_LIMIT_* at start
  const chain = await createChain(config, db);
  await installTransactionJournal(chain, db); // before the demo seed, so its transactions are journaled too
  const blobs = openBlobStore(config);
  const services: Services = { config, db, chain, blobs, bus: new EventBus(), queue: new VerificationQueue(db, {}, config.instanceId) };
  if (config.demoData) await seedDemoData(services);
  // Rows follow changes others make on chain (revocations, confirmations, supersedes).
  const chainSync = new ChainSync(services, {
    intervalMs: config.chainSyncIntervalMs,
    subscribe: (listener) => {
      const events = journalEvents(chain);
      events.on('landed', listener);
      return () => events.off('landed', listener);
    },
    connection: chain instanceof RpcChain ? chain.connection : undefined,
  });
  await chainSync.start();
  // A crash between a mint's submit and its DB write is finished here, from the chain record.
  const reconciled = await reconcileMints(services);
  if (reconciled.errors.length) console.warn('mint reconcile:', reconciled.errors);
  // Blobs of uploads a killed process never committed (services/blobs.ts).
  const sweeper = await startOrphanBlobSweeper(services);

  const worker = new VerificationWorker(services);
  if (config.worker) await worker.start();

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
  registerVerifyRoutes(app, services);
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
    startup: { reconciledMints: reconciled },
    chainSync,
    async close() {
      if (closed) return;
      closed = true;
      await app.close();
      await worker.stop();
      await chainSync.stop();
      await sweeper.stop();
      await closeOcr(); // the OCR worker thread must not outlive the server
      await closeDocumentReaders(); // nor the document reader processes
      await chain.close();
      await db.destroy();
    },
  };
}
