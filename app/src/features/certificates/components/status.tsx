import { CheckCircle2, Clock, XCircle } from 'lucide-react';
import type { CertificateStatusName } from '../../../../../shared/constants';
import { cn } from '../../../lib/utils';

const STATUS = {
  verified: { label: 'Verified', icon: CheckCircle2, className: 'text-emerald-700 dark:text-emerald-400', badge: 'border-emerald-200 bg-emerald-50 text-emerald-800 dark:border-emerald-900 dark:bg-emerald-950 dark:text-emerald-300' },
  pending: { label: 'Pending', icon: Clock, className: 'text-amber-700 dark:text-amber-400', badge: 'border-amber-200 bg-amber-50 text-amber-900 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-300' },
  rejected: { label: 'Rejected', icon: XCircle, className: 'text-red-700 dark:text-red-400', badge: 'border-red-200 bg-red-50 text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-300' },
} as const;

export function statusMeta(status: string) {
  return STATUS[(status as CertificateStatusName) in STATUS ? (status as CertificateStatusName) : 'pending'];
}

export function StatusIcon({ status, className }: { status: string; className?: string }) {
  const meta = statusMeta(status);
  const Icon = meta.icon;
  return <Icon className={cn('size-5 shrink-0', meta.className, className)} aria-label={meta.label} role="img" />;
}

export function StatusBadge({ status, label, className }: { status: string; label?: string; className?: string }) {
  const meta = statusMeta(status);
  const Icon = meta.icon;
  return (
    <span className={cn('inline-flex items-center gap-1 rounded-full border px-2.5 py-0.5 text-xs font-semibold', meta.badge, className)}>
      <Icon className="size-3.5" aria-hidden="true" />
      {label ?? meta.label}
    </span>
  );
}
