import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect';

// Frozen: never edit after release; add a new dated file instead.
// The public verdict by hash, stored (issue "Scale": a cold verify in one read). `public_verdict`
// holds the verdict JSON the verdict service computed from one committed state; the database itself
// keeps it honest: a trigger on every table the verdict is made of (certificate, its holder's name and
// photo, its transactions, the chain accounts of its record and of the institution it names, the
// institution's domain proof) deletes the stored verdicts that read the changed row, in the writer's
// own transaction, and marks their hashes in `public_verdict_dirty` for the store to compute again
// (services/certificates/verdict-store.ts). A verdict is never served after a change it did not see:
// the row it would be served from is gone when the change commits.

const DEPENDENCY_INDEXES = ['cert_id', 'user_id', 'record_address', 'issuer_authority', 'issuer_address', 'stale_at'] as const;

/** For each table: the public_verdict column a changed row's key matches, and that key in the row. */
const SOURCES = [
  { table: 'user', column: 'user_id', key: 'id', updateOf: 'full_name, profile_image_url' },
  { table: 'chain_transaction', column: 'cert_id', key: 'certificate_id' },
  { table: 'chain_account', column: 'record_address', key: 'pubkey' },
  { table: 'chain_account', column: 'issuer_address', key: 'pubkey' },
  { table: 'issuer_profile', column: 'issuer_authority', key: 'authority' },
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('public_verdict')
    .addColumn('sha256', 'text', (c) => c.primaryKey())
    .addColumn('body', 'text', (c) => c.notNull()) // the verdict JSON, certificate URLs relative, no checked_at
    .addColumn('stale_at', 'bigint') // unix seconds: the record expires then (computed again)
    .addColumn('cert_id', 'text')
    .addColumn('user_id', 'text')
    .addColumn('record_address', 'text', (c) => c.notNull())
    .addColumn('issuer_authority', 'text')
    .addColumn('issuer_address', 'text')
    .addColumn('computed_at', 'text', (c) => c.notNull())
    .execute();
  for (const col of DEPENDENCY_INDEXES) await db.schema.createIndex(`public_verdict_${col}_idx`).on('public_verdict').column(col).execute();
  await db.schema.createTable('public_verdict_dirty').addColumn('sha256', 'text', (c) => c.primaryKey()).execute();
  if (isPostgres(db)) await postgresTriggers(db);
  else await sqliteTriggers(db);
  // Every certificate there is now: computed by the store in the background after start.
  await sql`insert into public_verdict_dirty (sha256) select distinct sha256 from certificate`.execute(db);
}

/** Marks and deletes the verdicts whose `column` is `value` (SQL text, an OLD./NEW. reference). */
const forget = (column: string, value: string, ignore: 'or ignore ' | '', conflict: ' on conflict do nothing' | '') =>
  `insert ${ignore}into public_verdict_dirty (sha256) select sha256 from public_verdict where ${column} = ${value}${conflict};
   delete from public_verdict where ${column} = ${value};`;

async function sqliteTriggers(db: Kysely<any>) {
  const mark = (v: string) => `insert or ignore into public_verdict_dirty (sha256) values (${v}); delete from public_verdict where sha256 = ${v};`;
  await sql.raw(`create trigger public_verdict_certificate_ins after insert on certificate begin ${mark('new.sha256')} end`).execute(db);
  await sql.raw(`create trigger public_verdict_certificate_upd after update on certificate begin ${mark('old.sha256')} ${mark('new.sha256')} end`).execute(db);
  await sql.raw(`create trigger public_verdict_certificate_del after delete on certificate begin ${mark('old.sha256')} end`).execute(db);
  for (const s of SOURCES) {
    const name = `public_verdict_${s.table}_${s.column}`;
    const of = 'updateOf' in s ? ` of ${s.updateOf}` : '';
    if (!('updateOf' in s)) await sql.raw(`create trigger ${name}_ins after insert on "${s.table}" begin ${forget(s.column, `new.${s.key}`, 'or ignore ', '')} end`).execute(db);
    await sql.raw(`create trigger ${name}_upd after update${of} on "${s.table}" begin ${forget(s.column, `old.${s.key}`, 'or ignore ', '')} ${forget(s.column, `new.${s.key}`, 'or ignore ', '')} end`).execute(db);
    if (!('updateOf' in s)) await sql.raw(`create trigger ${name}_del after delete on "${s.table}" begin ${forget(s.column, `old.${s.key}`, 'or ignore ', '')} end`).execute(db);
  }
}

async function postgresTriggers(db: Kysely<any>) {
  const mark = (v: string) => `insert into public_verdict_dirty (sha256) values (${v}) on conflict do nothing; delete from public_verdict where sha256 = ${v};`;
  const fn = async (name: string, onOld: string, onNew: string) =>
    sql
      .raw(
        `create function ${name}() returns trigger language plpgsql as $$
         begin
           if tg_op <> 'INSERT' then ${onOld} end if;
           if tg_op <> 'DELETE' then ${onNew} end if;
           return null;
         end $$`,
      )
      .execute(db);
  await fn('public_verdict_certificate', mark('old.sha256'), mark('new.sha256'));
  await sql.raw(`create trigger public_verdict_certificate after insert or update or delete on certificate for each row execute function public_verdict_certificate()`).execute(db);
  for (const s of SOURCES) {
    const name = `public_verdict_${s.table}_${s.column}`;
    await fn(name, forget(s.column, `old.${s.key}`, '', ' on conflict do nothing'), forget(s.column, `new.${s.key}`, '', ' on conflict do nothing'));
    const events = 'updateOf' in s ? `update of ${s.updateOf}` : 'insert or update or delete';
    await sql.raw(`create trigger ${name} after ${events} on "${s.table}" for each row execute function ${name}()`).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql.raw('drop trigger public_verdict_certificate on certificate').execute(db);
    await sql.raw('drop function public_verdict_certificate()').execute(db);
    for (const s of SOURCES) {
      const name = `public_verdict_${s.table}_${s.column}`;
      await sql.raw(`drop trigger ${name} on "${s.table}"`).execute(db);
      await sql.raw(`drop function ${name}()`).execute(db);
    }
  } else {
    for (const op of ['ins', 'upd', 'del']) await sql.raw(`drop trigger public_verdict_certificate_${op}`).execute(db);
    for (const s of SOURCES) for (const op of 'updateOf' in s ? ['upd'] : ['ins', 'upd', 'del']) await sql.raw(`drop trigger public_verdict_${s.table}_${s.column}_${op}`).execute(db);
  }
  await db.schema.dropTable('public_verdict_dirty').execute();
  await db.schema.dropTable('public_verdict').execute();
}
