import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, type Migration, type MigrationProvider } from 'kysely';
import type { Database as DB } from './schema';
import * as m0001 from './migrations/2026-11-22T0700-initial';
import * as m0002 from './migrations/2026-11-22T0800-mint';
import * as m0003 from './migrations/2026-11-22T0930-support';
import * as m0004 from './migrations/2026-11-22T1000-api-keys';

export type Db = Kysely<DB>;

// Static provider: migrations are bundled, not discovered on disk (works under tsx and in builds).
const migrations: Record<string, Migration> = {
  '2026-11-22T0700-initial': m0001,
  '2026-11-22T0800-mint': m0002,
  '2026-11-22T0930-support': m0003,
  '2026-11-22T1000-api-keys': m0004,
};
const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function openDatabase(dataDir: string): Promise<{ db: Db; sqlite: Database.Database }> {
  fs.mkdirSync(dataDir, { recursive: true });
  const sqlite = new Database(path.join(dataDir, 'attesta.sqlite'));
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: sqlite }) });
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  for (const r of results ?? []) if (r.status === 'Error') console.error(`migration ${r.migrationName} failed`);
  if (error) {
    await db.destroy();
    throw error;
  }
  return { db, sqlite };
}
