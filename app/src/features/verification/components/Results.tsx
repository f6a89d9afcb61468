// The results of /verification, loaded with the first lookup (VerificationPanel): a certificate's
// verdict, and a dropped file compared with the certificate in view.
import { Link } from 'react-router';
import type { VerdictDto } from '../../../../../shared/schemas/dto';
import { Button } from '../../../components/ui/button';
import { formatDate } from '../../certificates/lib/format';
import { holderNameOf } from '../../certificates/lib/holder-name';
import { ChainVerdict, VerdictSummary } from './ChainVerdict';
import { CompareResult, type Comparison } from './CompareResult';

export function VerdictView({ verdict }: { verdict: VerdictDto }) {
  const cert = verdict.certificate;
  const holder = cert ? holderNameOf(cert) : null;
  return (
    <div className="space-y-4" data-testid="verdict">
      <VerdictSummary verdict={verdict} />
      {cert && holder && (
        <div className="rounded-xl border p-4">
          <p className="text-lg font-semibold">{cert.title}</p>
          <p className="text-sm text-muted-foreground">
            {cert.institution_name} · {cert.program_name} · issued {formatDate(cert.issue_date)}
            {/* The platform's check never reads the date: only an institution's key makes it more than the holder's entry. */}
            {verdict.tier !== 'issuer_confirmed' && <span data-testid="issue-date-note"> (date entered by the holder, not checked)</span>}
          </p>
          <p className="text-sm text-muted-foreground" data-testid="holder-name" data-checked={holder.checked}>
            Holder: {holder.name} {holder.note}
          </p>
          <Button asChild variant="link" className="h-auto px-0">
            <Link to={`/view/${cert.user_id}/${cert.id}`}>Open the certificate page</Link>
          </Button>
        </div>
      )}
      <ChainVerdict verdict={verdict} />
    </div>
  );
}

/**
 * The comparison, and — when the file is not the certificate in view — what the file itself is on
 * chain (`other`: undefined while it is looked up, null when it is nothing). `verdict`: the certificate
 * in view's, so a matching file of one that is not valid reads as such.
 */
export function CompareBlock({ comparison, other, verdict }: { comparison: Comparison; other: VerdictDto | null | undefined; verdict?: VerdictDto }) {
  return (
    <div className="space-y-3">
      <CompareResult result={comparison} verdict={verdict} />
      {comparison.actual !== comparison.expected &&
        other !== undefined &&
        (other && other.status !== 'not_found' ? (
          <div className="space-y-2" data-testid="compare-other">
            <p className="text-sm text-muted-foreground">
              {other.original_sha256 && other.sha256 === comparison.expected ? "This file is the original image of this certificate's recorded PDF:" : 'This file is another certificate on chain:'}
            </p>
            <VerdictSummary verdict={other} />
          </div>
        ) : (
          <p className="text-sm text-muted-foreground" data-testid="compare-other">
            This file's own fingerprint is not recorded on chain: it was never registered, or it has been changed since.
          </p>
        ))}
    </div>
  );
}
