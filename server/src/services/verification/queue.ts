import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import { isPostgres } from '../../db/dialect';
import type { Database, VerificationJobRow } from '../../db/schema';
import { newId } from '../../lib/ids';

export const JOB_LEASE_MS = 60_000;
export const MAX_ATTEMPTS = 5;

export interface ClaimOptions {
  /**
   * Running jobs one holder may have at once (leases alive on any server sharing the database);
   * a holder at the cap is skipped until one finishes. Default: no cap.
   */
  perHolder?: number;
}

/** Ready to run: queued and due, or running with an expired lease (its worker died). */
const readyAt = (now: number) => (eb: ExpressionBuilder<Database, 'verification_job'>) =>
  eb.or([
    eb.and([eb('verification_job.status', '=', 'queued'), eb('verification_job.run_after', '<=', now)]),
    eb.and([eb('verification_job.status', '=', 'running'), eb('verification_job.locked_until', '<', now)]),
  ]);

/** Holders passed over within one claim (at their cap under a concurrent claim, or nothing left to lock) before giving up. */
const MAX_HOLDERS_PER_CLAIM = 8;

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
    const cert = await db.selectFrom('certificate').select('user_id').where('id', '=', certificateId).executeTakeFirst();
    const now = new Date().toISOString();
    const job: VerificationJobRow = {
      id: newId('j_'),
      certificate_id: certificateId,
      status: 'queued',
      attempts: 0,
      run_after: Date.now(),
      locked_until: null,
      locked_by: null,
      holder_id: cert?.user_id ?? '',
      claimed_at: null,
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

  /**
   * Claims one ready job (queued and due, or running with an expired lease), fairly across holders:
   * the holder with the fewest running jobs, then the one served longest ago (never served first),
   * then the one whose oldest ready job has waited longest; that job. A holder at `perHolder` running
   * jobs is skipped. So a holder who queues 12 jobs gets one served, then everyone else waiting gets
   * one, and so on, instead of everyone waiting behind all 12.
   */
  async claim(now = Date.now(), opts: ClaimOptions = {}): Promise<VerificationJobRow | null> {
    const cap = opts.perHolder ?? Infinity;
    return this.db.transaction().execute(async (trx) => {
      const passed: string[] = [];
      for (let i = 0; i < MAX_HOLDERS_PER_CLAIM; i++) {
        const holder = await this.nextHolder(trx, now, cap, passed);
        if (holder === undefined) return null;
        // PostgreSQL may serve several servers: claims for one holder are serialised (a transaction
        // lock; another server claiming for this holder right now means skip it this time), then its
        // running jobs are counted again, committed claims included, so the cap holds across servers.
        // SQLite: one connection runs one transaction at a time, so the count above is already exact.
        if (this.postgres && Number.isFinite(cap)) {
          const key = `attesta.verification_job.holder:${holder}`;
          const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_xact_lock(hashtextextended(${key}, 0)) as locked`.execute(trx);
          if (!rows[0]?.locked || (await this.runningOf(trx, holder, now)) >= cap) {
            passed.push(holder);
            continue;
          }
        }
        const job = await trx
          .selectFrom('verification_job')
          .selectAll()
          .where('holder_id', '=', holder)
          .where(readyAt(now))
          .orderBy('run_after')
          .orderBy('id')
          .limit(1)
          // A job another transaction is claiming is skipped, not waited on.
          .$if(this.postgres, (q) => q.forUpdate().skipLocked())
          .executeTakeFirst();
        if (!job) {
          passed.push(holder);
          continue;
        }
        const claimed = {
          ...job,
          status: 'running' as const,
          attempts: job.attempts + 1,
          locked_until: now + JOB_LEASE_MS,
          locked_by: this.instanceId,
          claimed_at: now,
          updated_at: new Date(now).toISOString(),
        };
        await trx
          .updateTable('verification_job')
          .set({
            status: 'running',
            attempts: claimed.attempts,
            locked_until: claimed.locked_until,
            locked_by: claimed.locked_by,
            claimed_at: claimed.claimed_at,
            updated_at: claimed.updated_at,
          })
          .where('id', '=', job.id)
          .execute();
        return claimed;
      }
      return null;
    });
  }

  /** The holder to serve next (see claim), among those with ready jobs, under the cap and not passed over. */
  private async nextHolder(trx: Kysely<Database>, now: number, cap: number, passed: string[]): Promise<string | undefined> {
    const waiting = trx
      .selectFrom('verification_job')
      .select(['holder_id', (eb) => eb.fn.min('run_after').as('first_due')])
      .where(readyAt(now))
      .$if(passed.length > 0, (q) => q.where('holder_id', 'not in', passed))
      .groupBy('holder_id')
      .as('w');
    const ranked = trx
      .selectFrom(waiting)
      .select((eb) => [
        'w.holder_id',
        'w.first_due',
        eb
          .selectFrom('verification_job as r')
          .select((e) => e.fn.countAll<number>().as('n'))
          .whereRef('r.holder_id', '=', 'w.holder_id')
          .where('r.status', '=', 'running')
          .where('r.locked_until', '>=', now)
          .as('running'),
        // Latest claim of the holder's jobs: one step down the (holder_id, claimed_at) index.
        eb
          .selectFrom('verification_job as s')
          .select('s.claimed_at')
          .whereRef('s.holder_id', '=', 'w.holder_id')
          .where('s.claimed_at', 'is not', null)
          .orderBy('s.claimed_at', 'desc')
          .limit(1)
          .as('served_at'),
      ])
      .as('h');
    const next = await trx
      .selectFrom(ranked)
      .select('h.holder_id')
      .$if(Number.isFinite(cap), (q) => q.where('h.running', '<', cap))
      .orderBy('h.running')
      .orderBy(sql`coalesce(${sql.ref('h.served_at')}, 0)`)
      .orderBy('h.first_due')
      .orderBy('h.holder_id')
      .limit(1)
      .executeTakeFirst();
    return next?.holder_id;
  }

  /** Jobs of `holder` running under a live lease, on any server. */
  private async runningOf(trx: Kysely<Database>, holder: string, now: number): Promise<number> {
    const r = await trx
      .selectFrom('verification_job')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('holder_id', '=', holder)
      .where('status', '=', 'running')
      .where('locked_until', '>=', now)
      .executeTakeFirstOrThrow();
    return Number(r.n);
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
