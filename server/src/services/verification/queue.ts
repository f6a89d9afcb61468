import type { Kysely } from 'kysely';
import { isPostgres } from '../../db/dialect';
import type { Database, VerificationJobRow } from '../../db/schema';
import { newId } from '../../lib/ids';

export const JOB_LEASE_MS = 60_000;
export const MAX_ATTEMPTS = 5;

export interface RetryPolicy {
  maxAttempts: number;
  /** Failed attempt n is retried after baseDelayMs * 2^n. */
  baseDelayMs: number;
}

/** The verification job queue, in the database so it survives restarts (and scales to PostgreSQL). */
export class VerificationQueue {
  private waiters = new Set<() => void>();
  private readonly postgres: boolean;
  /** Mutable so tests can shorten the backoff of a running server. */
  retry: RetryPolicy;
  /**
   * `instanceId` names this server among those sharing the database (see releaseOrphans); a restart of
   * the same server keeps it.
   */
  constructor(private readonly db: Kysely<Database>, retry: Partial<RetryPolicy> = {}, private readonly instanceId = 'local') {
    this.postgres = isPostgres(db);
    this.retry = { maxAttempts: MAX_ATTEMPTS, baseDelayMs: 1000, ...retry };
  }

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
      locked_by: null,
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
        // PostgreSQL may serve several servers: a job another transaction is claiming is skipped, not waited on.
        .$if(this.postgres, (q) => q.forUpdate().skipLocked())
        .executeTakeFirst();
      if (!job) return null;
      const claimed = {
        ...job,
        status: 'running' as const,
        attempts: job.attempts + 1,
        locked_until: now + JOB_LEASE_MS,
        locked_by: this.instanceId,
        updated_at: new Date(now).toISOString(),
      };
      await trx
        .updateTable('verification_job')
        .set({ status: 'running', attempts: claimed.attempts, locked_until: claimed.locked_until, locked_by: claimed.locked_by, updated_at: claimed.updated_at })
        .where('id', '=', job.id)
        .execute();
      return claimed;
    });
  }

  async heartbeat(jobId: string) {
    await this.db.updateTable('verification_job').set({ locked_until: Date.now() + JOB_LEASE_MS }).where('id', '=', jobId).execute();
  }

  /**
   * Jobs still "running" at start belonged to this server's previous, dead process. One server owns a
   * SQLite data dir, so that is all of them; on PostgreSQL other servers may be running theirs, so only
   * this instance's are released (the others' free themselves when their lease runs out).
   */
  async releaseOrphans() {
    await this.db
      .updateTable('verification_job')
      .set({ locked_until: 0 })
      .where('status', '=', 'running')
      .$if(this.postgres, (q) => q.where('locked_by', '=', this.instanceId))
      .execute();
  }

  /** Records a failed attempt: queued again after the backoff, or failed for good after the last one. */
  async fail(job: VerificationJobRow, error: string): Promise<{ final: boolean; runAfter: number }> {
    const final = job.attempts >= this.retry.maxAttempts;
    const delay = this.retry.baseDelayMs * 2 ** job.attempts;
    const runAfter = Date.now() + delay;
    await this.db
      .updateTable('verification_job')
      .set({
        status: final ? 'failed' : 'queued',
        last_error: error.slice(0, 2000),
        run_after: runAfter,
        locked_until: null,
        updated_at: new Date().toISOString(),
      })
      .where('id', '=', job.id)
      .execute();
    // Wake a worker when the retry is due rather than at its next poll after that.
    if (!final) setTimeout(() => this.kick(), delay + 5).unref();
    return { final, runAfter };
  }
}
