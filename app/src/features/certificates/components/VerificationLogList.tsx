import { AlertTriangle, Ban, BadgeCheck, CheckCircle2, CircleMinus, Clock, ExternalLink, Loader2, Replace, Send, ShieldAlert, XCircle, type LucideIcon } from 'lucide-react';
import type { CertificateDto, CertificateEventDto, VerificationAttemptDto, VerificationLogDto } from '../../../../../shared/schemas/dto';
import { explorerTxUrl, formatDateTime, shortHash } from '../lib/format';
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
  return log.verification_step === 'issuer_verification' && log.status === 'success' && log.details?.tier !== 'platform_verified' && keyNotProven(c);
}

/** A verified certificate an institution's key signed whose badge does not read "Verified" (see signedNotConfirmed). */
function keyNotProven(c: Holder | undefined): boolean {
  return !!c && c.verification_status === 'verified' && c.tier === 'issuer_confirmed' && holderStatus(c) !== 'verified';
}

export function VerificationLogList({ logs, certificate }: { logs: VerificationLogDto[]; certificate?: Holder }) {
  const institution = certificate?.institution_name;
  if (!logs.length) return <p className="text-sm text-muted-foreground">No verification steps have run yet.</p>;
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
 * What a run itself concluded, as the badge beside it says it: a run is the platform's check, so a run
 * whose institution step found no institution's signature is "Checked by Attesta", never the
 * institution's word (a confirmation is an entry of its own). A run that found the record signed with an
 * institution's key reads as the certificate's badge reads now (holderStatus): "Verified" only where that
 * institution's domain is proven.
 */
function attemptBadge(a: VerificationAttemptDto, c: Holder | undefined): { status: string; label: string } {
  if (a.state === 'queued') return { status: 'pending', label: 'Queued' };
  if (a.state === 'running') return { status: 'pending', label: 'In progress' };
  if (a.state === 'failed') return { status: 'rejected', label: 'Could not complete' };
  switch (a.outcome) {
    case 'verified': {
      const signed = a.logs.some((l) => l.verification_step === 'issuer_verification' && l.status === 'success' && l.details?.tier && l.details.tier !== 'platform_verified');
      if (!signed || c?.verification_status !== 'verified') return { status: 'platform_checked', label: 'Checked by Attesta' };
      const status = holderStatus(c);
      return { status, label: statusMeta(status).label };
    }
    case 'rejected':
      return { status: 'rejected', label: 'Rejected' };
    case 'awaiting_confirmation':
      return { status: 'pending', label: 'Awaiting confirmation' };
    default:
      return { status: 'pending', label: 'Finished without a verdict' };
  }
}

/** Who acted, by name: the institution's, the operator, the holder ("you"), or the key's address. */
function actorName(e: CertificateEventDto): string {
  if (e.actor.name) return e.actor.name;
  if (e.actor.role === 'operator' || e.actor.role === 'platform') return 'the operator';
  if (e.actor.role === 'holder') return 'you';
  return e.actor.wallet ? shortHash(e.actor.wallet, 6, 4) : 'an unknown key';
}

/**
 * The title, mark and tone of an entry of the history that is no verification run. An issue or a
 * confirmation reads "by" the institution, in green, only where the certificate's badge reads
 * "Verified" (its domain proven, its registration in order): otherwise it was made with that
 * institution's key, in the attention tone, as the badge beside it says.
 */
function eventLook(e: CertificateEventDto, c: Holder | undefined): { title: string; Icon: LucideIcon; tone: string; toneName: string } {
  const who = actorName(e);
  const unproven = keyNotProven(c) && (e.kind === 'issued' || (e.kind === 'confirmed' && e.claims_confirmed));
  if (unproven) {
    const key = e.actor.name ? `${e.actor.name}'s key` : `the key ${who}`;
    return { title: `${e.kind === 'issued' ? 'Issued' : 'Confirmed'} with ${key}, ${statusMeta(holderStatus(c!)).label.toLowerCase()}`, Icon: ShieldAlert, tone: 'text-amber-600', toneName: 'warn' };
  }
  switch (e.kind) {
    case 'issued':
      return { title: `Issued by ${who}`, Icon: BadgeCheck, tone: 'text-emerald-600', toneName: 'pass' };
    case 'confirmed':
      return e.claims_confirmed
        ? { title: `Confirmed by ${who}`, Icon: BadgeCheck, tone: 'text-emerald-600', toneName: 'pass' }
        : { title: `File confirmed by ${who}, details not confirmed`, Icon: ShieldAlert, tone: 'text-amber-600', toneName: 'warn' };
    case 'confirmation_requested':
      return { title: 'Confirmation requested', Icon: Send, tone: 'text-muted-foreground', toneName: 'neutral' };
    case 'request_withdrawn':
      return { title: 'Request withdrawn', Icon: CircleMinus, tone: 'text-muted-foreground', toneName: 'neutral' };
    case 'declined':
      return { title: `Declined by ${who}`, Icon: XCircle, tone: 'text-red-600', toneName: 'fail' };
    case 'revoked':
      return { title: `Revoked by ${who}`, Icon: Ban, tone: 'text-red-600', toneName: 'fail' };
    case 'superseded':
      return { title: 'Superseded', Icon: Replace, tone: 'text-slate-600', toneName: 'fail' };
  }
}

/** An institution's, the operator's or the holder's action: who, what, when and its transaction. */
function HistoryEvent({ event: e, rpcUrl, certificate }: { event: CertificateEventDto; rpcUrl?: string | null; certificate?: Holder }) {
  const { title, Icon, tone, toneName } = eventLook(e, certificate);
  return (
    <li className="rounded-lg border p-3" data-testid="history-event" data-kind={e.kind} data-source={e.source} data-tone={toneName} data-claims-confirmed={e.claims_confirmed ?? ''}>
      <div className="flex gap-3">
        <Icon className={`mt-0.5 size-4 shrink-0 ${tone}`} aria-hidden="true" />
        <div className="min-w-0 space-y-1">
          <p className="flex flex-wrap items-baseline gap-x-2 text-sm font-semibold">
            {title} <span className="text-xs font-normal text-muted-foreground">{formatDateTime(e.at)}</span>
          </p>
          <p className="break-words text-sm text-muted-foreground">{e.message}</p>
          {e.signature && (
            <p className="text-xs text-muted-foreground">
              Transaction{' '}
              <a href={explorerTxUrl(e.signature, rpcUrl)} target="_blank" rel="noreferrer" className="font-mono text-primary underline-offset-4 hover:underline" data-testid="history-signature">
                {shortHash(e.signature)} <ExternalLink className="inline size-3" aria-hidden="true" />
                <span className="sr-only">(opens in a new tab)</span>
              </a>
            </p>
          )}
          {e.source === 'chain' && <p className="text-xs text-muted-foreground">Sent outside Attesta, followed from the chain.</p>}
        </div>
      </div>
    </li>
  );
}

function Attempt({ attempt, latest, certificate }: { attempt: VerificationAttemptDto; latest: boolean; certificate?: Holder }) {
  const badge = attemptBadge(attempt, certificate);
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

/** Entries that change what the certificate is, in someone else's word than the platform's run (not a request, its withdrawal or a decline). */
const VERDICT_KINDS = new Set<CertificateEventDto['kind']>(['issued', 'confirmed', 'revoked', 'superseded']);

type Entry = { at: string; attempt: VerificationAttemptDto; event?: undefined } | { at: string; event: CertificateEventDto; attempt?: undefined };

/**
 * The certificate's history, newest first: every verification run of the platform with its own steps
 * and the outcome it reached itself, and, as entries of their own, what institutions, the operator and
 * the holder did (an issue, a request, a confirmation, a decline, a revocation). The newest entry is
 * open; earlier runs stay one click away.
 */
export function VerificationAttempts({ attempts, events = [], certificate, rpcUrl }: { attempts: VerificationAttemptDto[]; events?: CertificateEventDto[]; certificate?: Holder; rpcUrl?: string | null }) {
  if (!attempts.length && !events.length) return <p className="text-sm text-muted-foreground">Nothing has happened to this certificate yet.</p>;
  // An entry and a run of the same moment: the entry first (a withdrawal, then the run the new details start).
  const entries: Entry[] = [...events.map((e) => ({ at: e.at, event: e })), ...attempts.map((a) => ({ at: a.started_at, attempt: a }))];
  const newestFirst = entries.map((x, i) => ({ x, i })).sort((a, b) => a.x.at.localeCompare(b.x.at) || a.i - b.i).map(({ x }) => x).reverse();
  // The latest run is open unless someone's word came after it (an issue, a confirmation, a revocation, a supersede).
  const latestRun = newestFirst.findIndex((x) => x.attempt);
  const overtaken = newestFirst.slice(0, Math.max(0, latestRun)).some((x) => x.event && VERDICT_KINDS.has(x.event.kind));
  return (
    <ol className="space-y-3" aria-label="Certificate history">
      {newestFirst.map((x, i) =>
        x.attempt ? (
          <Attempt key={x.attempt.job_id} attempt={x.attempt} latest={i === latestRun && (!overtaken || x.attempt.state === 'queued' || x.attempt.state === 'running')} certificate={certificate} />
        ) : (
          <HistoryEvent key={x.event.id} event={x.event} rpcUrl={rpcUrl} certificate={certificate} />
        ),
      )}
    </ol>
  );
}
