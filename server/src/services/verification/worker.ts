import type { Services } from '../index';
import { runVerificationJob } from './pipeline';
import { recordRetryStatus } from './retry-status';

/**
 * In-process worker: claims jobs from the DB queue and runs them, `concurrency` at a time, at most
 * `config.limits.verificationJobsPerHolder` of one holder's at once (counted across servers), so
 * another holder's certificate always finds a free loop while one holder's burst is verified.
 */
export class VerificationWorker {
  private running = false;
  private loops: Promise<void>[] = [];
  private active = new Set<Promise<void>>();

  constructor(private readonly svc: Services, private readonly concurrency = 2, private readonly pollMs = 1000) {}

  async start() {
    await this.svc.queue.releaseOrphans();
    this.running = true;
    for (let i = 0; i < this.concurrency; i++) this.loops.push(this.loop());
  }

  private async loop() {
    while (this.running) {
      let job;
      try {
        job = await this.svc.queue.claim(Date.now(), { perHolder: this.svc.config.limits.verificationJobsPerHolder });
      } catch (e) {
        if (!this.running) return;
        console.error('verification queue:', e);
      }
      if (!job) {
        await this.svc.queue.waitForWork(this.pollMs);
        continue;
      }
      this.svc.queue.kick(); // let a sibling loop look for more work
      const p = runVerificationJob(this.svc, job).catch(async (e) => {
        try {
          const outcome = await this.svc.queue.fail(job, e instanceof Error ? e.message : String(e));
          await recordRetryStatus(this.svc, job, e, outcome);
          console.error(`verification job ${job.id} failed${outcome.final ? ' permanently' : ', will retry'}:`, e);
        } catch (e2) {
          // The lease runs out and the job is claimed again.
          console.error(`verification job ${job.id} failed and could not be rescheduled:`, e, e2);
        }
      });
      this.active.add(p);
      await p;
      this.active.delete(p);
      this.svc.queue.kick(); // the holder is below its cap again: a waiting sibling may take its next job
    }
  }

  async stop() {
    this.running = false;
    for (let i = 0; i < this.concurrency; i++) this.svc.queue.kick();
    await Promise.allSettled([...this.loops, ...this.active]);
  }
}
