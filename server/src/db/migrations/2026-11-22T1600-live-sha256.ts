import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect';

// Frozen: never edit after release; add a new dated file instead.
// A file's hash is unique among *live* certificates only. When an institution issues a file to its
// rightful holder, an earlier claimant's row of the same file becomes `superseded` and keeps its hash
// (its page still says what happened); the rightful holder can then add the file too. So the column
// UNIQUE constraint of 2026-11-22T0700-initial becomes a partial unique index,
//   certificate_sha256_live_uq ON certificate (sha256) WHERE verification_status <> 'superseded',
// and lookups by hash (which include superseded rows) get a plain index, certificate_sha256_idx.
//
// PostgreSQL drops the constraint (`certificate_sha256_key`, its default name) in the migration's
// transaction. SQLite cannot drop a column constraint: the table is rebuilt by its documented 12-step
// ALTER procedure (https://sqlite.org/lang_altertable.html#otheralter), in one transaction:
// foreign keys off for the rebuild (set outside the transaction, where the pragma has an effect;
// `defer_foreign_keys` alone is not enough: DROP TABLE of the old table would run its implicit DELETE
// and cascade to verification_log, verification_job and mint_attempt), the new table created from the
// old one's own definition minus the UNIQUE, rows copied, old dropped, new renamed, every index and
// trigger of the table recreated from its stored SQL, then `PRAGMA foreign_key_check` must find
// nothing before the commit.

const LIVE_UNIQUE = sql`create unique index certificate_sha256_live_uq on certificate (sha256) where verification_status <> 'superseded'`;
const BY_HASH = sql`create index certificate_sha256_idx on certificate (sha256)`;

export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`alter table certificate drop constraint certificate_sha256_key`.execute(db);
    await LIVE_UNIQUE.execute(db);
    await BY_HASH.execute(db);
    return;
  }
  await rebuildSqliteTable(db, 'certificate', (create) => replaceOnce(create, /"sha256" text not null unique/i, '"sha256" text not null'), async (trx) => {
    await LIVE_UNIQUE.execute(trx);
    await BY_HASH.execute(trx);
  });
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop index certificate_sha256_idx`.execute(db);
    await sql`drop index certificate_sha256_live_uq`.execute(db);
    await sql`alter table certificate add constraint certificate_sha256_key unique (sha256)`.execute(db);
    return;
  }
  await rebuildSqliteTable(
    db,
    'certificate',
    (create) => replaceOnce(create, /"sha256" text not null(?! unique)/i, '"sha256" text not null unique'),
    async () => undefined,
    ['certificate_sha256_live_uq', 'certificate_sha256_idx'],
  );
}

function replaceOnce(text: string, pattern: RegExp, replacement: string): string {
  const matches = text.match(new RegExp(pattern.source, `${pattern.flags}g`))?.length ?? 0;
  if (matches !== 1) throw new Error(`migration live-sha256: expected one ${pattern} in the table definition, found ${matches}`);
  return text.replace(pattern, replacement);
}

/**
 * SQLite's 12-step table rebuild: `table` gets the definition `transform(its CREATE TABLE)`, keeping
 * its rows, indexes and triggers (except `drop`), then `after` runs; all in one transaction.
 */
async function rebuildSqliteTable(
  db: Kysely<any>,
  table: string,
  transform: (createSql: string) => string,
  after: (trx: Kysely<any>) => Promise<void>,
  drop: string[] = [],
): Promise<void> {
  const foreignKeys = Number((await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db)).rows[0]?.foreign_keys ?? 0);
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    if (Number((await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db)).rows[0]?.foreign_keys ?? 0) !== 0) {
      throw new Error('migration live-sha256: foreign keys could not be turned off (the migration runs inside a transaction)');
    }
    await db.transaction().execute(async (trx) => {
      await sql`pragma defer_foreign_keys = on`.execute(trx);
      const objects = (
        await sql<{ type: string; name: string; sql: string | null }>`select type, name, sql from sqlite_master where tbl_name = ${table} order by rowid`.execute(trx)
      ).rows;
      const create = objects.find((o) => o.type === 'table' && o.name === table)?.sql;
      if (!create) throw new Error(`migration live-sha256: no table ${table}`);
      // Indexes made by constraints (sqlite_autoindex_*) have no SQL: the new definition makes its own.
      const keep = objects.filter((o) => (o.type === 'index' || o.type === 'trigger') && o.sql && !drop.includes(o.name));
      const views = (await sql<{ name: string }>`select name from sqlite_master where type = 'view'`.execute(trx)).rows;
      if (views.length) throw new Error('migration live-sha256: views exist; recreate them around this rebuild');

      const scratch = `${table}_rebuild`;
      const renamed = replaceOnce(transform(create), new RegExp(`^CREATE TABLE "?${table}"?`, 'i'), `CREATE TABLE "${scratch}"`);
      await sql.raw(renamed).execute(trx);
      const columns = (await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(trx)).rows.map((c) => `"${c.name}"`).join(', ');
      await sql.raw(`insert into "${scratch}" (${columns}) select ${columns} from "${table}"`).execute(trx);
      await sql.raw(`drop table "${table}"`).execute(trx);
      await sql.raw(`alter table "${scratch}" rename to "${table}"`).execute(trx);
      for (const o of keep) await sql.raw(o.sql!).execute(trx);
      await after(trx);

      const broken = (await sql<{ table: string; rowid: number; parent: string }>`pragma foreign_key_check`.execute(trx)).rows;
      if (broken.length) {
        throw new Error(`migration live-sha256: foreign keys broken by the rebuild: ${broken.slice(0, 5).map((b) => `${b.table} row ${b.rowid} → ${b.parent}`).join(', ')}`);
      }
    });
  } finally {
    if (foreignKeys) await sql`pragma foreign_keys = on`.execute(db);
  }
}
