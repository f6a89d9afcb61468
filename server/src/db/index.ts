import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, type Migration, type MigrationProvider } from 'kysely';
import type { Database as DB } from './schema';
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
  return new Kysely<DB>({ dialect: new SqliteDialect({ database: keepStatements(sqlite) }) });
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

// int8 (epoch-ms columns, counts) and numeric (sums) arrive as strings from node-postgres; every value
// we store fits a double exactly (< 2^53), so they are read as numbers, the same as from SQLite.
const asNumber = (v: string) => Number(v);
const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 || oid === pg.types.builtins.NUMERIC ? asNumber : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/** How many statements one PostgreSQL connection keeps prepared (the rest are parsed each time). */
export const PG_STATEMENTS_PER_CONNECTION = 200;
const DML = /^\s*(select|insert|update|delete|with)\b/i;
const statementNames = new Map<string, string>();
const statementName = (text: string) => {
  let name = statementNames.get(text);
  if (!name) {
    name = `k${createHash('sha1').update(text).digest('base64url')}`;
    if (statementNames.size >= 10_000) statementNames.clear();
    statementNames.set(text, name);
  }
  return name;
};

/**
 * node-postgres for Kysely, keeping its prepared statements: Kysely sends every query unnamed, so
 * PostgreSQL parses and plans it again at each execution (a cold verify's one lookup spent as long
 * being planned as being run). A parameterised statement gets a name from its text, and node-postgres
 * parses a named statement once per connection; the first PG_STATEMENTS_PER_CONNECTION distinct texts
 * a connection sees are kept (the hot ones come first: batch inserts of varying lengths must not grow
 * a connection's memory without end), the rest run unnamed as before. PostgreSQL re-plans a kept
 * statement itself when a table it reads changes.
 */
export class PreparingClient extends pg.Client {
  private named = 0;
  /** Statements whose kept plan went stale (below): run unnamed on this connection from then on. */
  private stale = new Set<string>();
  // node-postgres's overloads; Kysely calls query(text, values) and awaits the result.
  override query(...args: unknown[]): never {
    const [text, values] = args;
    const call = super.query as (...a: unknown[]) => never;
    if (args.length === 2 && typeof text === 'string' && Array.isArray(values) && values.length > 0 && DML.test(text)) {
      const name = statementName(text);
      const parsed = (this as unknown as { connection: { parsedStatements: Record<string, string> } }).connection.parsedStatements;
      if (!this.stale.has(name) && (parsed[name] !== undefined || this.named < PG_STATEMENTS_PER_CONNECTION)) {
        if (parsed[name] === undefined) this.named++;
        // Another server sharing the database migrated a table this statement reads (a rolling
        // upgrade): PostgreSQL refuses a kept plan whose rows changed shape. The statement is run
        // unnamed from then on, this time too (outside a transaction that succeeds; inside one, the
        // transaction is already aborted and the first error is the one that counts).
        return (call.call(this, { name, text, values }) as unknown as Promise<unknown>).catch((e: { code?: string; message?: string }) => {
          if (e?.code !== '0A000' || !/cached plan must not change result type/.test(e.message ?? '')) throw e;
          this.stale.add(name);
          return (call.call(this, text, values) as unknown as Promise<unknown>).catch(() => {
            throw e;
          });
        }) as never;
      }
    }
    return call.apply(this, args);
  }
}

function openPostgres(url: string, opts: { keepStatements?: boolean } = {}): Db {
  const pool = new pg.Pool({
    Client: opts.keepStatements === false ? pg.Client : PreparingClient,
    connectionString: url,
    max: 10,
    types: pgTypes,
    connectionTimeoutMillis: 10_000,
    // Bounded statements: a stuck lock or a runaway query fails the request instead of hanging it.
    statement_timeout: 30_000,
    application_name: 'attesta',
  });
  // An idle client losing its connection (server restart) must not crash the process; the pool replaces it.
  pool.on('error', (e) => console.error('postgres pool:', e.message));
  return new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
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
