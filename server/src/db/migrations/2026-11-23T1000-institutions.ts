import { sql, type Kysely } from 'kysely';
import { int64 } from '../dialect';

// Frozen: never edit after release; add a new dated file instead.
// Institutions in the product (issue 14, notes/institutions-design.md):
// - issuer_profile: what the chain cannot hold about an issuer (its domain proof). Name, uri and status
//   stay on the on-chain Issuer account.
// - wallet_action: the prepared wallet transactions of institutions and holders (register, issue,
//   request, confirm, revoke), like mint_attempt: found back by the message's hash.
// - confirmation_request: a holder's consent that an institution sees the file; one open per certificate.
// - audit_log: append-only record of every issuer and operator action (no code updates or deletes it).
// - certificate: the institution that issued/confirmed it, the one asked, whether the claims were
//   confirmed by it, and the off-chain note of a revocation.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('issuer_profile')
    .addColumn('authority', 'text', (c) => c.primaryKey())
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('registered_at', 'text', (c) => c.notNull())
    .addColumn('proof_status', 'text', (c) => c.notNull().defaultTo('unproven'))
    .addColumn('proof_method', 'text')
    .addColumn('proven_at', 'text')
    .addColumn('checked_at', 'text')
    .addColumn('findings', 'text')
    .execute();

  await db.schema
    .createTable('wallet_action')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('signer', 'text', (c) => c.notNull())
    .addColumn('certificate_id', 'text')
    .addColumn('request_id', 'text')
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('message_sha256', 'text', (c) => c.notNull().unique())
    .addColumn('signature', 'text', (c) => c.notNull())
    .addColumn('signed_transaction', 'text')
    .addColumn('blockhash', 'text', (c) => c.notNull())
    .addColumn('last_valid_block_height', int64)
    .addColumn('expires_at', int64, (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('wallet_action_status_idx').on('wallet_action').columns(['status', 'updated_at']).execute();

  await db.schema
    .createTable('confirmation_request')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('certificate_id', 'text', (c) => c.notNull().references('certificate.id').onDelete('cascade'))
    .addColumn('holder_user_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('issuer_authority', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('claims', 'text', (c) => c.notNull())
    .addColumn('request_signature', 'text')
    .addColumn('decline_reason', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('decided_at', 'text')
    .addColumn('decision_signature', 'text')
    .execute();
  await db.schema.createIndex('confirmation_request_issuer_idx').on('confirmation_request').columns(['issuer_authority', 'status', 'created_at']).execute();
  // One open request per certificate (a new request closes the earlier one first).
  await sql`create unique index confirmation_request_open_uq on confirmation_request (certificate_id) where status = 'open'`.execute(db);

  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('actor_wallet', 'text', (c) => c.notNull())
    .addColumn('actor_role', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target', 'text')
    .addColumn('signature', 'text')
    .addColumn('details', 'text')
    .execute();
  await db.schema.createIndex('audit_log_at_idx').on('audit_log').columns(['at', 'id']).execute();

  await db.schema.alterTable('certificate').addColumn('issuer_authority', 'text').execute();
  await db.schema.alterTable('certificate').addColumn('requested_issuer', 'text').execute();
  await db.schema.alterTable('certificate').addColumn('claims_confirmed', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('certificate').addColumn('revocation_note', 'text').execute();
  await db.schema.createIndex('certificate_issuer_idx').on('certificate').columns(['issuer_authority', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('certificate_issuer_idx').execute();
  for (const c of ['revocation_note', 'claims_confirmed', 'requested_issuer', 'issuer_authority']) await db.schema.alterTable('certificate').dropColumn(c).execute();
  for (const t of ['audit_log', 'confirmation_request', 'wallet_action', 'issuer_profile']) await db.schema.dropTable(t).execute();
}
