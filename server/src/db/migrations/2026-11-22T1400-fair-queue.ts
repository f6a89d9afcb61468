import { sql, type Kysely } from 'kysely';
import { int64 } from '../dialect';

// Frozen: never edit after release; add a new dated file instead.
// Fair verification queue (services/verification/queue.ts): jobs are served holder by holder, the
// holder served longest ago first, with a cap on each holder's running jobs, so one holder's burst
// cannot hold up everyone else's certificates.
// - holder_id: the certificate's holder (user id), copied onto the job so the claim groups ready jobs
//   by holder from an index instead of joining every certificate;
// - claimed_at: when the job was last claimed (epoch ms); a holder's latest is "last served".
// Indexes: (status, holder_id, run_after) for the ready jobs per holder and a holder's running count;
// (holder_id, claimed_at) for a holder's last service, whatever its number of finished jobs.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('verification_job').addColumn('holder_id', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('verification_job').addColumn('claimed_at', int64).execute();
  await db
    .updateTable('verification_job')
    .set({ holder_id: sql`coalesce((select "user_id" from "certificate" where "certificate"."id" = "verification_job"."certificate_id"), '')` })
    .execute();
  await db.schema.createIndex('verification_job_holder_ready_idx').on('verification_job').columns(['status', 'holder_id', 'run_after']).execute();
  await db.schema.createIndex('verification_job_holder_served_idx').on('verification_job').columns(['holder_id', 'claimed_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('verification_job_holder_served_idx').execute();
  await db.schema.dropIndex('verification_job_holder_ready_idx').execute();
  await db.schema.alterTable('verification_job').dropColumn('claimed_at').execute();
  await db.schema.alterTable('verification_job').dropColumn('holder_id').execute();
}
