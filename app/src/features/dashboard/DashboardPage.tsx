import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { CheckCircle2, Clock, Coins, FileText, Plus } from 'lucide-react';
import type { CertificateDto, CertificateStatsDto } from '../../../../shared/schemas/dto';
import { DASHBOARD_RECENT_COUNT } from '../../../../shared/constants';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card';
import { trpc } from '../../lib/trpc';
import { useAuth } from '../auth/AuthProvider';
import { CertificateCard } from '../certificates/components/CertificateCard';
import { EmptyCertificates } from '../certificates/components/EmptyCertificates';
import { PageHeader } from '../certificates/components/PageHeader';

// Verified counts what a verifier reads as "Verified" (the public verdict's badge: an institution whose
// domain is proven signed it). The other certificates verified on record are said under it, each in the
// words of its badge, leading to the list filtered so: checked by Attesta only, signed by an institution
// whose domain is not proven, and not valid now (its institution suspended, expired…).
const COUNTERS = [
  { key: 'total', label: 'Total Certificates', icon: FileText, tone: 'text-primary' },
  { key: 'verified', label: 'Verified', icon: CheckCircle2, tone: 'text-emerald-700 dark:text-emerald-400' },
  { key: 'pending', label: 'Pending', icon: Clock, tone: 'text-amber-700 dark:text-amber-400' },
  { key: 'minted', label: 'Minted NFTs', icon: Coins, tone: 'text-violet-700 dark:text-violet-400' },
] as const;

/** "N more …": one line per kind of certificate verified on record that a verifier does not read as "Verified". */
const BESIDES = [
  { key: 'platform_checked', testId: 'stat-platform-checked', filter: 'platform_checked', tone: 'text-muted-foreground', one: '1 more is checked by Attesta only', many: (n: number) => `${n} more are checked by Attesta only` },
  {
    key: 'domain_not_proven',
    testId: 'stat-domain-not-proven',
    filter: 'domain_not_proven',
    tone: 'text-amber-800 dark:text-amber-300',
    one: "1 more is signed by an institution whose domain is not proven",
    many: (n: number) => `${n} more are signed by an institution whose domain is not proven`,
  },
  {
    key: 'issuer_unchecked',
    testId: 'stat-issuer-unchecked',
    filter: null,
    tone: 'text-amber-800 dark:text-amber-300',
    one: '1 more is signed by an institution not checked just now',
    many: (n: number) => `${n} more are signed by an institution not checked just now`,
  },
  { key: 'not_valid', testId: 'stat-not-valid', filter: 'not_valid', tone: 'text-red-700 dark:text-red-400', one: '1 more is verified on record but not valid now', many: (n: number) => `${n} more are verified on record but not valid now` },
] as const;

function VerifiedBesides({ stats }: { stats: CertificateStatsDto }) {
  return (
    <>
      {BESIDES.map(({ key, testId, filter, tone, one, many }) => {
        const n = stats[key] ?? 0;
        if (n <= 0) return null;
        const text = n === 1 ? one : many(n);
        return (
          <p key={key} className={`mt-1 text-xs ${tone}`} data-testid={testId}>
            {filter ? (
              <Link to={`/certificates?status=${filter}`} className="underline underline-offset-2 hover:no-underline">
                {text}
              </Link>
            ) : (
              text
            )}
          </p>
        );
      })}
    </>
  );
}

export default function DashboardPage() {
  const { user } = useAuth();
  const stats = useQuery(trpc.certificate.stats.queryOptions());
  const recent = useQuery(trpc.certificate.list.queryOptions({ limit: DASHBOARD_RECENT_COUNT }));
  const s = stats.data as CertificateStatsDto | undefined;
  const certificates = ((recent.data ?? []) as CertificateDto[]).slice(0, DASHBOARD_RECENT_COUNT);

  return (
    <div className="mx-auto max-w-6xl space-y-8">
      <PageHeader
        title={`Welcome, ${user?.full_name?.trim() || 'User'}`}
        description="Here is an overview of your certificates."
        action={
          <Button asChild>
            <Link to="/certificates/create">
              <Plus className="size-4" aria-hidden="true" /> New Certificate
            </Link>
          </Button>
        }
      />

      <section aria-label="Certificate counts" className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        {COUNTERS.map(({ key, label, icon: Icon, tone }) => (
          <Card key={key}>
            <CardHeader className="flex flex-row items-center justify-between space-y-0 pb-2">
              <CardTitle className="text-sm font-medium text-muted-foreground">{label}</CardTitle>
              <Icon className={`size-5 ${tone}`} aria-hidden="true" />
            </CardHeader>
            <CardContent>
              <p className="text-3xl font-bold tabular-nums" data-testid={`stat-${key}`}>
                {s ? s[key] : <span className="inline-block h-8 w-10 animate-pulse rounded bg-muted" aria-label="Loading" />}
              </p>
              {key === 'verified' && s && <VerifiedBesides stats={s} />}
            </CardContent>
          </Card>
        ))}
      </section>

      <section aria-labelledby="recent-heading" className="space-y-4">
        <div className="flex items-center justify-between gap-4">
          <h2 id="recent-heading" className="text-xl font-semibold">
            Recent Certificates
          </h2>
          {certificates.length > 0 && (
            <Button asChild variant="outline">
              <Link to="/certificates">View All Certificates</Link>
            </Button>
          )}
        </div>
        {recent.isPending ? (
          <div className="grid gap-4 md:grid-cols-2 lg:grid-cols-3" aria-busy="true">
            {[0, 1, 2].map((i) => (
              <div key={i} className="h-44 animate-pulse rounded-xl bg-muted" />
            ))}
          </div>
        ) : recent.isError ? (
          <p role="alert" className="text-sm text-destructive">
            Failed to load your certificates. {recent.error.message}
          </p>
        ) : certificates.length === 0 ? (
          <EmptyCertificates />
        ) : (
          <div className="grid gap-4 md:grid-cols-2 lg:grid-cols-3">
            {certificates.map((c) => (
              <CertificateCard key={c.id} certificate={c} />
            ))}
          </div>
        )}
      </section>
    </div>
  );
}
