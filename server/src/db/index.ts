import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, type CompiledQuery, type Migration, type MigrationProvider } from 'kysely';
import type { PipelinedReads } from './postgres';
import type { Database as DB } from './schema';
import { GuardedSqliteDialect, GuardedSqliteKysely, TRANSACTION_GUARD } from './sqlite-guard';
import * as m0001 from './migrations/2026-11-22T0700-initial';
import * as m0002 from './migrations/2026-11-22T0800-mint';
import * as m0003 from './migrations/2026-11-22T0930-support';
import * as m0004 from './migrations/2026-11-22T1000-api-keys';
import * as m0005 from './migrations/2026-11-22T1100-rpc-journal';
import * as m0006 from './migrations/2026-11-22T1110-job-owner';
import * as m0007 from './migrations/2026-11-22T1200-soak-indexes';
import * as m0008 from './migrations/2026-11-22T1300-housekeeping-indexes';
import * as m0009 from './migrations/2026-11-22T1400-fair-queue';
import * as m0010 from './migrations/2026-11-22T1500-scale-indexes';
import * as m0011 from './migrations/2026-11-22T1600-live-sha256';
import * as m0012 from './migrations/2026-11-23T1000-institutions';
import * as m0013 from './migrations/2026-11-23T1100-unset-names';
import * as m0014 from './migrations/2026-11-24T0000-public-verdict';
import * as m0015 from './migrations/2026-11-25T0000-verdict-words';
import * as m0016 from './migrations/2026-11-28T0000-rpc-scan-indexes';
import * as m0017 from './migrations/2026-11-28T0100-verdict-account-reads';
import * as m0018 from './migrations/2026-11-28T0200-verdict-flags-original-upload';
import * as m0019 from './migrations/2026-11-28T0300-certificate-events';

export type Db = Kysely<DB>;
export { dialectOf, isPostgres, isUniqueViolation } from './dialect';

/** Where the data lives: the embedded SQLite file in the data dir, or a PostgreSQL server. */
export type DatabaseTarget = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

// Static provider: migrations are bundled, not discovered on disk (works under tsx and in builds).
// The same migrations run on both databases (see ./dialect for the few portable type choices).
const migrations: Record<string, Migration> = {
  '2026-11-22T0700-initial': m0001,
  '2026-11-22T0800-mint': m0002,
  '2026-11-22T0930-support': m0003,
  '2026-11-22T1000-api-keys': m0004,
  '2026-11-22T1100-rpc-journal': m0005,
  '2026-11-22T1110-job-owner': m0006,
  '2026-11-22T1200-soak-indexes': m0007,
  '2026-11-22T1300-housekeeping-indexes': m0008,
  '2026-11-22T1400-fair-queue': m0009,
  '2026-11-22T1500-scale-indexes': m0010,
  '2026-11-22T1600-live-sha256': m0011,
  '2026-11-23T1000-institutions': m0012,
  '2026-11-23T1100-unset-names': m0013,
  '2026-11-24T0000-public-verdict': m0014,
  '2026-11-25T0000-verdict-words': m0015,
  '2026-11-28T0000-rpc-scan-indexes': m0016,
  '2026-11-28T0100-verdict-account-reads': m0017,
  '2026-11-28T0200-verdict-flags-original-upload': m0018,
  '2026-11-28T0300-certificate-events': m0019,
};
const provider: MigrationProvider = { getMigrations: async () => migrations };

/**
 * A data dir (SQLite file inside it) or an explicit target, migrated to the latest migration (or, for
 * tests of a migration on existing rows, only up to `migrateTo`; a later open migrates the rest).
 */
