/**
 * A test server = the real server's parts (their exports, unchanged) + the mint router, the mint
 * migration and GET /permanent/:id, composed the way app.ts will once the lead wires them in.
 */
import Fastify from 'fastify';
import fastifyCookie from '@fastify/cookie';
import { fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import { createTRPCClient, httpBatchLink } from '@trpc/client';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, type Migration } from 'kysely';
import type { Database } from '../../src/db/schema';
import { loadConfig } from '../../src/config';
import { contextFactory } from '../../src/context';
import * as initial from '../../src/db/migrations/2026-11-22T0700-initial';
import * as mintMigration from '../../src/db/migrations/2026-11-22T0800-mint';
import { registerFileRoutes } from '../../src/http/files';
import { registerPermanentRoutes } from '../../src/http/permanent';
import { appRouter } from '../../src/router';
import { mintRouter } from '../../src/routers/mint';
import type { Services } from '../../src/services';
import { openBlobStore } from '../../src/services/blobs';
import { createChain } from '../../src/services/chain';
import { reconcileMints } from '../../src/services/mint';
import { EventBus } from '../../src/services/verification/events';
import { VerificationQueue } from '../../src/services/verification/queue';
import { VerificationWorker } from '../../src/services/verification/worker';
import { router } from '../../src/trpc';

export const mintTestRouter = router({ ...appRouter._def.record, mint: mintRouter });
export type MintTestRouter = typeof mintTestRouter;

/**
 * db/index.ts's openDatabase() with the mint migration added to its static list. Until the lead
 * registers the migration there, openDatabase() refuses a data dir that has run it ("corrupted
 * migrations"), so tests open it the same way with both migrations.
 */
export async function openMintTestDatabase(dataDir: string): Promise<Kysely<Database>> {
  fs.mkdirSync(dataDir, { recursive: true });
  const sqlite = new SQLite(path.join(dataDir, 'attesta.sqlite'));
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  const migrations: Record<string, Migration> = { '2026-11-22T0700-initial': initial, '2026-11-22T0800-mint': mintMigration };
  const { error } = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateToLatest();
  if (error) {
    await db.destroy();
    throw error;
  }
  return db;
}

export interface MintTestServer {
  url: string;
  services: Services;
  reconcile: Awaited<ReturnType<typeof reconcileMints>>;
  close(): Promise<void>;
}

export async function startMintTestServer(dataDir: string, env: Record<string, string> = {}): Promise<MintTestServer> {
  const config = loadConfig({ ATTESTA_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ATTESTA_DEMO_DATA: 'false', ...env });
  const db = await openMintTestDatabase(config.dataDir);
  const chain = await createChain(config, db);
  const services: Services = { config, db, chain, blobs: openBlobStore(config), bus: new EventBus(), queue: new VerificationQueue(db) };
  const reconcile = await reconcileMints(services); // reconcile-on-start
  const worker = new VerificationWorker(services);
  if (config.worker) await worker.start();

  const app = Fastify({ logger: false });
  await app.register(fastifyCookie);
  await app.register(fastifyTRPCPlugin, { prefix: '/trpc', trpcOptions: { router: mintTestRouter, createContext: contextFactory(services) } });
  registerFileRoutes(app, services);
  await registerPermanentRoutes(app, services);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  const url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  let closed = false;
  return {
    url,
    services,
    reconcile,
    async close() {
      if (closed) return;
      closed = true;
      await app.close();
      await worker.stop();
      await chain.close();
      await db.destroy();
    },
  };
}

/** A typed client for the mint router sharing a helpers.makeClient() cookie jar (its fetch). */
export function mintClient(url: string, f: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>) {
  return createTRPCClient<MintTestRouter>({ links: [httpBatchLink({ url: `${url}/trpc`, fetch: f as typeof fetch })] });
}
