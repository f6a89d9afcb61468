import { createHash } from 'node:crypto';
import pg from 'pg';

// node-postgres for the PostgreSQL backend (./index.ts opens it; loaded only when PostgreSQL is configured).

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

/** The server's pool: statements kept prepared (unless `keepStatements: false`), bounded, named in pg_stat_activity. */
export function postgresPool(url: string, opts: { keepStatements?: boolean } = {}): pg.Pool {
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
  return pool;
}
