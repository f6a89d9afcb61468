import type { TestProject } from 'vitest/node';
import { startPgCluster, type PgCluster } from './cluster';

// vitest globalSetup of the `server-postgres` project: one PostgreSQL server for the whole run; every
// test server gets its own database in it (server/test/pg/database.ts).
let cluster: PgCluster | null = null;

export async function setup(project: TestProject) {
  cluster = await startPgCluster();
  project.provide('pgAdminUrl', cluster.adminUrl);
}

export async function teardown() {
  cluster?.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
  }
}
