import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect';

// Frozen: never edit after release; add a new dated file instead.
// A stored public verdict reads a chain account's owner and data (the certificate record, the issuer
// account it names), never its lamports. Anyone may credit any account, so a 1-lamport transfer to
// twenty records really changed them, and the update triggers of migration 2026-11-24T0000 took their
// stored verdicts away: cold verifies went to live computation while the store computed them again.
// The chain_account update triggers now fire only when owner or data changes; an account that
// appears or goes (insert, delete) still takes them away, as before.

const SOURCES = [
  { column: 'record_address', key: 'pubkey' },
  { column: 'issuer_address', key: 'pubkey' },
] as const;

/** Marks and deletes the verdicts whose `column` is `value`, as migration 2026-11-24T0000 does. */
const forget = (column: string, value: string, ignore: 'or ignore ' | '', conflict: ' on conflict do nothing' | '') =>
  `insert ${ignore}into public_verdict_dirty (sha256) select sha256 from public_verdict where ${column} = ${value}${conflict};
   delete from public_verdict where ${column} = ${value};`;

export async function up(db: Kysely<any>): Promise<void> {
  for (const s of SOURCES) {
    const name = `public_verdict_chain_account_${s.column}`;
    if (isPostgres(db)) {
      // The function stays (it forgets by OLD and NEW); insert and delete keep their trigger, update gets one with a WHEN.
      await sql.raw(`drop trigger ${name} on chain_account`).execute(db);
      await sql.raw(`create trigger ${name} after insert or delete on chain_account for each row execute function ${name}()`).execute(db);
      await sql
        .raw(
          `create trigger ${name}_upd after update of owner, data on chain_account for each row
           when (old.owner is distinct from new.owner or old.data is distinct from new.data) execute function ${name}()`,
        )
        .execute(db);
    } else {
      await sql.raw(`drop trigger ${name}_upd`).execute(db);
      await sql
        .raw(
          `create trigger ${name}_upd after update of owner, data on chain_account
           when old.owner is not new.owner or old.data is not new.data
           begin ${forget(s.column, `old.${s.key}`, 'or ignore ', '')} ${forget(s.column, `new.${s.key}`, 'or ignore ', '')} end`,
        )
        .execute(db);
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const s of SOURCES) {
    const name = `public_verdict_chain_account_${s.column}`;
    if (isPostgres(db)) {
      await sql.raw(`drop trigger ${name}_upd on chain_account`).execute(db);
      await sql.raw(`drop trigger ${name} on chain_account`).execute(db);
      await sql.raw(`create trigger ${name} after insert or update or delete on chain_account for each row execute function ${name}()`).execute(db);
    } else {
      await sql.raw(`drop trigger ${name}_upd`).execute(db);
      await sql
        .raw(`create trigger ${name}_upd after update on "chain_account" begin ${forget(s.column, `old.${s.key}`, 'or ignore ', '')} ${forget(s.column, `new.${s.key}`, 'or ignore ', '')} end`)
        .execute(db);
    }
  }
}
