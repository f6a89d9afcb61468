import { createHash } from 'node:crypto';
import type { Writable } from 'node:stream';
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

/**
 * Reads that may wait on the pipelined connection at once; the pool takes any beyond them. Reads on
 * one connection run one after another: were the lookups ever slow (a table larger than memory, read
 * from disk), the ones beyond this many run side by side on the pool's connections instead of queueing.
 */
export const PIPELINED_MAX_IN_FLIGHT = 16;
/** After the pipelined connection failed, how long its reads go to the pool before it is opened again. */
export const PIPELINED_RETRY_MS = 1000;

/**
 * One connection that pipelines (node-postgres's `pipeline: true`), for the hottest read: a stored
 * verdict by hash. Each read is written as soon as it is asked, without waiting for the answers before
 * it, and PostgreSQL answers them in order. On the pool, concurrent verifies each took a connection of
 * their own and so woke a backend process of their own; on one connection one backend reads them
 * together, and its answers arrive together (#15, fifteenth round: a cold verify on PostgreSQL took
 * ~25 % less of the server's CPU and ~40 % less of PostgreSQL's, and ran ~30 % more a second).
 *
 * Single statements outside any transaction only. A read never waits for this connection: while it is
 * not open (being opened in the background, or after a failure, for PIPELINED_RETRY_MS) and whenever it
 * cannot take the read (lost, a kept plan refused after another server's migration, a timeout, too many
 * reads waiting) the read is made on the pool, as before. The read is a lookup: made twice, it answers
 * the same.
 */
export class PipelinedReads {
  private client: pg.Client | null = null;
  private connecting: Promise<boolean> | null = null;
  private inFlight = 0;
  private downUntil = 0;
  private closed = false;
  private holding = false;
  /** Connections opened so far (tests). */
  opened = 0;

  constructor(
    private readonly url: string,
    private readonly opts: { maxInFlight?: number; retryMs?: number; connectTimeoutMs?: number } = {},
  ) {}

  /** The rows of `text` with `values`, on the pipelined connection or else from `onPool`. */
  async rows<R>(text: string, values: readonly unknown[], onPool: () => Promise<R[]>): Promise<R[]> {
    const client = this.client;
    if (!client) {
      if (!this.closed && Date.now() >= this.downUntil) void this.open();
      return onPool();
    }
    if (this.inFlight >= (this.opts.maxInFlight ?? PIPELINED_MAX_IN_FLIGHT)) return onPool();
    this.inFlight++;
    try {
      this.holdWrites(client);
      return (await client.query({ name: statementName(text), text, values: values as unknown[] })).rows as R[];
    } catch (e) {
      this.drop(client, e);
      return onPool();
    } finally {
      this.inFlight--;
    }
  }

  /** Opens the connection unless it is open or being opened; true once it is open (reads open it themselves). */
  open(): Promise<boolean> {
    if (this.client) return Promise.resolve(true);
    if (this.closed) return Promise.resolve(false);
    return (this.connecting ??= this.connect().finally(() => (this.connecting = null)));
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.connecting;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<boolean> {
    const client = new pg.Client({
      connectionString: this.url,
      pipeline: true,
      types: pgTypes,
      // Reads go to the pool meanwhile, so a server slow to answer is given up on soon.
      connectionTimeoutMillis: this.opts.connectTimeoutMs ?? 2000,
      keepAlive: true,
      statement_timeout: 30_000,
      application_name: 'attesta',
    });
    // A connection lost while idle must not crash the process: reads go to the pool, and it is opened again.
    client.on('error', (e) => this.drop(client, e));
    client.on('end', () => this.drop(client, null));
    try {
      await client.connect();
    } catch (e) {
      // A connect refused part-way (authentication) can leave its socket open: closed here.
      void client.end().catch(() => undefined);
      this.drop(null, e);
      return false;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return false;
    }
    this.opened++;
    this.client = client;
    return true;
  }

  /**
   * Reads asked in one turn of the event loop go out in one write: the socket is corked at the first
   * and uncorked once the turn's I/O callbacks have run (setImmediate), so the backend wakes once for
   * them all (#15, fifteenth round: ~20 % more cold verifies a second than each written at once).
   * node-postgres's socket is not public API: without it, each read is written at once.
   */
  private holdWrites(client: pg.Client) {
    if (this.holding) return;
    const stream = (client as unknown as { connection?: { stream?: Partial<Pick<Writable, 'cork' | 'uncork'>> } }).connection?.stream;
    if (typeof stream?.cork !== 'function' || typeof stream.uncork !== 'function') return;
    this.holding = true;
    stream.cork();
    setImmediate(() => {
      this.holding = false;
      stream.uncork!();
    });
  }

  /**
   * The connection failed (`client` null: it could not be opened): the pool takes the reads for
   * PIPELINED_RETRY_MS, and it is said once. An earlier connection's late failure changes nothing.
   */
  private drop(client: pg.Client | null, e: unknown) {
    if (client && client !== this.client) return;
    if (!this.closed && (e || client)) console.warn(`verdict lookups: ${client ? 'connection dropped' : 'cannot connect'}${e ? ` (${(e as Error).message})` : ''}; on the pool for ${this.opts.retryMs ?? PIPELINED_RETRY_MS} ms`);
    this.downUntil = Date.now() + (this.opts.retryMs ?? PIPELINED_RETRY_MS);
    if (client) {
      this.client = null;
      void client.end().catch(() => undefined);
    }
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
