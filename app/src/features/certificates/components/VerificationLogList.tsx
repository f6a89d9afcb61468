import { AlertTriangle, CheckCircle2, CircleMinus, Clock, Loader2, XCircle } from 'lucide-react';
import type { CertificateDto, VerificationAttemptDto, VerificationLogDto } from '../../../../../shared/schemas/dto';
import { formatDateTime } from '../lib/format';
import { holderStatus, statusMeta, StatusBadge } from './status';

/** What the steps and runs of a certificate are read against: its institution's name and its badge now. */
type Holder = Pick<CertificateDto, 'institution_name' | 'verification_status' | 'public_valid' | 'expires_at' | 'tier' | 'public_issuer'>;

const STEP_LABEL: Record<string, string> = {
  hash_verification: 'Hash verification',
  document_checks: 'Document checks',
  // The step key stays the seed's issuer_verification; what it tells is whether the institution confirmed it.
  issuer_verification: 'Institution confirmation',
  chain_record: 'On-chain record',
};

export function stepLabel(step: string) {
  return STEP_LABEL[step] ?? step.replace(/_/g, ' ').replace(/^\w/, (c) => c.toUpperCase());
}

/**
 * The institution step of a certificate no institution confirmed (the platform tier): it passed, but
 * nobody confirmed anything — a neutral mark, never a green check, and the message says whose word it
 * is not (runs logged before the step said so get the same words).
 */
function unconfirmed(log: VerificationLogDto): boolean {
  return log.verification_step === 'issuer_verification' && log.status === 'success' && log.details?.tier === 'platform_verified';
}

/**
 * The institution step of a record an institution's key signed, while its certificate's badge does not
 * read "Verified" (its domain not proven, its registration not in order, not checked just now): the
 * signature is there, but it is no confirmation by a proven institution — the attention mark, never a
 * green check beside an amber verdict.
 */
function signedNotConfirmed(log: VerificationLogDto, c: Holder | undefined): boolean {
  return (
    !!c &&
    log.verification_step === 'issuer_verification' &&
    log.status === 'success' &&
    log.details?.tier !== 'platform_verified' &&
    c.verification_status === 'verified' &&
    c.tier === 'issuer_confirmed' &&
    holderStatus(c) !== 'verified'
  );
}

export function VerificationLogList({ logs, certificate }: { logs: VerificationLogDto[]; certificate?: Holder }) {
  if (!logs.length) return <p className="text-sm text-muted-foreground">No verification steps have run yet.</p>;
  const institution = certificate?.institution_name;
  return (
    <ol className="space-y-3" aria-label="Verification steps">
      {logs.map((log) => {
        const neutral = unconfirmed(log);
        const warn = !neutral && signedNotConfirmed(log, certificate);
        const Icon = neutral ? CircleMinus : warn ? AlertTriangle : log.status === 'success' ? CheckCircle2 : log.status === 'failed' ? XCircle : Clock;
        const tone = neutral
          ? 'text-muted-foreground'
          : warn
            ? 'text-amber-600'
            : log.status === 'success'
              ? 'text-emerald-600'
              : log.status === 'failed'
                ? 'text-red-600'
                : 'text-amber-600';
        const stored = log.details?.message;
        const message = neutral && !/^Not confirmed by /.test(stored ?? '') ? `Not confirmed by ${institution ?? 'the institution'}: checked by Attesta only.` : stored;
        return (
          <li key={log.id} className="flex gap-3" data-testid="verification-log" data-step={log.verification_step} data-status={log.status} data-tone={neutral ? 'neutral' : warn ? 'warn' : log.status}>
            <Icon className={`mt-0.5 size-4 shrink-0 ${tone}`} aria-label={neutral ? 'not confirmed' : warn ? 'signed, not a confirmation by a proven institution' : log.status} role="img" />
            <div className="min-w-0">
              <p className="text-sm font-medium">{stepLabel(log.verification_step)}</p>
              {message && <p className="break-words text-sm text-muted-foreground">{message}</p>}
              <p className="text-xs text-muted-foreground">{formatDateTime(log.created_at)}</p>
            </div>
          </li>
        );
      })}
    </ol>
  );
}

