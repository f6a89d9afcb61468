import type { Kysely } from 'kysely';
import { binary, int64 } from '../dialect';

// Frozen: never edit after release; add a new dated file instead. (The int64/binary types were
// introduced for PostgreSQL; on SQLite they are the same INTEGER and BLOB affinities as before.)
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('user')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('wallet_address', 'text', (c) => c.notNull().unique())
    .addColumn('full_name', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('profile_image_key', 'text')
    .addColumn('profile_image_url', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sign_in_nonce')
    .addColumn('nonce', 'text', (c) => c.primaryKey())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('expires_at', int64, (c) => c.notNull())
    .addColumn('used_at', int64)
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('session')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', int64, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('certificate')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('institution_name', 'text', (c) => c.notNull())
    .addColumn('program_name', 'text', (c) => c.notNull())
    .addColumn('issue_date', 'text', (c) => c.notNull())
    .addColumn('verification_status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('verification_details', 'text')
    .addColumn('tier', 'text', (c) => c.notNull().defaultTo('none'))
    .addColumn('file_key', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('file_mime', 'text', (c) => c.notNull())
    .addColumn('file_size', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull().unique())
    .addColumn('original_sha256', 'text')
    .addColumn('original_mime', 'text')
    .addColumn('record_address', 'text', (c) => c.notNull())
    .addColumn('holder_wallet', 'text', (c) => c.notNull())
    .addColumn('anchor_signature', 'text')
    .addColumn('verify_signature', 'text')
    .addColumn('arweave_url', 'text')
    .addColumn('nft_mint_address', 'text')
    .addColumn('mint_signature', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('certificate_user_idx').on('certificate').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('verification_job')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('certificate_id', 'text', (c) => c.notNull().references('certificate.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('run_after', int64, (c) => c.notNull())
    .addColumn('locked_until', int64)
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('verification_job_ready_idx').on('verification_job').columns(['status', 'run_after']).execute();

  await db.schema
    .createTable('verification_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('certificate_id', 'text', (c) => c.notNull().references('certificate.id').onDelete('cascade'))
    .addColumn('job_id', 'text', (c) => c.notNull())
    .addColumn('verification_step', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('details', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    // One entry per step per run: re-running a step after a crash cannot duplicate it.
    .addUniqueConstraint('verification_log_job_step_uq', ['job_id', 'verification_step'])
    .execute();
  await db.schema.createIndex('verification_log_cert_idx').on('verification_log').columns(['certificate_id', 'created_at']).execute();

  await db.schema
    .createTable('chain_account')
    .addColumn('pubkey', 'text', (c) => c.primaryKey())
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('lamports', 'text', (c) => c.notNull())
    .addColumn('data', binary(db), (c) => c.notNull())
    .addColumn('executable', 'integer', (c) => c.notNull())
    .addColumn('rent_epoch', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('chain_transaction')
    .addColumn('signature', 'text', (c) => c.primaryKey())
    .addColumn('slot', int64, (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('certificate_id', 'text')
    .addColumn('logs', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('compute_units', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('chain_transaction_cert_idx').on('chain_transaction').columns(['certificate_id']).execute();

  await db.schema
    .createTable('chain_meta')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['chain_meta', 'chain_transaction', 'chain_account', 'verification_log', 'verification_job', 'certificate', 'session', 'sign_in_nonce', 'user']) {
    await db.schema.dropTable(t).execute();
  }
}
