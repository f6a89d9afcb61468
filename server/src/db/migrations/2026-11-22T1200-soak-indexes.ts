import type { Kysely } from 'kysely';

// Frozen: never edit after release; add a new dated file instead.
// Found by the soak (EXPLAIN QUERY PLAN of every statement the load ran):
// - every nonce request deletes long-expired nonces by expires_at, which scanned the whole table;
// - enqueue looks up a certificate's active job, and deleting a certificate cascades to its jobs,
//   both by certificate_id, which had no index.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('sign_in_nonce_expires_idx').on('sign_in_nonce').column('expires_at').execute();
  await db.schema.createIndex('verification_job_cert_idx').on('verification_job').columns(['certificate_id', 'status']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('verification_job_cert_idx').execute();
  await db.schema.dropIndex('sign_in_nonce_expires_idx').execute();
}
