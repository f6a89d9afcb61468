import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Plus, Search } from 'lucide-react';
import type { CertificateDto } from '../../../../shared/schemas/dto';
import type { CertificateStatusName } from '../../../../shared/constants';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../components/ui/select';
import { trpc } from '../../lib/trpc';
import { CertificateCard } from './components/CertificateCard';
import { EmptyCertificates } from './components/EmptyCertificates';
import { PageHeader } from './components/PageHeader';
import { statusMeta } from './components/status';

/**
 * A recorded status, or what a verifier's badge reads of one verified on record (holder-mark.ts):
 * "Verified" only where an institution whose domain is proven signed it, "Checked by Attesta only",
 * "Issuer domain not proven", or not valid now.
 */
type StandingFilter = 'platform_checked' | 'domain_not_proven' | 'not_valid';
type StatusFilter = 'all' | CertificateStatusName | StandingFilter;
const STATUS_FILTERS: readonly { value: StatusFilter; label: string }[] = [
  { value: 'all', label: 'All Statuses' },
  { value: 'pending', label: 'Pending' },
  // The seed's three, each in the words of the badge it filters by (status.tsx).
  { value: 'verified', label: statusMeta('verified').label },
  { value: 'platform_checked', label: statusMeta('platform_checked').label },
  { value: 'domain_not_proven', label: statusMeta('domain_not_proven').label },
  { value: 'rejected', label: 'Rejected' },
  // Verified on record, but a verifier reads it as not valid now (its institution suspended, expired…).
  { value: 'not_valid', label: 'Not valid now' },
  // Set on chain by others: the institution or the operator revoked it, or issued the file to its rightful holder.
  { value: 'revoked', label: 'Revoked' },
  { value: 'superseded', label: 'Superseded' },
];

/**
 * The list query for a filter. "Verified" means what a verifier's badge reads "Verified", as the cards
 * and the dashboard's counter say it; the other certificates verified on record are under the filter
 * named as their badge is.
 */
function listFilter(status: StatusFilter) {
  if (status === 'verified' || status === 'platform_checked' || status === 'domain_not_proven' || status === 'not_valid') {
    return { status: 'verified' as const, standing: status };
  }
  return { status };
}

function useDebounced<T>(value: T, ms: number) {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

export default function CertificatesPage() {
  const [search, setSearch] = useState('');
  // The filter is in the address (?status=…): a reload or a link (the dashboard's "not valid now") keeps it.
  const [params, setParams] = useSearchParams();
  const asked = params.get('status');
  const status: StatusFilter = STATUS_FILTERS.find((f) => f.value === asked)?.value ?? 'all';
  const setStatus = (next: StatusFilter) => setParams(next === 'all' ? {} : { status: next }, { replace: true });
  const term = useDebounced(search.trim(), 250);
  const list = useQuery({
    ...trpc.certificate.list.queryOptions({ search: term || undefined, ...listFilter(status) }),
    placeholderData: keepPreviousData,
  });
  const certificates = (list.data ?? []) as CertificateDto[];
  const filtering = term !== '' || status !== 'all';

  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <PageHeader
        title="Certificates"
        description="All the certificates you have added, with their verification status."
        action={
          <Button asChild>
            <Link to="/certificates/create">
              <Plus className="size-4" aria-hidden="true" /> New Certificate
            </Link>
          </Button>
        }
      />
      <div className="flex flex-col gap-3 sm:flex-row" role="search">
        <div className="relative flex-1">
          <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
          <Input
            type="search"
            aria-label="Search certificates"
            placeholder="Search by title, institution or program..."
            className="pl-9"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </div>
        <Select value={status} onValueChange={(v) => setStatus(v as StatusFilter)}>
          <SelectTrigger className="w-full sm:w-56" aria-label="Filter by status">
            <SelectValue placeholder="All Statuses" />
          </SelectTrigger>
          <SelectContent>
            {STATUS_FILTERS.map((f) => (
              <SelectItem key={f.value} value={f.value}>
                {f.label}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>

      {list.isPending ? (
        <div className="grid gap-4 md:grid-cols-2 lg:grid-cols-3" aria-busy="true">
          {[0, 1, 2, 3, 4, 5].map((i) => (
            <div key={i} className="h-44 animate-pulse rounded-xl bg-muted" />
          ))}
        </div>
      ) : list.isError ? (
        <p role="alert" className="text-sm text-destructive">
          Failed to load your certificates. {list.error.message}
        </p>
      ) : certificates.length === 0 ? (
        filtering ? <EmptyCertificates title="No certificates match your search" showCreate={false} /> : <EmptyCertificates />
      ) : (
        <>
          <p className="text-sm text-muted-foreground" aria-live="polite">
            {certificates.length} {certificates.length === 1 ? 'certificate' : 'certificates'}
          </p>
          <div className="grid gap-4 md:grid-cols-2 lg:grid-cols-3">
            {certificates.map((c) => (
              <CertificateCard key={c.id} certificate={c} />
            ))}
          </div>
        </>
      )}
    </div>
  );
}
