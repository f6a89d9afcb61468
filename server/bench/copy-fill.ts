import Database from 'better-sqlite3';
import pg from 'pg';
import { openDatabase } from '../src/db';

// A SQLite data dir's database copied row for row into a PostgreSQL database migrated to the same
// schema: the scale bench's PostgreSQL fill of N made from its SQLite fill of N (--postgres-from-sqlite).
// The rows are the ones the anchoring code wrote; only their storage changes. Filling through the
// anchoring code runs at ~100 certificates/s on PostgreSQL (a round trip per statement), so 1,000,000
// took ~2.8 hours of a quiet machine; the copy takes minutes.

/** Rows per INSERT: under PostgreSQL's 65,535 parameters for the widest table, and a few MB a statement. */
const PARAMS_PER_STATEMENT = 20_000;

export interface CopiedTable {
  table: string;
  rows: number;
}

/**
 * Copies every table of the migrated schema from `sqliteFile` into the PostgreSQL database at `url`
 * (migrated first; its tables emptied), in one transaction: a copy stopped part-way leaves nothing.
 * Both sides must be at the same migration. Foreign keys are not checked during the copy (the rows
 * arrive table by table, in no particular order); they held in the SQLite database they came from.
 */
export async function copySqliteToPostgres(sqliteFile: string, url: string, log: (s: string) => void = () => {}): Promise<CopiedTable[]> {
  const { db } = await openDatabase({ kind: 'postgres', url });
  await db.destroy();
  const source = new Database(sqliteFile, { readonly: true, fileMustExist: true });
  const target = new pg.Client({ connectionString: url });
  await target.connect();
  const copied: CopiedTable[] = [];
  try {
    const migrations = (table: string) => source.prepare(`select name from ${table} order by name`).pluck().all() as string[];
    const [from, to] = [migrations('kysely_migration'), (await target.query('select name from kysely_migration order by name')).rows.map((r) => r.name as string)];
    if (from.join() !== to.join()) throw new Error(`${sqliteFile} is at migration ${from.at(-1)}, PostgreSQL at ${to.at(-1)}: open the SQLite data dir with this build first`);
    const tables = (
      await target.query<{ table_name: string }>(
        `select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' and table_name not like 'kysely_%' order by table_name`,
      )
    ).rows.map((r) => r.table_name);
    await target.query('begin');
    await target.query('set local session_replication_role = replica'); // no foreign-key triggers
    await target.query(`truncate ${tables.map((t) => `"${t}"`).join(', ')}`);
    for (const table of tables) {
      const t0 = performance.now();
      const columns = (
        await target.query<{ column_name: string }>(`select column_name from information_schema.columns where table_schema = 'public' and table_name = $1 order by ordinal_position`, [table])
      ).rows.map((r) => r.column_name);
      const have = new Set((source.prepare(`select name from pragma_table_info(?)`).pluck().all(table) as string[]));
      const missing = columns.filter((c) => !have.has(c));
      if (missing.length) throw new Error(`${table}: SQLite has no column ${missing.join(', ')}`);
      const list = columns.map((c) => `"${c}"`).join(', ');
      const perStatement = Math.max(1, Math.floor(PARAMS_PER_STATEMENT / columns.length));
      const insert = (n: number) => {
        const values = Array.from({ length: n }, (_, r) => `(${columns.map((_, c) => `$${r * columns.length + c + 1}`).join(', ')})`);
        return `insert into "${table}" (${list}) values ${values.join(', ')}`;
      };
      const full = insert(perStatement);
      let batch: unknown[] = [];
      let rows = 0;
      const flush = async () => {
        const n = batch.length / columns.length;
        // The full-size statement is prepared once per table (named); the last, shorter one is not.
        await target.query(n === perStatement ? { name: `copy_${table}`, text: full, values: batch } : { text: insert(n), values: batch });
        rows += n;
        batch = [];
      };
      // Integers as BigInt: int8 columns (epoch milliseconds, lamports) keep every digit.
      const read = source.prepare(`select ${list} from "${table}"`).raw(true).safeIntegers(true);
      for (const row of read.iterate() as Iterable<unknown[]>) {
        batch.push(...row);
        if (batch.length === perStatement * columns.length) await flush();
      }
      if (batch.length) await flush();
      copied.push({ table, rows });
      if (rows) log(`  copied ${table}: ${rows.toLocaleString()} rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    }
    await target.query('commit');
    return copied;
  } catch (e) {
    await target.query('rollback').catch(() => {});
    throw e;
  } finally {
    await target.end();
    source.close();
  }
}
