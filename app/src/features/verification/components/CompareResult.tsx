import { CheckCircle2, XCircle } from 'lucide-react';
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

/** Match or mismatch, with both fingerprints side by side (PRODUCT.md: a mismatch shows both hashes). */
export function CompareResult({ result }: { result: Comparison }) {
  const match = result.actual === result.expected;
  return (
    <div
      role="status"
      data-testid="compare-result"
      data-match={match}
      className={`space-y-2 rounded-xl border p-4 text-sm ${
        match
          ? 'border-emerald-200 bg-emerald-50 text-emerald-900 dark:border-emerald-900 dark:bg-emerald-950 dark:text-emerald-200'
          : 'border-red-200 bg-red-50 text-red-900 dark:border-red-900 dark:bg-red-950 dark:text-red-200'
      }`}
    >
      <p className="flex items-center gap-2 font-semibold">
        {match ? <CheckCircle2 className="size-5 shrink-0" aria-hidden="true" /> : <XCircle className="size-5 shrink-0" aria-hidden="true" />}
        {match
          ? `Match: this file is the certificate recorded on chain${result.against ? ` (${result.against})` : ''}`
          : `Mismatch: this file is not the certificate recorded on chain${result.against ? ` (${result.against})` : ''}`}
      </p>
      <p className="break-all opacity-90">
        {result.name} ({formatKb(result.size)})
      </p>
      <dl className="space-y-1">
        <div>
          <dt className="font-medium">On-chain SHA-256</dt>
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
