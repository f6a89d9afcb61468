import type { Kysely } from 'kysely';

// Frozen: never edit after release; add a new dated file instead.
// REST API keys. Only the SHA-256 of a key is stored; `prefix` (unique, shown in lists) finds the
// row, the hash proves the secret. Connect tokens of POST /api/v1/auth/connect are `session` rows.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('api_key')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('prefix', 'text', (c) => c.notNull().unique())
    .addColumn('key_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('api_key_user_idx').on('api_key').columns(['user_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('api_key').execute();
}
