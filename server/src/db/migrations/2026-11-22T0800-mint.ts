import { sql, type Kysely } from 'kysely';
import { int64 } from '../dialect';

// Frozen: never edit after release; add a new dated file instead. (int64 was introduced for
// PostgreSQL; on SQLite it is the same INTEGER affinity as before.)
export async function up(db: Kysely<any>): Promise<void> {
  // One row per prepared mint transaction. The chain record's nft_mint is the truth; this table is
  // how the server finds its way back to it (mint address, signature, permanent URLs) after a crash.
  await db.schema
    .createTable('mint_attempt')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('certificate_id', 'text', (c) => c.notNull().references('certificate.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('holder_wallet', 'text', (c) => c.notNull())
    .addColumn('mint_address', 'text', (c) => c.notNull().unique())
    // The exact message the holder must sign (base64) and its SHA-256 (hex).
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('message_sha256', 'text', (c) => c.notNull())
    // Known at prepare time: the fee payer's signature is the transaction id.
    .addColumn('signature', 'text', (c) => c.notNull())
    .addColumn('signed_transaction', 'text')
    .addColumn('blockhash', 'text', (c) => c.notNull())
    .addColumn('last_valid_block_height', int64)
    .addColumn('expires_at', int64, (c) => c.notNull()) // epoch ms
    .addColumn('metadata_url', 'text', (c) => c.notNull())
    .addColumn('pdf_url', 'text', (c) => c.notNull())
    // prepared → submitted → minted | failed | expired | superseded
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('mint_attempt_cert_idx').on('mint_attempt').columns(['certificate_id', 'created_at']).execute();
  // At most one transaction in flight and one recorded mint per certificate: the DB-level guard
  // against two submissions racing (the program refuses a second mint anyway: AlreadyMinted).
  await sql`create unique index mint_attempt_one_submitted on mint_attempt (certificate_id) where status = 'submitted'`.execute(db);
  await sql`create unique index mint_attempt_one_minted on mint_attempt (certificate_id) where status = 'minted'`.execute(db);

  // Permanent copies by content hash, so a retry reuses an upload even on stores that are not
  // content-addressed (Arweave gives every upload a new id and costs money).
  await db.schema
    .createTable('permanent_copy')
    .addColumn('content_sha256', 'text', (c) => c.notNull())
    // Which store (and public base) the copy lives in: switching stores uploads again.
    .addColumn('store', 'text', (c) => c.notNull())
    .addColumn('object_id', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('permanent_copy_pk', ['content_sha256', 'store'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('permanent_copy').execute();
  await db.schema.dropTable('mint_attempt').execute();
}
