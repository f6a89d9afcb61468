import type { Kysely } from 'kysely';

// Frozen: never edit after release; add a new dated file instead.
// The support outbox: contact messages and feedback are stored before any forwarding, so nothing a
// visitor sent is lost when Telegram/SMTP is down or not configured. status: pending → sent | failed,
// or not_configured when no channel is set up (the database is then the inbox).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('contact_message')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('inquiry_type', 'text', (c) => c.notNull())
    .addColumn('priority', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('channel', 'text') // telegram | smtp | null
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('forwarded_at', 'text')
    .execute();
  await db.schema.createIndex('contact_message_status_idx').on('contact_message').columns(['status', 'created_at']).execute();

  await db.schema
    .createTable('feedback')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('user_email', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('channel', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('forwarded_at', 'text')
    .execute();
  await db.schema.createIndex('feedback_status_idx').on('feedback').columns(['status', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('feedback').execute();
  await db.schema.dropTable('contact_message').execute();
}
