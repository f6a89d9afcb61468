// The certificates the institution issued or confirmed, with search, a status filter and Revoke.
import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ExternalLink, Search } from 'lucide-react';
import type { CertificateDto } from '../../../../../shared/schemas/dto';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { formatDate } from '../../../lib/dates';
import { trpc } from '../../../lib/trpc';
import { holderStatus, StatusBadge } from '../../certificates/components/status';
import { publicLink } from '../../certificates/lib/format';
import { NATIVE_SELECT_CLASS } from '../../../components/ui/native-select';
import { RevokeDialog } from './RevokeDialog';

/**
 * "Expires March 15, 2027" / "Expired March 15, 2027". A record's expiry is the end of the day the
 * institution entered (23:59:59 UTC), so its UTC date is that day wherever the reader is.
 */
function expiryText(expiresAt: string) {
  const past = Date.parse(expiresAt) <= Date.now();
  return `${past ? 'Expired' : 'Expires'} ${formatDate(expiresAt.slice(0, 10))}`;
}

export function CertificatesCard() {
  const [search, setSearch] = useState('');
  const [term, setTerm] = useState('');
  const [status, setStatus] = useState<'all' | 'verified' | 'revoked' | 'superseded'>('all');
  const [revoking, setRevoking] = useState<CertificateDto | null>(null);
  useEffect(() => {
    const t = setTimeout(() => setTerm(search.trim()), 300);
    return () => clearTimeout(t);
  }, [search]);
  const list = useQuery({ ...trpc.issuer.certificates.queryOptions({ search: term || undefined, status }), placeholderData: (prev) => prev });
  const counts = list.data?.counts;
  const certificates = (list.data?.certificates ?? []) as CertificateDto[];

  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>Your certificates</h2>
        </CardTitle>
        <CardDescription>
          {counts
            ? `${counts.total} issued or confirmed: ${counts.verified} verified on record, ${counts.revoked} revoked, ${counts.superseded} superseded; ${counts.open_requests} open request${counts.open_requests === 1 ? '' : 's'}.`
            : 'Certificates you issued or confirmed.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <div className="flex flex-col gap-2 sm:flex-row">
          <div className="relative flex-1">
            <Search className="pointer-events-none absolute left-2.5 top-2.5 size-4 text-muted-foreground" aria-hidden="true" />
            <Input type="search" aria-label="Search certificates by title, program or holder wallet" placeholder="Search title, program, holder wallet" className="pl-8" value={search} onChange={(e) => setSearch(e.target.value)} />
          </div>
          <select aria-label="Status filter" className={NATIVE_SELECT_CLASS} value={status} onChange={(e) => setStatus(e.target.value as typeof status)}>
            <option value="all">All statuses</option>
            <option value="verified">Verified on record</option>
            <option value="revoked">Revoked</option>
            <option value="superseded">Superseded</option>
          </select>
        </div>
        {list.isPending ? (
          <p className="text-sm text-muted-foreground">Loading certificates...</p>
        ) : certificates.length === 0 ? (
          <p className="text-sm text-muted-foreground">{term || status !== 'all' ? 'No certificate matches.' : 'None yet: issue one above, or confirm a holder’s request.'}</p>
        ) : (
          <ul className="divide-y" aria-label="Certificates issued or confirmed">
            {certificates.map((c) => (
              <li key={c.id} className="flex flex-wrap items-center justify-between gap-2 py-3" data-testid="issued-row">
                <div className="min-w-0 text-sm">
                  <p className="font-medium">{c.title}</p>
                  <p className="text-muted-foreground">
                    {c.program_name} · {formatDate(c.issue_date)}
                    {c.expires_at && <span data-testid="issued-expiry"> · {expiryText(c.expires_at)}</span>} · <span className="font-mono text-xs">{c.holder_wallet}</span>
                  </p>
                  {c.revocation_note && <p className="text-muted-foreground">Note: {c.revocation_note}</p>}
                </div>
                <div className="flex flex-wrap items-center gap-2">
                  {/* What a verifier reads of it now (its public verdict), as the holder's badge: not "Verified" while this institution's domain is not proven or it is suspended. */}
                  <StatusBadge status={holderStatus(c)} />
                  <Button asChild variant="ghost" size="sm">
                    <a href={publicLink(c.user_id, c.id)} target="_blank" rel="noreferrer">
                      <ExternalLink className="size-4" aria-hidden="true" /> Public view<span className="sr-only"> of {c.title} (opens in a new tab)</span>
                    </a>
                  </Button>
                  {c.verification_status === 'verified' && (
                    <Button variant="outline" size="sm" onClick={() => setRevoking(c)}>
                      Revoke<span className="sr-only"> {c.title}</span>
                    </Button>
                  )}
                </div>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
      <RevokeDialog certificate={revoking} onClose={() => setRevoking(null)} />
    </Card>
  );
}
