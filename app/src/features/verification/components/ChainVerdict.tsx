// The verdict read from the chain record, step by step: what a verifier needs to trust a certificate
// without trusting us (PRODUCT.md, trust flow §4).
import { AlertTriangle, CheckCircle2, CircleDashed, ExternalLink, XCircle } from 'lucide-react';
import type { ReactNode } from 'react';
import type { VerdictDto } from '../../../../../shared/schemas/dto';
import { explorerAddressUrl, explorerTxUrl } from '../../certificates/lib/format';
import { useClusterInfo } from '../../wallet/cluster';

type Tone = 'pass' | 'fail' | 'warn' | 'neutral';

const TONE_ICON = {
  pass: { icon: CheckCircle2, cls: 'text-emerald-600 dark:text-emerald-400', label: 'Passed' },
  fail: { icon: XCircle, cls: 'text-red-600 dark:text-red-400', label: 'Failed' },
  warn: { icon: AlertTriangle, cls: 'text-amber-600 dark:text-amber-400', label: 'Attention' },
  neutral: { icon: CircleDashed, cls: 'text-muted-foreground', label: 'Not checked' },
} as const;

const TIER: Record<string, string> = {
  none: 'No trust tier',
  platform_verified: 'Platform verified: Attesta checked the document; the issuer has not confirmed it',
  issuer_confirmed: 'Issuer confirmed: the issuing institution signed this certificate on chain',
};

const STATUS_TEXT: Record<string, string> = {
  verified: 'Verified on chain',
  rejected: 'Rejected by verification',
  revoked: 'Revoked',
  expired: 'Expired',
  pending: 'Verification pending',
  not_found: 'No on-chain record for this file',
};

function explorer(path: 'address' | 'tx', value: string, rpcUrl: string | null | undefined) {
  return path === 'address' ? explorerAddressUrl(value, rpcUrl) : explorerTxUrl(value, rpcUrl);
}

