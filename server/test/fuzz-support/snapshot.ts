// "Did this call write anything?": every table's row count and content digest, plus every file in the
// data dir (blobs, photos, permanent copies). Tables are listed through Kysely's introspection, not
// sqlite_master, so the same helper works on the PostgreSQL port.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';

/**
 * Columns that may change on a rejected call by design, so they are left out of the digest (the
 * row counts still cover their tables):
 * - api_key.last_used_at: stamped when a key authenticates (at most once a minute), before the
 *   endpoint judges the request — a usage log, not a write of the call.
 * The server has no append-only request log (chain_transaction and the RPC journal are written only
 * by transactions, which rejected calls must not send).
 */
export const VOLATILE_COLUMNS: Record<string, string[]> = { api_key: ['last_used_at'] };

/**
 * Rows that move with time and with reads, left out (their tables stay in): the embedded chain's slot
 * and its window of recent blockhashes (chain_meta), rotated when anyone asks for a blockhash (a read,
 * the clock) and saved in the background — an earlier call's rotation could land inside the next
 * call's before/after pair (seen once in a PostgreSQL run).
 */
export const VOLATILE_ROWS: Record<string, (row: Record<string, unknown>) => boolean> = {
  chain_meta: (r) => r.key === 'slot' || r.key === 'recent_blockhashes',
};

/**
 * Tables derived from the others and written beside requests, left out: the stored public verdicts
 * (the verdict store computes them in the background; database triggers delete and mark them when a
 * table they are made of changes — and that table is in the snapshot).
 */
export const DERIVED_TABLES = new Set(['public_verdict', 'public_verdict_dirty']);

// The database files themselves change on every write, including reads' WAL checkpoints.
const DB_FILE = /\.(sqlite|sqlite3|db)(-wal|-shm|-journal)?$/;

export interface Snapshot {
  tables: Record<string, { rows: number; digest: string }>;
  /** Relative path → size:mtime (a rewrite shows as a changed mtime; no need to read every blob per call). */
  files: Record<string, string>;
}

export async function listTables(db: Kysely<any>): Promise<string[]> {
  const tables = await db.introspection.getTables(); // Kysely's own migration tables are excluded by default
  return tables.filter((t) => !t.isView).map((t) => t.name).sort();
}

const canon = (v: unknown): unknown =>
  Buffer.isBuffer(v) || v instanceof Uint8Array ? `0x${Buffer.from(v).toString('hex')}` : typeof v === 'bigint' ? v.toString() : v instanceof Date ? v.toISOString() : v;

async function tableState(db: Kysely<any>, table: string) {
  const volatile = VOLATILE_ROWS[table];
  const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db)).rows.filter((r) => !volatile?.(r));
  const skip = new Set(VOLATILE_COLUMNS[table] ?? []);
  // Order-independent: sort the canonical row strings (tables have different keys, some none).
  const lines = rows
    .map((r) =>
      JSON.stringify(
        Object.keys(r)
          .filter((k) => !skip.has(k))
          .sort()
          .map((k) => [k, canon(r[k])]),
      ),
    )
    .sort();
  return { rows: rows.length, digest: createHash('sha256').update(lines.join('\n')).digest('hex') };
}

function listFiles(root: string, dir = root, out: Record<string, string> = {}): Record<string, string> {
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) listFiles(root, p, out);
    else if (!DB_FILE.test(e.name)) {
      const st = fs.statSync(p);
      out[path.relative(root, p)] = `${st.size}:${st.mtimeMs}`;
    }
  }
  return out;
}

// The schema does not change under a fuzz run: listed once per database. (Introspection is ~17 ms a
// call on PostgreSQL, more than reading all the tables: half the PostgreSQL fuzz runs' time.)
const tablesOf = new WeakMap<Kysely<any>, Promise<string[]>>();

export async function snapshot(db: Kysely<any>, dataDir: string): Promise<Snapshot> {
  const tables: Snapshot['tables'] = {};
  if (!tablesOf.has(db)) tablesOf.set(db, listTables(db));
  for (const t of await tablesOf.get(db)!) if (!DERIVED_TABLES.has(t)) tables[t] = await tableState(db, t);
  return { tables, files: listFiles(dataDir) };
}

/** Human-readable differences (empty when nothing changed). */
export function diffSnapshots(a: Snapshot, b: Snapshot): string[] {
  const out: string[] = [];
  for (const t of new Set([...Object.keys(a.tables), ...Object.keys(b.tables)])) {
    const x = a.tables[t];
    const y = b.tables[t];
    if (!x || !y) out.push(`table ${t}: ${x ? 'dropped' : 'created'}`);
    else if (x.rows !== y.rows) out.push(`table ${t}: ${x.rows} → ${y.rows} rows`);
    else if (x.digest !== y.digest) out.push(`table ${t}: rows changed`);
  }
  for (const f of new Set([...Object.keys(a.files), ...Object.keys(b.files)])) {
    if (a.files[f] !== b.files[f]) out.push(`file ${f}: ${a.files[f] ? (b.files[f] ? 'changed' : 'deleted') : 'created'}`);
  }
  return out;
}
