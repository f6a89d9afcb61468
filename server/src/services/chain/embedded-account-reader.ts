// Reading committed `chain_account` rows for the embedded chain (embedded-accounts.ts): kept apart
// because it is the one part that knows the database engine (SQLite's own read-only connection, or
// PostgreSQL through Kysely).
import SqliteDatabase from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';

export type AccountRow = { pubkey: string; owner: string; lamports: string; data: Uint8Array };

/**
 * Committed `chain_account` rows, read outside the server's own DB connection: on SQLite a second,
 * read-only connection to the same file (WAL: it never waits for a writer, so a read made while a
 * caller holds a transaction cannot deadlock, and it sees committed rows only); on PostgreSQL the pool.
 */
export interface AccountReader {
  /** Rows of those of `keys` that exist (synchronous on SQLite). */
  rows(keys: string[], db?: Kysely<Database>): Map<string, AccountRow> | Promise<Map<string, AccountRow>>;
  /** Keys of accounts owned by `owner`, optionally only those whose data starts with `tag` (8 bytes). */
  keysByOwner(owner: string, tag?: Uint8Array): string[] | Promise<string[]>;
  /** Rows owned by `owner`, in key order. */
  rowsByOwner(owner: string): AccountRow[] | Promise<AccountRow[]>;
  close(): void;
}

export function sqliteReader(file: string): AccountReader {
  const conn = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
  conn.pragma('busy_timeout = 5000');
  const one = conn.prepare<[string], AccountRow>('select pubkey, owner, lamports, data from chain_account where pubkey = ?');
  // The same expression as the index of migration 1500 (owner, substr(data, 1, 8)).
  const byTag = conn.prepare<[string, Buffer], { pubkey: string }>('select pubkey from chain_account where owner = ? and substr(data, 1, 8) = ?');
  const byOwner = conn.prepare<[string], { pubkey: string }>('select pubkey from chain_account where owner = ?');
  const rowsByOwner = conn.prepare<[string], AccountRow>('select pubkey, owner, lamports, data from chain_account where owner = ? order by pubkey');
  return {
    rows(keys) {
      const out = new Map<string, AccountRow>();
      for (const k of keys) {
        const r = one.get(k);
        if (r) out.set(k, r);
      }
      return out;
    },
    keysByOwner: (owner, tag) => (tag ? byTag.all(owner, Buffer.from(tag)) : byOwner.all(owner)).map((r) => r.pubkey),
    rowsByOwner: (owner) => rowsByOwner.all(owner),
    close: () => conn.close(),
  };
}

export function kyselyReader(db: Kysely<Database>): AccountReader {
  return {
    async rows(keys, via = db) {
      const out = new Map<string, AccountRow>();
      for (let i = 0; i < keys.length; i += 500) {
        const rows = await via.selectFrom('chain_account').select(['pubkey', 'owner', 'lamports', 'data']).where('pubkey', 'in', keys.slice(i, i + 500)).execute();
        for (const r of rows) out.set(r.pubkey, r);
      }
      return out;
    },
    async keysByOwner(owner, tag) {
      let q = db.selectFrom('chain_account').select('pubkey').where('owner', '=', owner);
      if (tag) q = q.where(sql`substr(data, 1, 8)`, '=', Buffer.from(tag));
      return (await q.execute()).map((r) => r.pubkey);
    },
    rowsByOwner: (owner) => db.selectFrom('chain_account').select(['pubkey', 'owner', 'lamports', 'data']).where('owner', '=', owner).orderBy('pubkey').execute(),
    close() {},
  };
}

const isThenable = <T>(v: T | Promise<T>): v is Promise<T> => typeof (v as { then?: unknown })?.then === 'function';
/** Calls `then` at once on a plain value (no microtask: a synchronous read stays synchronous), else after it resolves. */
export function after<T, R>(v: T | Promise<T>, then: (x: T) => R): R | Promise<Awaited<R>> {
  return isThenable(v) ? (v.then(then) as Promise<Awaited<R>>) : then(v);
}
