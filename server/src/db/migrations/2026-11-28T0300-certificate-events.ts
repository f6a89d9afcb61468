import type { Kysely } from 'kysely';

// Frozen: never edit after release; add a new dated file instead.
// What institutions, the operator and the holder did to a certificate, as entries of its history beside
// the platform's verification runs (services/certificates/history.ts): an institution's issue,
// confirmation (and whether it covers the details shown) and decline, any revocation or supersede (by a
// flow of this server, or followed from the chain), a confirmation request and its withdrawal. Who,
// what, when and the transaction signature. Append-only, like audit_log.
// confirmation_request.withdrawn_reason: why a request was closed without an answer (the holder changed
// the details it showed, asked another institution, the certificate was revoked...), for the holder.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('certificate_event')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('certificate_id', 'text', (c) => c.notNull().references('certificate.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('actor_role', 'text', (c) => c.notNull())
    .addColumn('actor_wallet', 'text')
    .addColumn('actor_name', 'text')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('signature', 'text')
    .addColumn('details', 'text')
    .addColumn('at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('certificate_event_certificate_idx').on('certificate_event').columns(['certificate_id', 'at']).execute();
  await db.schema.alterTable('confirmation_request').addColumn('withdrawn_reason', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('confirmation_request').dropColumn('withdrawn_reason').execute();
  await db.schema.dropTable('certificate_event').execute();
}
