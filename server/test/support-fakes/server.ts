import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { createTRPCClient, httpLink } from '@trpc/client';
import { fastifyTRPCPlugin, type CreateFastifyContextOptions } from '@trpc/server/adapters/fastify';
import { testConfig } from '../helpers';
import type { Context } from '../../src/context';
import { openDatabase, type Db } from '../../src/db';
import { supportRouter } from '../../src/routers/support';
import { SupportService } from '../../src/services/support';
import { router } from '../../src/trpc';

// A real HTTP server for the support router: fastify + the tRPC adapter + the real database with the
// real migrations. The chain, blobs and worker are left out: support uses none of them (the full
// startServer would start LiteSVM for nothing), and the router is not registered in router.ts yet.

export const testRouter = router({ support: supportRouter });
export type TestRouter = typeof testRouter;

export interface SupportTestServer {
  url: string;
  db: Db;
  client: ReturnType<typeof createTRPCClient<TestRouter>>;
  close(): Promise<void>;
}

export async function startSupportServer(env: Record<string, string> = {}): Promise<SupportTestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'attesta-support-'));
  const config = await testConfig(dataDir, env);
  const { db } = await openDatabase(config.database);
  const support = new SupportService(db, config.support);

  const app = Fastify({ logger: false });
  await app.register(fastifyTRPCPlugin, {
    prefix: '/trpc',
    trpcOptions: {
      router: testRouter,
      // Support reads config, db, the support service and req only; the rest of the services are not started here.
      createContext: async ({ req, res }: CreateFastifyContextOptions) =>
        ({ config, db, support, session: null, origin: 'http://localhost', host: 'localhost', secure: false, req, res }) as unknown as Context,
    },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  const url = `http://127.0.0.1:${port}`;
  const client = createTRPCClient<TestRouter>({ links: [httpLink({ url: `${url}/trpc` })] });
  return {
    url,
    db,
    client,
    async close() {
      await app.close();
      await db.destroy();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function rows(db: Db, table: 'contact_message' | 'feedback') {
  return (await sql<Record<string, any>>`select * from ${sql.table(table)} order by created_at`.execute(db)).rows;
}
