// An institution's status badge and its domain proof (state, what to publish, what the last check
// found): the portal (/institution) and the operator console (/operator) show the same.
import { Fragment } from 'react';
import { AlertTriangle, CheckCircle2, XCircle } from 'lucide-react';
import { formatDateTime } from '../../../lib/dates';
import { CopyButton } from '../../certificates/components/CopyField';
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
const PROOF_CLASS: Record<string, string> = {
  proven: 'text-emerald-700 dark:text-emerald-400',
  unproven: 'text-amber-700 dark:text-amber-400',
  lapsed: 'text-red-700 dark:text-red-400',
};

/** The proof's state in a word, coloured ("Proven", "Not proven", "Lapsed"). */
export function ProofState({ status }: { status: string }) {
  const Icon = status === 'proven' ? CheckCircle2 : AlertTriangle;
  return (
    <span className={`inline-flex items-center gap-1 align-bottom font-semibold ${PROOF_CLASS[status] ?? PROOF_CLASS.unproven}`}>
      <Icon className="size-4 shrink-0" aria-hidden="true" />
      <span data-testid="proof-status">{PROOF_LABEL[status] ?? status}</span>
    </span>
  );
}

/**
 * A registered institution's status in words: what it may do now and what it waits for. The portal's
 * status card says it; `demo` is the local installation's demo institution (README: it may issue and
 * confirm on this local chain without a domain proof).
 */
export function statusText(me: Pick<IssuerView, 'status' | 'demo'> & { proof: Pick<IssuerView['proof'], 'status'> }): string {
  const proven = me.proof.status === 'proven';
  if (me.status === 'pending') {
    if (proven) return 'Your domain is proven: waiting for the operator’s approval. Issuing and confirming open once it is approved.';
    if (me.proof.status === 'lapsed') return 'Waiting for the operator’s approval. Your domain proof lapsed: publish it again and check it, approval needs it.';
    return STATUS_TEXT.pending.text;
  }
  if (me.status === 'approved' && !proven) {
    return me.demo
      ? 'Approved as the demo institution of this local installation: its domain is a reserved example name nobody can prove, so it may issue and confirm here, and verifiers are told the domain is not proven.'
      : 'Approved, but the domain is not proven at present: verifiers are told so, and issuing and confirming open once it is proven.';
  }
  return (STATUS_TEXT[me.status] ?? STATUS_TEXT.pending).text;
}

/**
 * A long token that breaks between its parts (after = / : , .), never inside a word ("attesta-issuer"):
 * each part is one box that moves to the next line whole, and breaks inside only when it is wider than
 * the line (an address on a phone).
 */
function breakable(value: string) {
  const parts = value.split(/(?<=[=/:,.])/);
  return parts.map((part, i) => (
    <Fragment key={i}>
      {i > 0 && <wbr />}
      <span className="inline-block max-w-full">{part}</span>
    </Fragment>
  ));
}

/** One thing to publish (a record's name, its value, a file's URL or content), in full, with a copy button. */
function PublishValue({ label, value, copyLabel, testId }: { label: string; value: string; copyLabel: string; testId: string }) {
  return (
    <div className="space-y-0.5">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="flex min-w-0 items-start gap-1">
        <code className="min-w-0 rounded bg-muted px-1 py-0.5 font-mono text-xs leading-5 [overflow-wrap:anywhere]" data-testid={testId}>
          {breakable(value)}
        </code>
        <CopyButton value={value} label={copyLabel} />
      </dd>
    </div>
  );
}

/**
 * The domain proof: its state, what to publish (either one) and what each method found at the last
 * check. `showDomain={false}` where the domain and its state are shown already (the operator's rows).
 */
export function DomainProof({ proof, authority, showDomain = true }: { proof: IssuerView['proof']; authority?: string; showDomain?: boolean }) {
  const method = proof.method === 'dns' ? 'DNS TXT record' : proof.method === 'https' ? 'HTTPS file' : null;
  return (
    <div className="space-y-3 text-sm" data-testid="domain-proof">
      {showDomain ? (
        <p>
          <span className="font-medium">{proof.domain}:</span> <ProofState status={proof.status} />
          {method && ` (by ${method})`}
          {proof.checked_at && <span className="text-muted-foreground">, checked {formatDateTime(proof.checked_at)}</span>}
        </p>
      ) : (
        <p className="text-xs text-muted-foreground">
          {proof.checked_at ? `${method ? `By ${method}, checked` : 'Checked'} ${formatDateTime(proof.checked_at)}` : 'Domain never checked'}
        </p>
      )}
      {authority !== undefined && proof.status !== 'proven' && (
        <div className="space-y-3 rounded-md border bg-muted/40 p-3" data-testid="proof-publish">
          <p className="font-medium">Publish either one:</p>
          <section aria-labelledby="publish-dns" className="space-y-1.5">
            <h3 id="publish-dns" className="font-medium">
              A DNS TXT record
            </h3>
            <dl className="space-y-1.5">
              <PublishValue label="Name" value={proof.publish.dns.name} copyLabel="the TXT record’s name" testId="proof-dns-name" />
              <PublishValue label="Value" value={proof.publish.dns.value} copyLabel="the TXT record’s value" testId="proof-dns-value" />
            </dl>
          </section>
          <section aria-labelledby="publish-https" className="space-y-1.5">
            <h3 id="publish-https" className="font-medium">
              or a file on your website
            </h3>
            <dl className="space-y-1.5">
              <PublishValue label="URL" value={proof.publish.https.url} copyLabel="the file’s URL" testId="proof-https-url" />
              <PublishValue label="Content" value={proof.publish.https.body} copyLabel="the file’s content" testId="proof-https-body" />
            </dl>
          </section>
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
