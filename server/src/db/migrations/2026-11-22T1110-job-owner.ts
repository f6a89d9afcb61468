import type { Kysely } from 'kysely';

// Frozen: never edit after release; add a new dated file instead.
// Which server instance holds a running job's lease. On PostgreSQL several servers share the queue; a
// restarted server takes back at once the jobs its previous life was running (a SIGKILL leaves them
// "running"), while other servers' jobs stay theirs until their lease runs out.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('verification_job').addColumn('locked_by', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('verification_job').dropColumn('locked_by').execute();
}
