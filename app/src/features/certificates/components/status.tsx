import { AlertTriangle, Ban, CheckCircle2, Clock, Replace, XCircle } from 'lucide-react';
import type { CertificateStatusName } from '../../../../../shared/constants';
import type { CertificateDto, VerdictDto } from '../../../../../shared/schemas/dto';
import { cn } from '../../../lib/utils';
import { verdictStatus } from '../../verification/lib/verdict-text';

const RED = 'border-red-200 bg-red-50 text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-300';

const STATUS = {
  verified: { label: 'Verified', icon: CheckCircle2, className: 'text-emerald-700 dark:text-emerald-400', badge: 'border-emerald-200 bg-emerald-50 text-emerald-800 dark:border-emerald-900 dark:bg-emerald-950 dark:text-emerald-300' },
  pending: { label: 'Pending', icon: Clock, className: 'text-amber-700 dark:text-amber-400', badge: 'border-amber-200 bg-amber-50 text-amber-900 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-300' },
  rejected: { label: 'Rejected', icon: XCircle, className: 'text-red-700 dark:text-red-400', badge: RED },
  revoked: { label: 'Revoked', icon: Ban, className: 'text-red-700 dark:text-red-400', badge: 'border-red-300 bg-red-100 text-red-900 dark:border-red-900 dark:bg-red-950 dark:text-red-300' },
  superseded: { label: 'Superseded', icon: Replace, className: 'text-slate-700 dark:text-slate-300', badge: 'border-slate-300 bg-slate-100 text-slate-800 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200' },
} satisfies Record<CertificateStatusName, unknown>;

// What only a verdict read from the chain can say besides a certificate's statuses (verdictStatus in
// verification/lib/verdict-text.ts): a record the chain calls verified is not always valid, nor
// confirmed by an institution.
const VERDICT_ONLY = {
  expired: { label: 'Expired', icon: XCircle, className: 'text-red-700 dark:text-red-400', badge: RED },
  not_found: { label: 'Not on chain', icon: XCircle, className: 'text-red-700 dark:text-red-400', badge: RED },
  /** Verified on chain, but not valid now (its institution suspended; claims its confirmation does not cover). */
  not_valid: { label: 'Not valid', icon: XCircle, className: 'text-red-700 dark:text-red-400', badge: RED },
  /** Valid, checked by the platform only: never worded as the institution's word. */
  platform_checked: { label: 'Checked by Attesta only', icon: CheckCircle2, className: STATUS.verified.className, badge: STATUS.verified.badge },
  /** Signed with an institution's own key, but its domain is not proven: no confirmation by a proven institution. */
  domain_not_proven: { label: 'Issuer domain not proven', icon: AlertTriangle, className: STATUS.pending.className, badge: STATUS.pending.badge },
  /** A verifier's page while the chain's verdict is being read: the recorded status is not said as the chain's. */
  checking: { label: 'Checking the chain', icon: Clock, className: STATUS.superseded.className, badge: STATUS.superseded.badge },
  /** A verifier's page whose chain check failed: nothing is said as checked. */
  unchecked: { label: 'Not checked', icon: AlertTriangle, className: STATUS.pending.className, badge: STATUS.pending.badge },
  /** The holder's own: signed with an institution's key whose standing could not be read just now (the chain was unreachable). */
  issuer_unchecked: { label: 'Issuer not checked just now', icon: AlertTriangle, className: STATUS.pending.className, badge: STATUS.pending.badge },
};

type HolderView = Pick<CertificateDto, 'verification_status' | 'public_valid' | 'expires_at' | 'tier' | 'public_issuer'>;

/**
 * The status the holder's marks show (badge, icons, cards, counters): what the certificate's public
 * verdict reads, decided as the public view decides it (verdictStatus) from what the holder's DTO carries
 * of that verdict — "Verified" only where an institution whose domain is proven signed it; a platform
 * check is "Checked by Attesta only"; a verified certificate whose verdict is not valid is expired or
 * not valid. A certificate that is not verified keeps its recorded status (pending, rejected, revoked…).
 */
export function holderStatus(c: HolderView): string {
  if (c.verification_status !== 'verified') return c.verification_status;
  if (!c.public_valid) return c.expires_at && Date.parse(c.expires_at) <= Date.now() ? 'expired' : 'not_valid';
  // Signed with an institution's key, but its standing was not read (the chain was unreachable): not said as more.
  if (c.tier === 'issuer_confirmed' && !c.public_issuer) return 'issuer_unchecked';
  // The fields verdictStatus reads, as the public verdict of this certificate (its share link) has them.
  const verdict = { integrity: 'not_checked', status: 'verified', valid: true, tier: c.tier, issuer: c.public_issuer } as Pick<
    VerdictDto,
    'integrity' | 'status' | 'valid' | 'tier' | 'issuer'
  >;
  return verdictStatus(verdict as VerdictDto);
}

/**
 * The badge of a verifier's page (the public view): the chain's verdict once read — while it is read,
 * "Checking the chain", and "Not checked" when the check failed; never the database's recorded status,
 * which says "Verified" for a platform check or an unproven domain alike, and before any chain read.
 */
export function verdictBadgeStatus(verdict: VerdictDto | undefined, checking: boolean): string {
  if (verdict) return verdictStatus(verdict);
  return checking ? 'checking' : 'unchecked';
}

/** The status a verifier's badge reads for `c`, as holderStatus, with its label: "Verified" only where it holds. */
export const holderStatusLabel = (c: HolderView) => statusMeta(holderStatus(c)).label;

type Meta = (typeof STATUS)[CertificateStatusName];

/** Label, icon and colours of a certificate status or a verdict status (expired, not_found, not_valid…). */
export function statusMeta(status: string): Meta {
  return (STATUS as Record<string, Meta>)[status] ?? (VERDICT_ONLY as Record<string, Meta>)[status] ?? STATUS.pending;
}

export function StatusIcon({ status, className, label }: { status: string; className?: string; label?: string }) {
  const meta = statusMeta(status);
  const Icon = meta.icon;
  return <Icon className={cn('size-5 shrink-0', meta.className, className)} aria-label={label ?? meta.label} role="img" data-status={status} />;
}

export function StatusBadge({ status, label, className }: { status: string; label?: string; className?: string }) {
  const meta = statusMeta(status);
  const Icon = meta.icon;
  return (
    <span className={cn('inline-flex items-center gap-1 rounded-full border px-2.5 py-0.5 text-xs font-semibold', meta.badge, className)} data-testid="status-badge" data-status={status}>
      <Icon className="size-3.5" aria-hidden="true" />
      {label ?? meta.label}
    </span>
  );
}

/** A pending certificate whose content could not be read waits for its institution (server: pipeline.ts). */
export function awaitingConfirmation(details: Record<string, unknown> | null | undefined): boolean {
  return details?.state === 'awaiting_confirmation';
}
