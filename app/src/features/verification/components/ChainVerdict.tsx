// The verdict read from the chain record, step by step: what a verifier needs to trust a certificate
// without trusting us (PRODUCT.md, trust flow §4). Every mark agrees with the verdict: a check mark
// only for what was checked and holds, a cross for what fails, and record details (holder, times,
// signatures) shown as facts, never as checks a rejected certificate would seem to pass.
import { AlertTriangle, CheckCircle2, CircleDashed, Clock, ExternalLink, Info, XCircle } from 'lucide-react';
import type { ReactNode } from 'react';
import type { VerdictDto } from '../../../../../shared/schemas/dto';
import { CopyValue } from '../../certificates/components/CopyField';
import { explorerAddressUrl, explorerTxUrl, formatDateTime } from '../../certificates/lib/format';
import { useClusterInfo } from '../../wallet/cluster';
import { verdictSteps, verdictSummary, verdictStatus, type Tone } from '../lib/verdict-text';

// The words are verdict-text.ts's; what the public view's badge says, too (verdictStatus).
export { verdictReason, verdictStatus } from '../lib/verdict-text';

const TONE_ICON = {
  pass: { icon: CheckCircle2, cls: 'text-emerald-600 dark:text-emerald-400', label: 'Passed' },
  fail: { icon: XCircle, cls: 'text-red-600 dark:text-red-400', label: 'Failed' },
  warn: { icon: AlertTriangle, cls: 'text-amber-600 dark:text-amber-400', label: 'Attention' },
  info: { icon: Info, cls: 'text-sky-700 dark:text-sky-400', label: 'Record detail' },
  neutral: { icon: CircleDashed, cls: 'text-muted-foreground', label: 'Not checked' },
} as const;

function Mono({ children }: { children: ReactNode }) {
  return <code className="break-all font-mono text-xs">{children}</code>;
}

function ExplorerLink({ href, children, testId }: { href: string; children: ReactNode; testId?: string }) {
  return (
    <a className="text-primary underline-offset-4 hover:underline" href={href} target="_blank" rel="noreferrer" data-testid={testId}>
      {children}
      <ExternalLink className="ml-1 inline size-3" aria-hidden="true" />
      <span className="sr-only">(opens in a new tab)</span>
    </a>
  );
}

function Step({ tone, title, children, testId }: { tone: Tone; title: string; children?: ReactNode; testId?: string }) {
  const t = TONE_ICON[tone];
  const Icon = t.icon;
  return (
    <li className="flex gap-3 py-3" data-testid={testId} data-tone={tone}>
      <Icon className={`mt-0.5 size-5 shrink-0 ${t.cls}`} role="img" aria-label={t.label} />
      <div className="min-w-0 flex-1 space-y-1">
        <p className="text-sm font-semibold">{title}</p>
        {children && <div className="text-sm text-muted-foreground">{children}</div>}
      </div>
    </li>
  );
}

const SUMMARY_TONE = {
  pass: 'border-emerald-200 bg-emerald-50 text-emerald-900 dark:border-emerald-900 dark:bg-emerald-950 dark:text-emerald-200',
  warn: 'border-amber-200 bg-amber-50 text-amber-900 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-200',
  fail: 'border-red-200 bg-red-50 text-red-900 dark:border-red-900 dark:bg-red-950 dark:text-red-200',
} as const;

export function VerdictSummary({ verdict }: { verdict: VerdictDto }) {
  const { tone, pending, title, text, flags, original } = verdictSummary(verdict);
  const Icon = pending ? Clock : tone === 'pass' ? CheckCircle2 : tone === 'warn' ? AlertTriangle : XCircle;
  return (
    <div role="status" data-testid="verdict-summary" data-valid={verdict.valid} data-status={verdictStatus(verdict)} data-tone={tone} className={`flex items-start gap-3 rounded-xl border p-4 ${SUMMARY_TONE[tone]}`}>
      <Icon className="size-6 shrink-0" aria-hidden="true" />
      <div className="min-w-0">
        <p className="font-semibold">{title}</p>
        <p className="break-words text-sm opacity-90">{text}</p>
        {original && (
          <p className="mt-1 break-words text-sm opacity-90" data-testid="verdict-original-upload">
            {original}
          </p>
        )}
        {flags && (
          // What the platform's check flagged: amber whatever the verdict's tone (it is no rejection, and no pass).
          <p className="mt-2 flex items-start gap-1.5 break-words rounded-md border border-amber-300 bg-amber-50 px-2 py-1 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-200" data-testid="verdict-flags">
            <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            <span>{flags}</span>
          </p>
        )}
      </div>
    </div>
  );
}

