import type { Kysely } from 'kysely';
import type { Database, VerificationJobRow } from '../../db/schema';
import { newId } from '../../lib/ids';

export const JOB_LEASE_MS = 60_000;
export const MAX_ATTEMPTS = 5;

/** The verification job queue, in the database so it survives restarts (and scales to PostgreSQL). */
export class VerificationQueue {
  private waiters = new Set<() => void>();
  constructor(private readonly db: Kysely<Database>) {}

  /** Queues a run unless one is already queued or running; returns the active job. */
  async enqueue(certificateId: string, db: Kysely<Database> = this.db): Promise<VerificationJobRow> {
    const active = await db
      .selectFrom('verification_job')
      .selectAll()
      .where('certificate_id', '=', certificateId)
      .where('status', 'in', ['queued', 'running'])
      .executeTakeFirst();
    if (active) return active;
    const now = new Date().toISOString();
    const job: VerificationJobRow = {
      id: newId('j_'),
      certificate_id: certificateId,
      status: 'queued',
      attempts: 0,
      run_after: Date.now(),
      locked_until: null,
      last_error: null,
      created_at: now,
      updated_at: now,
    };
    await db.insertInto('verification_job').values(job).execute();
    return job;
  }

  /** Tells the worker there is work now instead of at its next poll. */
  kick() {
    for (const w of [...this.waiters]) w();
  }

  waitForWork(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(t);
        this.waiters.delete(done);
        resolve();
      };
      const t = setTimeout(done, ms);
      this.waiters.add(done);
    });
  }

  /** Claims one ready job: queued and due, or running with an expired lease (its worker died). */
  async claim(now = Date.now()): Promise<VerificationJobRow | null> {
    return this.db.transaction().execute(async (trx) => {
      const job = await trx
        .selectFrom('verification_job')
        .selectAll()
        .where((eb) =>
          eb.or([
            eb.and([eb('status', '=', 'queued'), eb('run_after', '<=', now)]),
            eb.and([eb('status', '=', 'running'), eb('locked_until', '<', now)]),
          ]),
        )
        .orderBy('run_after')
        .limit(1)
        .executeTakeFirst();
      if (!job) return null;
      const claimed = { ...job, status: 'running' as const, attempts: job.attempts + 1, locked_until: now + JOB_LEASE_MS, updated_at: new Date(now).toISOString() };
      await trx
        .updateTable('verification_job')
        .set({ status: 'running', attempts: claimed.attempts, locked_until: claimed.locked_until, updated_at: claimed.updated_at })
        .where('id', '=', job.id)
        .execute();
      return claimed;
    });
  }

  async heartbeat(jobId: string) {
    await this.db.updateTable('verification_job').set({ locked_until: Date.now() + JOB_LEASE_MS }).where('id', '=', jobId).execute();
  }

  /** One server owns a SQLite data dir: jobs still "running" at start belonged to a dead process. */
  async releaseOrphans() {
    await this.db.updateTable('verification_job').set({ locked_until: 0 }).where('status', '=', 'running').execute();
  }

  async fail(job: VerificationJobRow, error: string) {
    const final = job.attempts >= MAX_ATTEMPTS;
    await this.db
      .updateTable('verification_job')
      .set({
        status: final ? 'failed' : 'queued',
        last_error: error.slice(0, 2000),
        run_after: Date.now() + 1000 * 2 ** job.attempts,
        locked_until: null,
        updated_at: new Date().toISOString(),
      })
      .where('id', '=', job.id)
      .execute();
    return final;
  }
}
