// Reading committed `chain_account` rows for the embedded chain (embedded-accounts.ts): kept apart
// because it is the one part that knows the database engine (SQLite's own read-only connection, or
// PostgreSQL through Kysely).
import SqliteDatabase from 'better-sqlite3';
import { CompiledQuery, sql, type Kysely } from 'kysely';
import { dialectOf } from '../../db/dialect';
import type { Database } from '../../db/schema';

export type AccountRow = { pubkey: string; owner: string; lamports: string; data: Uint8Array };

/**
 * What a scan of an owner's accounts asks of their data, checked by the database before a row is read
 * out: its length, and byte runs at offsets (getProgramAccounts' dataSize and memcmp filters, the token
 * methods' owner and mint fields). Rows that fail are never loaded; the caller checks what it gets again.
 */
export interface RowMatch {
  dataSize?: number;
  bytes: { offset: number; bytes: Uint8Array }[];
}

/**
 * One page of a scan: the keys that matched with their data's size, in key order, each with its row
 * when its data is small (SCAN_INLINE_BYTES: a page holds at most 500 of them; larger ones are read by
 * key, as much as the answer can take), and the last key looked at (null: the owner has no more).
 */
export interface ScanPage {
  keys: { pubkey: string; size: number; row?: AccountRow }[];
  last: string | null;
}

/** Account data up to this size comes with its page; larger data is read afterwards, by key. */
export const SCAN_INLINE_BYTES = 2048;

/**
 * The token programs' accounts indexed by their owner field (migration 2026-11-28T0000), partial
 * indexes that a query uses only when it names the program literally, as the index does.
 */
const TOKEN_OWNER_INDEXED = new Set(['TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA', 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb']);
const BASE58 = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

/**
 * The SQL of one scan page: keys, data sizes, and the rows whose data is small (larger data is read
 * afterwards, as much as the answer can take). Both databases: `$n` placeholders for PostgreSQL, `?` for SQLite; key order is byte
 * order on both (COLLATE "C" on PostgreSQL, as its index).
 *
 * When an index narrows the scan to the matching rows (the first 8 bytes of data: an account type or
 * a mint; a token account's owner field), a page is the next `limit` matching keys. Any other match is
 * checked on every row of the owner, so a page is the next `limit` rows looked at (those that fail come
 * back without a size): a selective filter over a million accounts is read in bounded steps, never in
 * one statement that holds the database (and, on SQLite, the event loop) until it has seen them all.
 */
export function scanPageSql(owner: string, after: string | null, limit: number, match: RowMatch, dialect: 'sqlite' | 'postgres') {
  if (!BASE58.test(owner)) throw new Error(`not an account address: ${owner}`);
  // Conditions on the data as (text, values); placeholders are numbered when the text is put together.
  const conds: [string, unknown][] = [];
  let indexed = false;
  if (match.dataSize !== undefined) conds.push(['length(data) = ', match.dataSize]);
  for (const m of match.bytes) {
    if (!m.bytes.length) continue;
    if (m.offset === 0 && m.bytes.length >= 8) {
      // The expression of the (owner, first 8 bytes, key) index, then the rest of the run.
      conds.push(['substr(data, 1, 8) = ', Buffer.from(m.bytes.subarray(0, 8))]);
      indexed = true;
      if (m.bytes.length === 8) continue;
    }
    if (m.offset === 32 && m.bytes.length === 32 && TOKEN_OWNER_INDEXED.has(owner)) indexed = true;
    conds.push([`substr(data, ${m.offset + 1}, ${m.bytes.length}) = `, Buffer.from(m.bytes)]);
  }
  const values: unknown[] = [];
  const param = (v: unknown) => {
    values.push(v);
    return dialect === 'postgres' ? `$${values.length}` : '?';
  };
  const condSql = () => conds.map(([text, v]) => `${text}${param(v)}`).join(' and ');
  const key = dialect === 'postgres' ? 'pubkey collate "C"' : 'pubkey';
  const checked = indexed || !conds.length;
  const size = checked ? 'length(data)' : `case when ${condSql()} then length(data) end`;
  const data = `case when ${checked ? '' : `${condSql()} and `}length(data) <= ${SCAN_INLINE_BYTES} then data end`;
  // The owner literally where a partial index is named by it (a validated base58 address: nothing to quote).
  const where = [`owner = ${TOKEN_OWNER_INDEXED.has(owner) ? `'${owner}'` : param(owner)}`];
  if (after !== null) where.push(`${key} > ${param(after)}`);
  if (indexed) where.push(condSql());
  return { text: `select pubkey, owner, lamports, ${size} as size, ${data} as data from chain_account where ${where.join(' and ')} order by ${key} limit ${param(limit)}`, values };
}

type PageRow = Omit<AccountRow, 'data'> & { size: number | string | null; data: Uint8Array | null };

/** A page from the rows a scan statement returned: the matching keys (small rows whole), and where the next page starts. */
function pageOf(rows: PageRow[], limit: number): ScanPage {
  const last = rows.length < limit ? null : rows[rows.length - 1].pubkey;
  const keys: ScanPage['keys'] = [];
  for (const r of rows) {
    if (r.size === null) continue;
    keys.push({ pubkey: r.pubkey, size: Number(r.size), row: r.data ? { pubkey: r.pubkey, owner: r.owner, lamports: r.lamports, data: r.data } : undefined });
  }
  return { keys, last };
}

export interface AccountReader {
  /** Rows of those of `keys` that exist (synchronous on SQLite). */
  rows(keys: string[], db?: Kysely<Database>): Map<string, AccountRow> | Promise<Map<string, AccountRow>>;
  /** Keys of accounts owned by `owner`, optionally only those whose data starts with `tag` (8 bytes). */
  keysByOwner(owner: string, tag?: Uint8Array): string[] | Promise<string[]>;
  /** A page of the keys owned by `owner` after key `after` (byte order) whose rows pass `match` (scanPageSql). */
  scanPage(owner: string, after: string | null, limit: number, match: RowMatch): ScanPage | Promise<ScanPage>;
  close(): void;
}

export function sqliteReader(file: string): AccountReader {
  const conn = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
  conn.pragma('busy_timeout = 5000');
  const one = conn.prepare<[string], AccountRow>('select pubkey, owner, lamports, data from chain_account where pubkey = ?');
  // The same expression as the (owner, substr(data, 1, 8), pubkey) index (migration 2026-11-28T0000).
  const byTag = conn.prepare<[string, Buffer], { pubkey: string }>('select pubkey from chain_account where owner = ? and substr(data, 1, 8) = ?');
  const byOwner = conn.prepare<[string], { pubkey: string }>('select pubkey from chain_account where owner = ?');
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
    scanPage(owner, after, limit, match) {
      const q = scanPageSql(owner, after, limit, match, 'sqlite');
      return pageOf(conn.prepare(q.text).all(...q.values) as PageRow[], limit);
    },
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
    async scanPage(owner, after, limit, match) {
      const q = scanPageSql(owner, after, limit, match, dialectOf(db));
      return pageOf((await db.executeQuery<PageRow>(CompiledQuery.raw(q.text, q.values))).rows, limit);
    },
    close() {},
  };
}

const isThenable = <T>(v: T | Promise<T>): v is Promise<T> => typeof (v as { then?: unknown })?.then === 'function';
/** Calls `then` at once on a plain value (no microtask: a synchronous read stays synchronous), else after it resolves. */
export function after<T, R>(v: T | Promise<T>, then: (x: T) => R): R | Promise<Awaited<R>> {
  return isThenable(v) ? (v.then(then) as Promise<Awaited<R>>) : then(v);
}
