import type { RetryDetails, RetryProblem } from '../../../../shared/schemas/details';
import { updateCertificate } from '../../db/certificates';
import type { VerificationJobRow } from '../../db/schema';
import { ChainError } from '../chain';
import type { Services } from '../index';

// What the holder sees in verification_details while a job retries and after it gave up (RetryDetails).
export type { RetryDetails, RetryProblem } from '../../../../shared/schemas/details';

const NETWORK = /fetch failed|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|socket hang up|other side closed|network|\b50[234]\b|Bad Gateway|Service Unavailable|Gateway Timeout/i;

function causes(e: unknown): string {
  const parts: string[] = [];
  for (let c: unknown = e, i = 0; c && i < 5; c = (c as { cause?: unknown }).cause, i++) {
    parts.push(c instanceof Error ? `${c.message} ${(c as NodeJS.ErrnoException).code ?? ''}` : String(c));
  }
  return parts.join(' ');
}

/** Names the kind of failure without its raw text (details are public; RPC errors can carry URLs). */
export function classifyFailure(e: unknown): { problem: RetryProblem; text: string } {
  if (e instanceof ChainError) {
    if (/expired before it landed/.test(e.message)) return { problem: 'transaction_expired', text: 'The Solana transaction expired before it landed (the network may be congested)' };
    return { problem: 'chain_refused', text: `The Solana program refused the verdict transaction${e.errorName ? ` (${e.errorName})` : ''}` };
  }
  if (NETWORK.test(causes(e))) return { problem: 'network_unreachable', text: 'The Solana network is not reachable' };
  return { problem: 'internal', text: 'Verification stopped on an unexpected error' };
}

const hhmm = (t: number) => new Date(t).toISOString().slice(11, 19) + ' UTC';

export function retryDetails(e: unknown, attempt: number, maxAttempts: number, outcome: { final: boolean; runAfter: number }): RetryDetails {
  const { problem, text } = classifyFailure(e);
  const reason = outcome.final
    ? `Verification could not be completed after ${attempt} attempts. Last problem: ${text[0].toLowerCase()}${text.slice(1)}. Use Check Status to try again.`
    : `${text}; retrying automatically (attempt ${attempt + 1} of ${maxAttempts}) at ${hhmm(outcome.runAfter)}.`;
  return {
    kind: 'retry',
    reason,
    retry: {
      state: outcome.final ? 'gave_up' : 'retrying',
      problem,
      attempt,
      max_attempts: maxAttempts,
      next_attempt_at: outcome.final ? null : new Date(outcome.runAfter).toISOString(),
    },
  };
}

/**
 * Shows a failed attempt on the certificate, so a holder never looks at a silent "pending": a
 * pending certificate's verification_details say what went wrong and when the next attempt runs,
 * or that it gave up (the job is failed; Check Status / Try Again queue a new one). Rejected
 * certificates keep their verdict's reason; the verdict of a later run replaces these details.
 */
export async function recordRetryStatus(svc: Services, job: VerificationJobRow, e: unknown, outcome: { final: boolean; runAfter: number }) {
  const details = retryDetails(e, job.attempts, svc.queue.retry.maxAttempts, outcome);
  const updated_at = new Date().toISOString();
  if (await updateCertificate(svc.db, job.certificate_id, { verification_details: JSON.stringify(details), updated_at }, { ifStatus: 'pending' })) {
    svc.bus.publish({ certificate_id: job.certificate_id, verification_status: 'pending', step: 'retry', step_status: outcome.final ? 'failed' : 'pending', updated_at });
  }
  return details;
}
