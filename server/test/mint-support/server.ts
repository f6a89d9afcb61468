// Mint tests run on the real server (startTestServer); these are the few handles they need.
import { createTRPCClient, httpBatchLink } from '@trpc/client';
import { openDatabase, type Db } from '../../src/db';
import type { AppRouter } from '../../src/router';
import type { Services } from '../../src/services';
import { startTestServer, testConfig } from '../helpers';

/** The database of a data dir (SQLite, or the test project's PostgreSQL database), migrated. */
export async function openMintTestDatabase(dataDir: string): Promise<Db> {
  return (await openDatabase((await testConfig(dataDir)).database)).db;
}

export interface MintTestServer {
  url: string;
  services: Services;
  /** Start-up's reconcile of mints a crash left between submit and record. */
  reconcile: Awaited<ReturnType<typeof startTestServer>>['startup']['reconciledMints'];
  close(): Promise<void>;
}

export async function startMintTestServer(dataDir: string, env: Record<string, string> = {}): Promise<MintTestServer> {
  const s = await startTestServer(dataDir, env);
  return { url: s.url, services: s.services, reconcile: s.startup.reconciledMints, close: () => s.close() };
}

/** A typed client sharing a helpers.makeClient() cookie jar (its fetch). */
export function mintClient(url: string, f: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>) {
  return createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: `${url}/trpc`, fetch: f as typeof fetch })] });
}
