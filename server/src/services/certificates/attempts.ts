import type { Kysely } from 'kysely';
import { VERIFICATION_STEPS } from '../../../../shared/constants';
import type { VerificationAttemptDto } from '../../../../shared/schemas/dto';
import type { CertificateRow, Database } from '../../db/schema';
import { toLogDto } from './dto';

// A certificate's verification history as attempts: every run is a job, and each log row carries
// the job it belongs to, so a second run (Try Again, corrected details) reads as its own attempt
// instead of a repeat of the first one's steps.

export const stepOrder = (step: string) => {
  const i = (VERIFICATION_STEPS as readonly string[]).indexOf(step);
  return i === -1 ? VERIFICATION_STEPS.length : i;
};

type Outcome = VerificationAttemptDto['outcome'];

/**
 * What a finished run concluded, from its own steps only. A run keeps the outcome it reached itself: an
 * institution's confirmation, a revocation or a supersede that came later (or that the run found
 * already made, and so recorded no verdict of its own) is an entry of the history of its own
 * (./history.ts), never credited to a run.
 */
function outcomeOf(logs: VerificationAttemptDto['logs']): Outcome {
  if (logs.some((l) => l.status === 'failed')) return 'rejected';
  if (logs.some((l) => l.verification_step === 'document_checks' && l.status === 'pending')) return 'awaiting_confirmation';
  if (logs.some((l) => l.verification_step === 'chain_record')) return 'verified';
  // Every check passed and the institution step itself found the record signed with an institution's
  // key (an issued certificate checked again, the demo's cert-1): the run verified what it found, with no
  // verdict of its own to record.
  if (logs.some((l) => l.verification_step === 'issuer_verification' && l.status === 'success' && l.details?.tier && l.details.tier !== 'platform_verified')) return 'verified';
  return null;
}

/** Oldest first; `number` counts from 1. Runs without a job row (demo data) are finished runs. */
export async function verificationAttempts(db: Kysely<Database>, cert: CertificateRow): Promise<VerificationAttemptDto[]> {
  const [jobs, rows] = await Promise.all([
    db.selectFrom('verification_job').select(['id', 'status', 'created_at', 'updated_at']).where('certificate_id', '=', cert.id).orderBy('created_at').orderBy('id').execute(),
    db.selectFrom('verification_log').selectAll().where('certificate_id', '=', cert.id).orderBy('created_at').orderBy('id').execute(),
  ]);
  const logsByJob = new Map<string, VerificationAttemptDto['logs']>();
  for (const r of rows) {
    const list = logsByJob.get(r.job_id) ?? [];
    list.push(toLogDto(r));
    logsByJob.set(r.job_id, list);
  }
  type Run = { job_id: string; state: VerificationAttemptDto['state']; started_at: string; updated_at: string };
  const runs: Run[] = jobs.map((j) => ({ job_id: j.id, state: j.status, started_at: j.created_at, updated_at: j.updated_at }));
  for (const [jobId, logs] of logsByJob) {
    if (!runs.some((r) => r.job_id === jobId)) runs.push({ job_id: jobId, state: 'done', started_at: logs[0].created_at, updated_at: logs.at(-1)!.created_at });
  }
  runs.sort((a, b) => a.started_at.localeCompare(b.started_at) || a.job_id.localeCompare(b.job_id));
  return runs.map((r, i) => {
    const logs = (logsByJob.get(r.job_id) ?? []).sort((a, b) => a.created_at.localeCompare(b.created_at) || stepOrder(a.verification_step) - stepOrder(b.verification_step));
    const finished = r.state === 'done' || r.state === 'failed';
    return {
      job_id: r.job_id,
      number: i + 1,
      state: r.state,
      outcome: r.state === 'done' ? outcomeOf(logs) : null,
      started_at: r.started_at,
      finished_at: finished ? r.updated_at : null,
      logs,
    };
  });
}
