import { CheckCircle2, Clock, XCircle } from 'lucide-react';
import type { VerificationLogDto } from '../../../../../shared/schemas/dto';
import { formatDateTime } from '../lib/format';

const STEP_LABEL: Record<string, string> = {
  hash_verification: 'Hash verification',
  document_checks: 'Document checks',
  issuer_verification: 'Issuer verification',
  chain_record: 'On-chain record',
};

export function stepLabel(step: string) {
  return STEP_LABEL[step] ?? step.replace(/_/g, ' ').replace(/^\w/, (c) => c.toUpperCase());
}

export function VerificationLogList({ logs }: { logs: VerificationLogDto[] }) {
  if (!logs.length) return <p className="text-sm text-muted-foreground">No verification steps have run yet.</p>;
  return (
    <ol className="space-y-3" aria-label="Verification steps">
      {logs.map((log) => {
        const Icon = log.status === 'success' ? CheckCircle2 : log.status === 'failed' ? XCircle : Clock;
        const tone =
          log.status === 'success' ? 'text-emerald-600' : log.status === 'failed' ? 'text-red-600' : 'text-amber-600';
        return (
          <li key={log.id} className="flex gap-3" data-testid="verification-log" data-step={log.verification_step} data-status={log.status}>
            <Icon className={`mt-0.5 size-4 shrink-0 ${tone}`} aria-label={log.status} role="img" />
            <div className="min-w-0">
              <p className="text-sm font-medium">{stepLabel(log.verification_step)}</p>
              {log.details?.message && <p className="text-sm text-muted-foreground">{log.details.message}</p>}
              <p className="text-xs text-muted-foreground">{formatDateTime(log.created_at)}</p>
            </div>
          </li>
        );
      })}
    </ol>
  );
}
