// The verdict read from the chain record, step by step: what a verifier needs to trust a certificate
// without trusting us (PRODUCT.md, trust flow §4). Every mark agrees with the verdict: a check mark
// only for what was checked and holds, a cross for what fails, and record details (holder, times,
// signatures) shown as facts, never as checks a rejected certificate would seem to pass.
import { AlertTriangle, CheckCircle2, CircleDashed, Clock, ExternalLink, Info, XCircle } from 'lucide-react';
import type { ReactNode } from 'react';
import type { VerdictDto } from '../../../../../shared/schemas/dto';
import { checkedHolderName } from '../../../../../shared/schemas/details';
import { reasonText } from '../../../../../shared/program/reasons';
import { chainReason } from '../../certificates/lib/chain-reason';
import { CopyValue } from '../../certificates/components/CopyField';
import { explorerAddressUrl, explorerTxUrl, formatDateTime } from '../../certificates/lib/format';
import { useClusterInfo } from '../../wallet/cluster';

type Tone = 'pass' | 'fail' | 'warn' | 'info' | 'neutral';

const TONE_ICON = {
  pass: { icon: CheckCircle2, cls: 'text-emerald-600 dark:text-emerald-400', label: 'Passed' },
  fail: { icon: XCircle, cls: 'text-red-600 dark:text-red-400', label: 'Failed' },
  warn: { icon: AlertTriangle, cls: 'text-amber-600 dark:text-amber-400', label: 'Attention' },
  info: { icon: Info, cls: 'text-sky-700 dark:text-sky-400', label: 'Record detail' },
  neutral: { icon: CircleDashed, cls: 'text-muted-foreground', label: 'Not checked' },
} as const;

const STATUS_TEXT: Record<string, string> = {
  verified: 'Verified on chain',
  rejected: 'Rejected by verification',
  revoked: 'Revoked',
  superseded: 'Superseded: the institution issued this file to another holder',
  expired: 'Expired',
  pending: 'Verification pending',
  not_found: 'No on-chain record for this file',
};

const TIER_NAME: Record<string, string> = { platform_verified: 'Platform verified', issuer_confirmed: 'Issuer confirmed' };

/** The verdict in one word for the page's badge. */
export function verdictStatus(verdict: VerdictDto): string {
  return verdict.integrity === 'mismatch' ? 'rejected' : verdict.status;
}

/**
 * Why a certificate is not valid, in words anyone may read. A rejection says which rule it broke, not
 * the holder's document text; a revocation or supersession says who did it (public on chain anyway).
 */
export function verdictReason(verdict: VerdictDto): string | null {
  // The server's words for a verified record that is not valid (a suspended institution; claims its confirmation does not cover).
  if (verdict.note && !verdict.valid) return verdict.note;
  const row = verdict.certificate;
  if ((verdict.status === 'revoked' || verdict.status === 'superseded') && row?.verification_status === verdict.status) {
    const said = chainReason(verdict.status, row.verification_details);
    if (said) return said;
  }
  if (verdict.status === 'pending' && row?.verification_details?.state === 'awaiting_confirmation') {
    return 'Its content could not be read automatically, so it is not verified: it waits for the issuing institution to confirm it on chain.';
  }
  if (!verdict.reason_code) return null;
  const text = reasonText(verdict.reason_code);
  return `${text[0].toUpperCase()}${text.slice(1)}.`;
}

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

export function VerdictSummary({ verdict }: { verdict: VerdictDto }) {
  const ok = verdict.valid;
  const pending = !ok && verdict.status === 'pending' && verdict.integrity !== 'mismatch';
  const tone = ok
    ? 'border-emerald-200 bg-emerald-50 text-emerald-900 dark:border-emerald-900 dark:bg-emerald-950 dark:text-emerald-200'
    : pending
      ? 'border-amber-200 bg-amber-50 text-amber-900 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-200'
      : 'border-red-200 bg-red-50 text-red-900 dark:border-red-900 dark:bg-red-950 dark:text-red-200';
  const Icon = ok ? CheckCircle2 : pending ? Clock : XCircle;
  const title = ok
    ? 'Authentic: this certificate checks out against the chain'
    : pending
      ? 'Not verified yet'
      : verdict.status === 'revoked'
        ? 'Not valid: revoked'
        : verdict.status === 'superseded'
          ? 'Not valid: superseded'
          : verdict.status === 'expired'
            ? 'Not valid: expired'
            : 'Not valid';
  const text = ok
    ? 'The file fingerprint is recorded on chain and verified.'
    : verdict.integrity === 'mismatch'
      ? 'The file does not match the one recorded on chain.'
      : (verdictReason(verdict) ?? STATUS_TEXT[verdict.status] ?? verdict.status);
  return (
    <div role="status" data-testid="verdict-summary" data-valid={ok} data-status={verdictStatus(verdict)} className={`flex items-start gap-3 rounded-xl border p-4 ${tone}`}>
      <Icon className="size-6 shrink-0" aria-hidden="true" />
      <div className="min-w-0">
        <p className="font-semibold">{title}</p>
        <p className="break-words text-sm opacity-90">{text}</p>
      </div>
    </div>
  );
}

/** ", example.edu, domain proven" (or "not proven now"): whether the institution proved the domain it registered. */
function institutionDomain(issuer: VerdictDto['issuer'], inList = false): string {
  if (!issuer?.domain) return '';
  const proof = issuer.domain_proven ? 'domain proven' : 'domain not proven now';
  return inList ? `, ${issuer.domain}, ${proof}` : ` (${issuer.domain}, ${proof})`;
}

