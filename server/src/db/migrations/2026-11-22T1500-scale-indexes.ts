import { sql, type Kysely } from 'kysely';

// Frozen: never edit after release; add a new dated file instead.
// Start-up and per-job lookups that scanned a table growing with every certificate (issue "Scale"):
// - the embedded chain's program accounts by account type (the issuer set, once per verification
//   job): owner and the first 8 bytes of data (the Anchor discriminator). The same expression,
//   `substr(data, 1, 8)`, on both databases (SQLite blob, PostgreSQL bytea), in the index and the query;
// - the chain follower's catch-up at start: transactions of a kind (`rpc_send`) after a slot;
// - the chain follower's rows for the record accounts a transaction names (certificate.record_address);
// - mint reconcile at start: attempts in flight or recently failed (status, updated_at).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index chain_account_owner_tag_idx on chain_account (owner, substr(data, 1, 8))`.execute(db);
  await db.schema.createIndex('chain_transaction_kind_slot_idx').on('chain_transaction').columns(['kind', 'slot']).execute();
  await db.schema.createIndex('certificate_record_idx').on('certificate').column('record_address').execute();
  await db.schema.createIndex('mint_attempt_status_idx').on('mint_attempt').columns(['status', 'updated_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('mint_attempt_status_idx').execute();
  await db.schema.dropIndex('certificate_record_idx').execute();
  await db.schema.dropIndex('chain_transaction_kind_slot_idx').execute();
  await db.schema.dropIndex('chain_account_owner_tag_idx').execute();
}
