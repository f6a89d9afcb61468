import { CheckCircle2, CircleMinus, XCircle } from 'lucide-react';
import type { VerdictDto } from '../../../../../shared/schemas/dto';
import { formatKb } from '../../certificates/lib/format';

/** A dropped file fingerprinted in the browser, against the certificate it is compared with. */
export interface Comparison {
  name: string;
  size: number;
  /** The dropped file's SHA-256. */
  actual: string;
  /** The SHA-256 recorded on chain for the certificate in view. */
  expected: string;
  /** The certificate it was compared with, when the page should say which. */
  against?: string;
}

/** What a matching file says while the certificate's verdict has not been read from the chain. */
export const UNCHECKED_MATCH = "But the chain check has not completed: the file was compared with Attesta's record of this certificate only, not with the chain.";

/**
 * What a matching file says of a certificate that is not valid: only that it is the file on record. In
 * the verdict's own terms (revoked, rejected, superseded, expired, pending), never as a pass. Without a
 * verdict (not read yet, or the chain check failed) the fingerprint compared with is the database's,
 * which is no chain record either: no pass.
 */
export function notValidMatch(verdict: Pick<VerdictDto, 'valid' | 'status'> | null | undefined): string | null {
  if (!verdict) return UNCHECKED_MATCH;
  if (verdict.valid) return null;
  switch (verdict.status) {
    case 'pending':
      return 'But the certificate is not verified yet: a matching file does not make it valid.';
    case 'revoked':
    case 'rejected':
    case 'superseded':
    case 'expired':
      return `But the certificate is not valid: it is ${verdict.status}. A matching file does not make it valid.`;
    default:
      return 'But the certificate is not valid (see its verdict). A matching file does not make it valid.';
  }
}

const TONE = {
  pass: 'border-emerald-200 bg-emerald-50 text-emerald-900 dark:border-emerald-900 dark:bg-emerald-950 dark:text-emerald-200',
  fail: 'border-red-200 bg-red-50 text-red-900 dark:border-red-900 dark:bg-red-950 dark:text-red-200',
  neutral: 'border-slate-300 bg-slate-50 text-slate-900 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200',
} as const;

/**
 * Match or mismatch, with both fingerprints side by side (PRODUCT.md: a mismatch shows both hashes).
 * `verdict`: the verdict of the certificate compared with. A match with a certificate that is not valid
 * (revoked, rejected, superseded…) is said in the neutral tone — the file is the one on record, and the
 * certificate is still not valid — never as a green pass under a red verdict. Without a verdict (not
 * read yet, or the chain check failed) nothing is said of the chain: the fingerprint is the one on record.
 */
export function CompareResult({ result, verdict }: { result: Comparison; verdict?: Pick<VerdictDto, 'valid' | 'status'> | null }) {
  const match = result.actual === result.expected;
  const notValid = match ? notValidMatch(verdict) : null;
  const tone = !match ? 'fail' : notValid ? 'neutral' : 'pass';
  const Icon = tone === 'pass' ? CheckCircle2 : tone === 'neutral' ? CircleMinus : XCircle;
  const against = result.against ? ` (${result.against})` : '';
  return (
    <div role="status" data-testid="compare-result" data-match={match} data-tone={tone} className={`space-y-2 rounded-xl border p-4 text-sm ${TONE[tone]}`}>
      <p className="flex items-center gap-2 font-semibold">
        <Icon className="size-5 shrink-0" aria-hidden="true" />
        {tone === 'pass'
          ? `Match: this file is the certificate recorded on chain${against}`
          : tone === 'neutral'
            ? verdict
              ? `Match: this file is the one recorded on chain${against}`
              : `Match: this file is the one on record${against}`
            : `Mismatch: this file is not the certificate ${verdict ? 'recorded on chain' : 'on record'}${against}`}
      </p>
      {notValid && <p data-testid="compare-not-valid">{notValid}</p>}
      <p className="break-all opacity-90">
        {result.name} ({formatKb(result.size)})
      </p>
      <dl className="space-y-1">
        <div>
          <dt className="font-medium">{verdict ? 'On-chain SHA-256' : 'Recorded SHA-256'}</dt>
          <dd>
            <code className="break-all font-mono text-xs" data-testid="compare-expected">
              {result.expected}
            </code>
          </dd>
        </div>
        <div>
          <dt className="font-medium">Your file's SHA-256</dt>
          <dd>
            <code className="break-all font-mono text-xs" data-testid="compare-actual">
              {result.actual}
            </code>
          </dd>
        </div>
      </dl>
    </div>
  );
}
