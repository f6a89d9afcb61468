// /certificates/{id}: the holder's view of one certificate. Its status is live (hooks/useCertificateLiveStatus:
// SSE, the seed's 10 s polling as the fallback, each run announced when it ends); the cards are in components/.
import { Link, useNavigate, useParams } from 'react-router';
import { ArrowLeft, Loader2, RefreshCw } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { useClusterInfo } from '../wallet/cluster';
import { errorCode, useCertificateLiveStatus } from './hooks/useCertificateLiveStatus';
import { CertificateFacts } from './components/CertificateFacts';
import { CertificateHeader } from './components/CertificateHeader';
import { CertificateNotFound } from './components/CertificateNotFound';
import { CertificatePreview } from './components/CertificatePreview';
import { ConfirmationRequestPanel } from './components/ConfirmationRequestPanel';
import { MintPanel } from './components/MintPanel';
import { PermanentStoragePanel } from './components/PermanentStoragePanel';
import { ShareCard } from './components/ShareCard';
import { VerificationStatusPanel } from './components/VerificationStatusPanel';
import { publicLink } from './lib/format';

export default function CertificateDetailPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const rpcUrl = useClusterInfo().data?.rpcUrl;
  const live = useCertificateLiveStatus(id);
  const { query, certificate: c } = live;

  if (query.isPending) {
    return (
      <div role="status" className="flex min-h-[50vh] items-center justify-center gap-2 text-muted-foreground">
        <Loader2 className="size-5 animate-spin" aria-hidden="true" /> Loading certificate...
      </div>
    );
  }
  if (query.isError && (errorCode(query.error) === 'NOT_FOUND' || errorCode(query.error) === 'FORBIDDEN')) {
    return (
      <CertificateNotFound
        backTo="/certificates"
        backLabel="Back to Certificates"
        description="The certificate you're looking for could not be found or you don't have access to it."
      />
    );
  }
  if (query.isError || !c) {
    return (
      <div className="mx-auto max-w-md py-16 text-center">
        <h1 className="text-2xl font-bold">Error</h1>
        <p className="mb-6 mt-2 text-muted-foreground">Failed to load certificate details.</p>
        <div className="flex justify-center gap-2">
          <Button variant="outline" onClick={() => navigate('/certificates')}>
            <ArrowLeft className="size-4" aria-hidden="true" /> Back to Certificates
          </Button>
          <Button onClick={() => void query.refetch()}>
            <RefreshCw className="size-4" aria-hidden="true" /> Retry
          </Button>
        </div>
      </div>
    );
  }

  const link = publicLink(c.user_id, c.id);

  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <Button asChild variant="ghost" size="sm" className="-ml-2">
        <Link to="/certificates">
          <ArrowLeft className="size-4" aria-hidden="true" /> Back to Certificates
        </Link>
      </Button>

      <CertificateHeader certificate={c} link={link} />

      <div className="grid gap-6 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          <CertificatePreview certificate={c} />
          <CertificateFacts view="holder" certificate={c} rpcUrl={rpcUrl} />
        </div>

        <div className="space-y-6">
          <VerificationStatusPanel
            certificate={c}
            attempts={live.attempts}
            events={live.events}
            rpcUrl={rpcUrl}
            attemptsLoaded={live.attemptsLoaded}
            running={live.running}
            onRunStarted={live.runStarted}
          />
          <ConfirmationRequestPanel certificate={c} />
          <MintPanel certificate={c} rpcUrl={rpcUrl} />
          <PermanentStoragePanel arweaveUrl={c.arweave_url} />
          <ShareCard certificate={c} link={link} />
        </div>
      </div>
    </div>
  );
}
