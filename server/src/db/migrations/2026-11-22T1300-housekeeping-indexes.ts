import type { Kysely } from 'kysely';

// Frozen: never edit after release; add a new dated file instead.
// - Sign-in removes the user's expired sessions (and connect tokens) by (user_id, expires_at); the
//   cascade delete from `user` uses it too.
// - JSON-RPC getProgramAccounts / getTokenAccountsByOwner read chain accounts by owner.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('session_user_idx').on('session').columns(['user_id', 'expires_at']).execute();
  await db.schema.createIndex('chain_account_owner_idx').on('chain_account').column('owner').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('chain_account_owner_idx').execute();
  await db.schema.dropIndex('session_user_idx').execute();
}