export async function openDatabase(target: string | DatabaseTarget, opts: { migrateTo?: string } = {}): Promise<{ db: Db }> {
  const t: DatabaseTarget = typeof target === 'string' ? { kind: 'sqlite', file: path.join(target, 'attesta.sqlite') } : target;
  // PostgreSQL migrates on a pool of its own: a statement the app keeps prepared must never have been
  // planned against a table a later migration changes ("cached plan must not change result type").
  const db = t.kind === 'sqlite' ? openSqlite(t.file) : openPostgres(t.url, { keepStatements: false });
  try {
    const migrator = new Migrator({ db, provider });
    const { error, results } = opts.migrateTo ? await migrator.migrateTo(opts.migrateTo) : await migrator.migrateToLatest();
    for (const r of results ?? []) if (r.status === 'Error') console.error(`migration ${r.migrationName} failed`);
    if (error) throw error;
  } catch (e) {
    await db.destroy();
    if (t.kind === 'postgres') throw new Error(`Could not open the PostgreSQL database at ${redactUrl(t.url)}: ${(e as Error).message}`, { cause: e });
    throw e;
  }
  if (t.kind === 'sqlite') return { db };
  await db.destroy();
  return { db: openPostgres(t.url) };
}

function openSqlite(file: string): Db {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  const database = keepStatements(sqlite);
  return TRANSACTION_GUARD ? new GuardedSqliteKysely<DB>({ dialect: new GuardedSqliteDialect({ database }) }) : new Kysely<DB>({ dialect: new SqliteDialect({ database }) });
}

/** How many distinct SQL texts keep their prepared statement (the server's queries are a few hundred at most). */
export const SQLITE_STATEMENT_CACHE = 500;

/**
 * better-sqlite3 for Kysely, keeping its prepared statements: Kysely's SQLite driver prepares every
 * query's SQL again at each execution (compiling it in SQLite: ~6 % of a cold verify's CPU). The same
 * text gets its statement back (least recently used out past SQLITE_STATEMENT_CACHE); one still being
 * iterated (a streamed query) is never handed out twice: that caller gets a fresh one. A statement
 * prepared before a schema change is re-prepared by SQLite itself when next run.
 */
export function keepStatements(sqlite: Database.Database, max = SQLITE_STATEMENT_CACHE) {
  const kept = new Map<string, Database.Statement>();
  return {
    prepare(sql: string): Database.Statement {
      const stmt = kept.get(sql);
      if (stmt) {
        if (stmt.busy) return sqlite.prepare(sql);
        kept.delete(sql); // most recently used last
        kept.set(sql, stmt);
        return stmt;
      }
      const fresh = sqlite.prepare(sql);
      if (kept.size >= max) kept.delete(kept.keys().next().value!);
      kept.set(sql, fresh);
      return fresh;
    },
    close() {
      kept.clear();
      sqlite.close();
    },
  };
}

/**
 * A Kysely over a PostgreSQL pool (./postgres.ts). node-postgres is loaded when the pool is first used,
 * so a server on the embedded SQLite default does not load it at start (#15).
 */
function openPostgres(url: string, opts: { keepStatements?: boolean } = {}): Db {
  return new Kysely<DB>({ dialect: new PostgresDialect({ pool: async () => (await import('./postgres')).postgresPool(url, opts) }) });
}

/** A single statement's rows, outside any transaction, on a hot path (the verdict store's lookup: compose.ts). */
export interface PointReads {
  rows<R>(query: CompiledQuery): Promise<R[]>;
  close(): Promise<void>;
}

/**
 * SQLite: on the database's one connection. PostgreSQL: on one pipelined connection of their own
 * (postgres.ts, PipelinedReads), on the pool whenever that connection cannot take them.
 */
export function openPointReads(db: Db, target: DatabaseTarget): PointReads {
  const onDb = <R>(q: CompiledQuery) => db.executeQuery<R>(q).then((r) => r.rows as R[]);
  if (target.kind === 'sqlite') return { rows: onDb, close: async () => undefined };
  let pipelined: Promise<PipelinedReads> | null = null;
  let closed = false;
  return {
    rows: async <R>(q: CompiledQuery) => {
      if (closed) return onDb<R>(q);
      const reads = await (pipelined ??= import('./postgres').then((m) => new m.PipelinedReads(target.url)));
      return reads.rows<R>(q.sql, q.parameters, () => onDb<R>(q));
    },
    // After it, reads run on `db` (and open nothing).
    close: async () => {
      closed = true;
      await (await pipelined)?.close();
    },
  };
}

/** postgres://user:secret@host/db → postgres://user:***@host/db (errors and logs never carry the password). */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'the configured DATABASE_URL';
  }
}