/**
 * What a run concluded, as the badge beside it says it. A verified run says what it verified as a
 * verifier reads it: the latest, as the certificate's badge reads now (holderStatus); an earlier one, by
 * the tier its institution step recorded — never "Verified" for what the platform alone checked.
 */
function attemptBadge(a: VerificationAttemptDto, latest: boolean, c: Holder | undefined): { status: string; label: string } {
  if (a.state === 'queued') return { status: 'pending', label: 'Queued' };
  if (a.state === 'running') return { status: 'pending', label: 'In progress' };
  if (a.state === 'failed') return { status: 'rejected', label: 'Could not complete' };
  switch (a.outcome) {
    case 'verified': {
      const status =
        latest && c?.verification_status === 'verified'
          ? holderStatus(c)
          : a.logs.some((l) => l.verification_step === 'issuer_verification' && l.details?.tier === 'platform_verified')
            ? 'platform_checked'
            : 'verified';
      return { status, label: statusMeta(status).label };
    }
    case 'rejected':
      return { status: 'rejected', label: 'Rejected' };
    case 'awaiting_confirmation':
      return { status: 'pending', label: 'Awaiting confirmation' };
    case 'revoked':
      return { status: 'revoked', label: 'Revoked' };
    case 'superseded':
      return { status: 'superseded', label: 'Superseded' };
    default:
      return { status: 'pending', label: 'Finished' };
  }
}

function Attempt({ attempt, latest, certificate }: { attempt: VerificationAttemptDto; latest: boolean; certificate?: Holder }) {
  const badge = attemptBadge(attempt, latest, certificate);
  const active = attempt.state === 'queued' || attempt.state === 'running';
  const header = (
    <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
      <span className="text-sm font-semibold">Attempt {attempt.number}</span>
      <StatusBadge status={badge.status} label={badge.label} />
      <span className="text-xs text-muted-foreground">{formatDateTime(attempt.started_at)}</span>
    </span>
  );
  const body = (
    <div className="mt-3">
      {attempt.logs.length ? (
        <VerificationLogList logs={attempt.logs} certificate={certificate} />
      ) : (
        <p className="flex items-center gap-2 text-sm text-muted-foreground">
          {active && <Loader2 className="size-4 animate-spin" aria-hidden="true" />}
          {active ? 'Waiting for the first step...' : 'No steps were logged for this attempt.'}
        </p>
      )}
    </div>
  );
  const attrs = { 'data-testid': 'verification-attempt', 'data-attempt': attempt.number, 'data-state': attempt.state, 'data-outcome': attempt.outcome ?? '' };
  // The latest run is what the status says; earlier ones stay one click away.
  return latest ? (
    <li {...attrs} className="rounded-lg border p-3">
      {header}
      {body}
    </li>
  ) : (
    <li {...attrs} className="rounded-lg border p-3">
      <details>
        <summary className="cursor-pointer list-none [&::-webkit-details-marker]:hidden">{header}</summary>
        {body}
      </details>
    </li>
  );
}

/** Every verification run of a certificate, newest first, each with its own steps. */
export function VerificationAttempts({ attempts, certificate }: { attempts: VerificationAttemptDto[]; certificate?: Holder }) {
  if (!attempts.length) return <p className="text-sm text-muted-foreground">No verification steps have run yet.</p>;
  const newestFirst = [...attempts].reverse();
  return (
    <ol className="space-y-3" aria-label="Verification attempts">
      {newestFirst.map((a, i) => (
        <Attempt key={a.job_id} attempt={a} latest={i === 0} certificate={certificate} />
      ))}
    </ol>
  );
}
