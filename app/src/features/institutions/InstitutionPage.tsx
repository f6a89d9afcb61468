// /institution: the institution portal (notes/institutions-design.md). A wallet that is no institution
// yet registers one (name, domain → its wallet signs register_issuer). A registered one sees its status,
// proves its domain (what to publish, "Check now"), issues certificates to holders, answers the holders'
// confirmation requests and lists (and revokes) the certificates it issued or confirmed. Every step its
// wallet signs is prepare → sign the prepared bytes → issuer.submit (api.ts).
// The cards live in components/; this page loads the institution and composes them.
import { useQuery } from '@tanstack/react-query';
import { Loader2, RefreshCw } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { trpc } from '../../lib/trpc';
import { PageHeader } from '../certificates/components/PageHeader';
import { CertificatesCard } from './components/CertificatesCard';
import { IssueCard } from './components/IssueCard';
import { IssuerStatusBadge } from './components/IssuerProof';
import { RegisterCard } from './components/RegisterCard';
import { RequestsCard } from './components/RequestsCard';
import { StatusCard } from './components/StatusCard';

/** How often a pending institution's page asks whether the operator has decided. */
const PENDING_POLL_MS = 5_000;

export default function InstitutionPage() {
  // A pending institution waits for the operator, who approves it elsewhere: nothing tells this page
  // (the live channel carries certificates, not institutions), so it asks again while pending.
  const me = useQuery({ ...trpc.issuer.me.queryOptions(), refetchInterval: (q) => (q.state.data?.status === 'pending' ? PENDING_POLL_MS : false) });

  if (me.isPending) {
    return (
      <div role="status" className="flex min-h-[50vh] items-center justify-center gap-2 text-muted-foreground">
        <Loader2 className="size-5 animate-spin" aria-hidden="true" /> Loading institution...
      </div>
    );
  }
  if (me.isError) {
    return (
      <div className="mx-auto max-w-md py-16 text-center">
        <h1 className="text-2xl font-bold">Error</h1>
        <p className="mb-6 mt-2 text-muted-foreground">Failed to load your institution. {me.error.message}</p>
        <Button onClick={() => void me.refetch()}>
          <RefreshCw className="size-4" aria-hidden="true" /> Retry
        </Button>
      </div>
    );
  }
  const inst = me.data;
  if (!inst) {
    return (
      <div className="mx-auto max-w-6xl min-w-0 space-y-6 [overflow-wrap:anywhere]">
        <PageHeader title="Institution" description="Issue certificates to your graduates and confirm the ones they add, signed with your institution’s own key." />
        <RegisterCard />
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-6xl min-w-0 space-y-6 [overflow-wrap:anywhere]">
      <PageHeader title={inst.name} description={`Institution portal · ${inst.domain}`} action={<IssuerStatusBadge status={inst.status} />} />
      <StatusCard me={inst} />
      <IssueCard me={inst} />
      <RequestsCard me={inst} />
      <CertificatesCard />
    </div>
  );
}