function Mono({ children }: { children: ReactNode }) {
  return <code className="break-all font-mono text-xs">{children}</code>;
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

function when(value: string | null) {
  return value ? new Date(value).toLocaleString() : null;
}

export function VerdictSummary({ verdict }: { verdict: VerdictDto }) {
  const ok = verdict.valid;
  return (
    <div
      role="status"
      data-testid="verdict-summary"
      data-valid={ok}
      className={`flex items-start gap-3 rounded-xl border p-4 ${
        ok
          ? 'border-emerald-200 bg-emerald-50 text-emerald-900 dark:border-emerald-900 dark:bg-emerald-950 dark:text-emerald-200'
          : 'border-red-200 bg-red-50 text-red-900 dark:border-red-900 dark:bg-red-950 dark:text-red-200'
      }`}
    >
      {ok ? <CheckCircle2 className="size-6 shrink-0" aria-hidden="true" /> : <XCircle className="size-6 shrink-0" aria-hidden="true" />}
      <div>
        <p className="font-semibold">{ok ? 'Authentic: this certificate checks out against the chain' : 'Not valid'}</p>
        <p className="text-sm opacity-90">
          {ok
            ? 'The file fingerprint is recorded on chain and verified.'
            : verdict.integrity === 'mismatch'
              ? 'The file does not match the one recorded on chain.'
              : verdict.reason ?? STATUS_TEXT[verdict.status] ?? verdict.status}
        </p>
      </div>
    </div>
  );
}

export function ChainVerdict({ verdict }: { verdict: VerdictDto }) {
  const mode = verdict.chain?.mode ?? 'embedded';
  const rpcUrl = useClusterInfo().data?.rpcUrl;
  const statusTone: Tone =
    verdict.status === 'verified' ? 'pass' : verdict.status === 'pending' ? 'warn' : 'fail';
  return (
    <ol className="divide-y" aria-label="Chain verification steps">
      <Step
        testId="step-integrity"
        tone={verdict.integrity === 'match' ? 'pass' : verdict.integrity === 'mismatch' ? 'fail' : verdict.record_address ? 'pass' : 'fail'}
        title={
          verdict.integrity === 'match'
            ? 'Integrity: the file matches the on-chain fingerprint'
            : verdict.integrity === 'mismatch'
              ? 'Integrity: the file does NOT match the on-chain fingerprint'
              : verdict.record_address
                ? 'Integrity: fingerprint recorded on chain'
                : 'Integrity: no on-chain record'
        }
      >
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
        {verdict.record_address && (
          <p>
            Record{' '}
            <a className="text-primary underline-offset-4 hover:underline" href={explorer('address', verdict.record_address, rpcUrl)} target="_blank" rel="noreferrer">
              <Mono>{verdict.record_address}</Mono>
              <ExternalLink className="ml-1 inline size-3" aria-hidden="true" />
              <span className="sr-only">(opens in a new tab)</span>
            </a>
          </p>
        )}
      </Step>
      <Step testId="step-status" tone={statusTone} title={`Status: ${STATUS_TEXT[verdict.status] ?? verdict.status}`}>
        {verdict.reason && verdict.status !== 'verified' && <p>Reason: {verdict.reason}</p>}
      </Step>
      <Step testId="step-tier" tone={verdict.tier === 'none' ? 'neutral' : 'pass'} title="Trust tier">
        {TIER[verdict.tier] ?? verdict.tier}
      </Step>
      <Step
        testId="step-issuer"
        tone={verdict.issuer?.status === 'approved' ? 'pass' : verdict.issuer ? 'warn' : 'neutral'}
        title="Issuer"
      >
        {verdict.issuer ? (
          <>
            <p>
              {verdict.issuer.name ?? 'Unnamed issuer'}
              {verdict.issuer.status && ` (${verdict.issuer.status})`}
              {verdict.issuer.uri && ` · ${verdict.issuer.uri}`}
            </p>
            <p>
              Authority <Mono>{verdict.issuer.authority}</Mono>
            </p>
          </>
        ) : (
          'No registered issuer is linked to this record.'
        )}
      </Step>
      <Step testId="step-holder" tone={verdict.holder_wallet ? 'pass' : 'neutral'} title="Holder">
        {verdict.holder_wallet ? (
          <p>
            Wallet <Mono>{verdict.holder_wallet}</Mono>
          </p>
        ) : (
          'Unknown'
        )}
        {verdict.nft_mint && (
          <p>
            Soulbound NFT{' '}
            <a className="text-primary underline-offset-4 hover:underline" href={explorer('address', verdict.nft_mint, rpcUrl)} target="_blank" rel="noreferrer">
              <Mono>{verdict.nft_mint}</Mono>
              <span className="sr-only">(opens in a new tab)</span>
            </a>
          </p>
        )}
      </Step>
      <Step testId="step-timestamps" tone={verdict.anchored_at ? 'pass' : 'neutral'} title="Timestamps">
        <ul>
          {verdict.anchored_at && <li>Anchored {when(verdict.anchored_at)}</li>}
          {verdict.verified_at && <li>Verified {when(verdict.verified_at)}</li>}
          {verdict.revoked_at && <li>Revoked {when(verdict.revoked_at)}</li>}
          {verdict.expires_at && <li>Expires {when(verdict.expires_at)}</li>}
          {!verdict.anchored_at && <li>No on-chain timestamps</li>}
        </ul>
        {verdict.verifier && (
          <p>
            Verified by <Mono>{verdict.verifier}</Mono>
          </p>
        )}
      </Step>
      <Step testId="step-signatures" tone={verdict.transactions.length ? 'pass' : 'neutral'} title="Transaction signatures">
        {verdict.transactions.length ? (
          <ul className="space-y-1">
            {verdict.transactions.map((tx) => (
              <li key={tx.signature}>
                <span className="font-medium text-foreground">{tx.kind.replace(/_/g, ' ')}</span>{' '}
                <a className="text-primary underline-offset-4 hover:underline" href={explorer('tx', tx.signature, rpcUrl)} target="_blank" rel="noreferrer">
                  <Mono>{tx.signature}</Mono>
                  <span className="sr-only">(opens in a new tab)</span>
                </a>
              </li>
            ))}
          </ul>
        ) : (
          'No transactions recorded.'
        )}
      </Step>
      <li className="pt-3 text-xs text-muted-foreground">
        Checked {when(verdict.checked_at)} against program <Mono>{verdict.chain?.program_id}</Mono> ({mode === 'embedded' ? 'local chain' : 'Solana RPC'}).
      </li>
    </ol>
  );
}