export function ChainVerdict({ verdict }: { verdict: VerdictDto }) {
  const mode = verdict.chain?.mode ?? 'embedded';
  const rpcUrl = useClusterInfo().data?.rpcUrl;
  const status = verdict.status;
  const verified = status === 'verified';
  const steps = verdictSteps(verdict);

  return (
    <ol className="divide-y" aria-label="Chain verification steps">
      <Step
        testId="step-integrity"
        tone={verdict.original_sha256 ? 'info' : verdict.integrity === 'match' ? 'pass' : verdict.integrity === 'mismatch' ? 'fail' : verdict.record_address && status !== 'not_found' ? 'pass' : 'fail'}
        title={
          verdict.original_sha256
            ? 'Integrity: the original upload of the file recorded on chain'
            : verdict.integrity === 'match'
            ? 'Integrity: the file matches the on-chain fingerprint'
            : verdict.integrity === 'mismatch'
              ? 'Integrity: the file does NOT match the on-chain fingerprint'
              : verdict.record_address && status !== 'not_found'
                ? 'Integrity: fingerprint recorded on chain'
                : 'Integrity: no on-chain record'
        }
      >
        {verdict.original_sha256 && (
          <p>
            Looked up <Mono>{verdict.original_sha256}</Mono>: the SHA-256 of the image its holder uploaded, which Attesta converted to the PDF whose SHA-256 follows (Attesta's record of the upload, not the chain's).
          </p>
        )}
        {verdict.integrity === 'mismatch' ? (
          <dl className="space-y-1">
            <div>
              <dt className="font-medium text-foreground">Expected (on chain)</dt>
              <dd data-testid="expected-hash">
                <Mono>{verdict.expected_sha256 ?? verdict.sha256}</Mono>
              </dd>
            </div>
            <div>
              <dt className="font-medium text-foreground">Your file</dt>
              <dd data-testid="actual-hash">
                <Mono>{verdict.actual_sha256}</Mono>
              </dd>
            </div>
          </dl>
        ) : (
          verdict.sha256 && (
            <p>
              SHA-256 <Mono>{verdict.sha256}</Mono>
            </p>
          )
        )}
        {verdict.record_address && status !== 'not_found' && (
          <p>
            Record{' '}
            <ExplorerLink href={explorerAddressUrl(verdict.record_address, rpcUrl)} testId="record-explorer-link">
              <Mono>{verdict.record_address}</Mono>
            </ExplorerLink>
          </p>
        )}
      </Step>
      <Step testId="step-status" tone={steps.status.tone} title={steps.status.title}>
        {steps.status.reason && <p className="break-words">{steps.status.reason}</p>}
        {steps.status.note && <p className="break-words" data-testid="verdict-note">{steps.status.note}</p>}
      </Step>
      <Step testId="step-tier" tone={steps.tier.tone} title="Trust tier">
        {steps.tier.text}
      </Step>
      <Step testId="step-issuer" tone={steps.issuer.tone} title="Issuer">
        <p>{steps.issuer.text}</p>
        {verdict.issuer && (
          <p className="flex flex-wrap items-center gap-1">
            {verdict.issuer.uri && <span>{verdict.issuer.uri} · </span>}
            Authority <CopyValue value={verdict.issuer.authority} label="issuer authority" short />
          </p>
        )}
      </Step>
      <Step testId="step-holder" tone={status === 'superseded' ? 'fail' : verdict.holder_wallet ? 'info' : 'neutral'} title="Holder">
        {verdict.holder_wallet ? (
          <p className="flex flex-wrap items-center gap-1">
            {status === 'superseded' ? 'The record now belongs to another wallet:' : 'Wallet'} <CopyValue value={verdict.holder_wallet} label="holder wallet" short testId="verdict-holder-wallet" />
          </p>
        ) : (
          'Unknown'
        )}
        {verdict.nft_mint && (
          <p>
            Soulbound NFT{' '}
            <ExplorerLink href={explorerAddressUrl(verdict.nft_mint, rpcUrl)}>
              <Mono>{verdict.nft_mint}</Mono>
            </ExplorerLink>
          </p>
        )}
      </Step>
      <Step testId="step-timestamps" tone={verdict.anchored_at ? 'info' : 'neutral'} title="Timestamps">
        <ul>
          {verdict.anchored_at && <li>Anchored {formatDateTime(verdict.anchored_at)}</li>}
          {verdict.verified_at && <li>{verified ? 'Verified' : 'Verdict recorded'} {formatDateTime(verdict.verified_at)}</li>}
          {verdict.revoked_at && <li>Revoked {formatDateTime(verdict.revoked_at)}</li>}
          {verdict.expires_at && <li>Expires {formatDateTime(verdict.expires_at)}</li>}
          {!verdict.anchored_at && <li>No on-chain timestamps</li>}
        </ul>
        {verdict.verifier && (
          <p className="flex flex-wrap items-center gap-1">
            Recorded by <CopyValue value={verdict.verifier} label="verifier key" short />
          </p>
        )}
      </Step>
      <Step testId="step-signatures" tone={verdict.transactions.length ? 'info' : 'neutral'} title="Transaction signatures">
        {verdict.transactions.length ? (
          <ul className="space-y-1">
            {verdict.transactions.map((tx) => (
              <li key={tx.signature}>
                <span className="font-medium text-foreground">{tx.kind.replace(/_/g, ' ')}</span>{' '}
                <ExplorerLink href={explorerTxUrl(tx.signature, rpcUrl)}>
                  <Mono>{tx.signature}</Mono>
                </ExplorerLink>
              </li>
            ))}
          </ul>
        ) : (
          'No transactions recorded.'
        )}
      </Step>
      <li className="pt-3 text-xs text-muted-foreground">
        Checked {formatDateTime(verdict.checked_at)} against program <Mono>{verdict.chain?.program_id}</Mono> ({mode === 'embedded' ? 'local chain' : 'Solana RPC'}).
      </li>
    </ol>
  );
}
