// An institution's status badge and its domain proof (state, what to publish, what the last check
// found): the portal (/institution) and the operator console (/operator) show the same.
import { CheckCircle2, XCircle } from 'lucide-react';
import { formatDateTime } from '../../../lib/dates';
import type { trpcClient } from '../../../lib/trpc';

export type IssuerView = NonNullable<Awaited<ReturnType<typeof trpcClient.issuer.me.query>>>;

export const STATUS_TEXT: Record<string, { label: string; text: string; className: string }> = {
  pending: { label: 'Pending', text: 'Waiting for the operator’s approval. Prove your domain first: approval needs it.', className: 'border-amber-200 bg-amber-50 text-amber-900 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-300' },
  approved: { label: 'Approved', text: 'You can issue certificates and confirm the holders’ requests.', className: 'border-emerald-200 bg-emerald-50 text-emerald-800 dark:border-emerald-900 dark:bg-emerald-950 dark:text-emerald-300' },
  suspended: { label: 'Suspended', text: 'The operator suspended this institution: it cannot issue or confirm, and its certificates are not valid.', className: 'border-red-300 bg-red-100 text-red-900 dark:border-red-900 dark:bg-red-950 dark:text-red-300' },
};

export function IssuerStatusBadge({ status }: { status: string }) {
  const s = STATUS_TEXT[status] ?? STATUS_TEXT.pending;
  return (
    <span className={`inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold ${s.className}`} data-testid="issuer-status" data-status={status}>
      {s.label}
    </span>
  );
}

const PROOF_LABEL: Record<string, string> = { proven: 'Proven', unproven: 'Not proven', lapsed: 'Lapsed' };

/** The domain proof: its state, what to publish (either one) and what each method found at the last check. */
export function DomainProof({ proof, authority }: { proof: IssuerView['proof']; authority?: string }) {
  return (
    <div className="space-y-3 text-sm" data-testid="domain-proof">
      <p>
        <span className="font-medium">{proof.domain}</span>:{' '}
        <span className={proof.status === 'proven' ? 'font-semibold text-emerald-700 dark:text-emerald-400' : 'font-semibold text-amber-700 dark:text-amber-400'} data-testid="proof-status">
          {PROOF_LABEL[proof.status] ?? proof.status}
        </span>
        {proof.method && ` (by ${proof.method === 'dns' ? 'DNS TXT record' : 'HTTPS file'})`}
        {proof.checked_at && <span className="text-muted-foreground">, checked {formatDateTime(proof.checked_at)}</span>}
      </p>
      {authority !== undefined && proof.status !== 'proven' && (
        <div className="space-y-2 rounded-md border bg-muted/40 p-3">
          <p className="font-medium">Publish either one:</p>
          <p>
            A DNS TXT record at <code className="break-all rounded bg-muted px-1 font-mono text-xs">{proof.publish.dns.name}</code> with the value{' '}
            <code className="break-all rounded bg-muted px-1 font-mono text-xs">{proof.publish.dns.value}</code>
          </p>
          <p>
            or the file <code className="break-all rounded bg-muted px-1 font-mono text-xs">{proof.publish.https.url}</code> containing{' '}
            <code className="break-all rounded bg-muted px-1 font-mono text-xs">{proof.publish.https.body}</code>
          </p>
        </div>
      )}
      {proof.findings.length > 0 && (
        <ul className="space-y-1" aria-label="What the last check found">
          {proof.findings.map((f) => (
            <li key={f.method} className="flex items-start gap-2">
              {f.ok ? <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-emerald-600" aria-label="Found" role="img" /> : <XCircle className="mt-0.5 size-4 shrink-0 text-red-600" aria-label="Not found" role="img" />}
              <span>
                <span className="font-medium">{f.method === 'dns' ? 'DNS' : 'HTTPS'}:</span> {f.detail}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

