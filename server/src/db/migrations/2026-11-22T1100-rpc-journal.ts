import type { Kysely } from 'kysely';
import { binary, int64 } from '../dialect';

// Frozen: never edit after release; add a new dated file instead.
// The JSON-RPC endpoint's transaction journal (server/src/rpc/journal.ts): the wire bytes, fee and
// balances of every transaction the embedded chain ran, and an index from account to signatures for
// getSignaturesForAddress. These tables were created by the journal itself before this migration, hence
// IF NOT EXISTS: existing data dirs keep theirs.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('rpc_transaction')
    .ifNotExists()
    .addColumn('signature', 'text', (c) => c.primaryKey())
    .addColumn('slot', int64, (c) => c.notNull())
    .addColumn('block_time', int64, (c) => c.notNull())
    .addColumn('wire', binary(db), (c) => c.notNull())
    .addColumn('fee', int64, (c) => c.notNull())
    .addColumn('pre_balances', 'text', (c) => c.notNull())
    .addColumn('post_balances', 'text', (c) => c.notNull())
    .addColumn('err', 'text')
    .execute();
  await db.schema
    .createTable('rpc_transaction_account')
    .ifNotExists()
    .addColumn('pubkey', 'text', (c) => c.notNull())
    .addColumn('slot', int64, (c) => c.notNull())
    .addColumn('signature', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('rpc_transaction_account_pk', ['pubkey', 'signature'])
    .execute();
  await db.schema
    .createIndex('rpc_transaction_account_by_key')
    .ifNotExists()
    .on('rpc_transaction_account')
    .columns(['pubkey', 'slot desc', 'signature'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('rpc_transaction_account').execute();
  await db.schema.dropTable('rpc_transaction').execute();
}
