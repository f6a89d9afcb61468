import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect';

// Frozen: never edit after release; add a new dated file instead.
// The public verdict carries more, and reads one more column:
// - `flags` (what the platform's document check flagged, where that check is what the verdict rests on),
//   `original_sha256`, an expired record's reason with its date, a pending record's note, the transactions
//   of a record's certificate by hash whatever its status, and an institution confirming a file whose
//   claims name another institution (not valid). Verdicts stored by hash before this upgrade would be
//   served without them (nothing they are made of changes at an upgrade, so no trigger takes them away):
//   every stored verdict is taken away and marked for the verdict store to compute again, as in
//   2026-11-25T0000-verdict-words.
// - A hash may be the SHA-256 of an image a holder uploaded (`certificate.original_sha256`): its verdict is
//   that certificate's. The lookup has an index (a hash nobody uploaded is one index probe), and a
//   trigger on certificate takes the stored verdict of an original upload's hash away with any change of
//   its row, in the writer's transaction, as the public-verdict migration's triggers do for `sha256`.

export async function up(db: Kysely<any>): Promise<void> {
  // Idempotent (if not exists / or replace): running it again only takes the stored verdicts away again.
  await db.schema.createIndex('certificate_original_sha256_idx').ifNotExists().on('certificate').column('original_sha256').execute();
  if (isPostgres(db)) {
    const mark = (v: string) => `if ${v} is not null then insert into public_verdict_dirty (sha256) values (${v}) on conflict do nothing; delete from public_verdict where sha256 = ${v}; end if;`;
    await sql
      .raw(
        `create or replace function public_verdict_certificate_original() returns trigger language plpgsql as $$
         begin
           if tg_op <> 'INSERT' then ${mark('old.original_sha256')} end if;
           if tg_op <> 'DELETE' then ${mark('new.original_sha256')} end if;
           return null;
         end $$`,
      )
      .execute(db);
    await sql.raw('drop trigger if exists public_verdict_certificate_original on certificate').execute(db);
    await sql
      .raw('create trigger public_verdict_certificate_original after insert or update or delete on certificate for each row execute function public_verdict_certificate_original()')
      .execute(db);
  } else {
    const mark = (v: string) => `insert or ignore into public_verdict_dirty (sha256) select ${v} where ${v} is not null; delete from public_verdict where sha256 = ${v};`;
    await sql.raw(`create trigger if not exists public_verdict_certificate_original_ins after insert on certificate begin ${mark('new.original_sha256')} end`).execute(db);
    await sql.raw(`create trigger if not exists public_verdict_certificate_original_upd after update on certificate begin ${mark('old.original_sha256')} ${mark('new.original_sha256')} end`).execute(db);
    await sql.raw(`create trigger if not exists public_verdict_certificate_original_del after delete on certificate begin ${mark('old.original_sha256')} end`).execute(db);
  }
  // Stored verdicts first (a hash may have one without a certificate row), then every certificate's hashes.
  await sql`insert into public_verdict_dirty (sha256) select sha256 from public_verdict where sha256 not in (select sha256 from public_verdict_dirty)`.execute(db);
  await sql`insert into public_verdict_dirty (sha256) select distinct sha256 from certificate where sha256 not in (select sha256 from public_verdict_dirty)`.execute(db);
  await sql`insert into public_verdict_dirty (sha256) select distinct original_sha256 from certificate where original_sha256 is not null and original_sha256 not in (select sha256 from public_verdict_dirty)`.execute(db);
  await db.deleteFrom('public_verdict').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql.raw('drop trigger public_verdict_certificate_original on certificate').execute(db);
    await sql.raw('drop function public_verdict_certificate_original()').execute(db);
  } else {
    for (const op of ['ins', 'upd', 'del']) await sql.raw(`drop trigger public_verdict_certificate_original_${op}`).execute(db);
  }
  await db.schema.dropIndex('certificate_original_sha256_idx').execute();
}