export function ChainVerdict({ verdict }: { verdict: VerdictDto }) {
  const mode = verdict.chain?.mode ?? 'embedded';
  const rpcUrl = useClusterInfo().data?.rpcUrl;
  const status = verdict.status;
  const verified = status === 'verified';
  const statusTone: Tone = verified ? 'pass' : status === 'pending' ? 'warn' : 'fail';
  const issuer = verdict.issuer;
  const confirmedByIssuer = verified && verdict.tier === 'issuer_confirmed';

  // The tier only counts for a verified record; otherwise the verdict's own status says why none applies.
  let tierTone: Tone = statusTone;
  let tierText: string;
  if (verified && verdict.tier === 'issuer_confirmed') {
    tierText = `Issuer confirmed: ${issuer?.name ?? 'the issuing institution'}${institutionDomain(issuer)} signed this record on chain with its own key.`;
  } else if (verified && verdict.tier === 'platform_verified') {
    // Never to be mistaken for the institution's word: what the platform checked, and what it did not.
    const claimed = verdict.certificate?.institution_name;
    const holder = checkedHolderName(verdict.certificate?.verification_details ?? null);
    const named = holder ? `the claimed title, institution and program, and the holder, ${holder}` : 'the claimed title, institution and program';
    tierText = `Checked by Attesta only, not confirmed by ${claimed ?? 'the institution'}: the file is intact and its text names ${named}. Ask the holder to request confirmation from the institution.`;
  } else if (verified) {
    tierTone = 'warn';
    tierText = 'No trust tier is recorded.';
  } else if (status === 'pending') tierText = 'None yet: the certificate is not verified.';
  else {
    const had = TIER_NAME[verdict.tier];
    tierText = `None: the certificate is ${status === 'not_found' ? 'not on chain' : status}${had ? ` (the tier it had, ${had}, no longer applies)` : ''}.`;
  }

  // The institution: confirmed (pass), registration not in order (fail / attention), or simply not
  // involved — said as a record detail, never as an unchecked step beside a passed tier.
  let issuerTone: Tone = 'info';
  let issuerText: ReactNode;
  if (issuer) {
    const name = issuer.name ?? 'An unnamed issuer';
    if (issuer.status === 'suspended') {
      issuerTone = 'fail';
      issuerText = `${name}: its registration as an issuer is suspended.`;
    } else if (issuer.status !== 'approved') {
      issuerTone = 'warn';
      issuerText = `${name}: not an approved issuer${issuer.status ? ` (${issuer.status})` : ''}.`;
    } else if (status === 'superseded') {
      issuerText = `${name} issued this file to another wallet.`;
    } else if (confirmedByIssuer) {
      issuerTone = 'pass';
      issuerText = `${name} (approved issuer${institutionDomain(issuer, true)}) confirmed this certificate on chain.`;
    } else if (verdict.tier === 'issuer_confirmed') {
      // Confirmed once; the record's status (revoked, expired) is what counts now.
      issuerText = `${name} (approved issuer) confirmed this certificate on chain; it is ${status} now.`;
    } else {
      issuerText = `${name} (approved issuer) has not confirmed this certificate.`;
    }
  } else if (verdict.confirmation_requested_from) {
    const asked = verdict.confirmation_requested_from.name ?? 'an institution';
    issuerText = `The holder asked ${asked} to confirm this certificate; it has not confirmed it.`;
  } else {
    issuerText = verified
      ? 'No institution has confirmed this certificate on chain: the document was checked by the platform.'
      : 'No registered institution is linked to this record.';
  }

  return (
    <ol className="divide-y" aria-label="Chain verification steps">
      <Step
        testId="step-integrity"
        tone={verdict.integrity === 'match' ? 'pass' : verdict.integrity === 'mismatch' ? 'fail' : verdict.record_address && status !== 'not_found' ? 'pass' : 'fail'}
        title={
          verdict.integrity === 'match'
            ? 'Integrity: the file matches the on-chain fingerprint'
            : verdict.integrity === 'mismatch'
              ? 'Integrity: the file does NOT match the on-chain fingerprint'
              : verdict.record_address && status !== 'not_found'
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
        {verdict.record_address && status !== 'not_found' && (
          <p>
            Record{' '}
            <ExplorerLink href={explorerAddressUrl(verdict.record_address, rpcUrl)} testId="record-explorer-link">
              <Mono>{verdict.record_address}</Mono>
            </ExplorerLink>
          </p>
        )}
      </Step>
      <Step testId="step-status" tone={statusTone} title={`Status: ${STATUS_TEXT[status] ?? status}`}>
        {!verified && verdictReason(verdict) && <p className="break-words">{verdictReason(verdict)}</p>}
        {verified && verdict.note && <p className="break-words" data-testid="verdict-note">{verdict.note}</p>}
      </Step>
      <Step testId="step-tier" tone={tierTone} title="Trust tier">
        {tierText}
      </Step>
      <Step testId="step-issuer" tone={issuerTone} title="Issuer">
        <p>{issuerText}</p>
        {issuer && (
          <p className="flex flex-wrap items-center gap-1">
            {issuer.uri && <span>{issuer.uri} · </span>}
            Authority <CopyValue value={issuer.authority} label="issuer authority" short />
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
