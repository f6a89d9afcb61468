// A registered institution's status and its domain proof (what to publish, "Check now").
import { useState } from 'react';
import { Loader2, RefreshCw } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { formatDate } from '../../../lib/dates';
import { toast } from '../../../lib/toast';
import { trpcClient } from '../../../lib/trpc';
import { errorMessage, useRefreshInstitution } from '../api';
import { DomainProof, IssuerStatusBadge, statusText, type IssuerView } from './IssuerProof';

export function StatusCard({ me }: { me: IssuerView }) {
  const refresh = useRefreshInstitution();
  const [checking, setChecking] = useState(false);
  async function check() {
    setChecking(true);
    try {
      const after = await trpcClient.issuer.checkDomain.mutate();
      if (after.proof.status === 'proven') toast.success('Domain Proven', { description: `${after.proof.domain} names this institution.` });
      else toast.error('Domain Not Proven', { description: 'See what the check found below.' });
      await refresh();
    } catch (e) {
      toast.error('Check Failed', { description: errorMessage(e) });
    } finally {
      setChecking(false);
    }
  }
  return (
    // Side by side only where the proof card is wide enough for what to publish (a record's value on one line).
    <div className="grid items-start gap-6 xl:grid-cols-2">
      <Card>
        <CardHeader>
          <CardTitle>
            <h2>Status</h2>
          </CardTitle>
          <CardDescription>Registered {formatDate(me.registered_at)}</CardDescription>
        </CardHeader>
        <CardContent className="space-y-2 text-sm">
          <p className="flex items-center gap-2">
            <IssuerStatusBadge status={me.status} />
          </p>
          <p className="text-muted-foreground" data-testid="issuer-status-text">
            {statusText(me)}
          </p>
          <p className="break-all font-mono text-xs text-muted-foreground">Authority: {me.authority}</p>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>
            <h2>Domain proof</h2>
          </CardTitle>
          <CardDescription>Verifiers see your domain beside your name once it is proven. It is checked again every day.</CardDescription>
        </CardHeader>
        <CardContent className="space-y-3">
          <DomainProof proof={me.proof} authority={me.authority} />
          <Button variant="outline" onClick={() => void check()} disabled={checking}>
            {checking ? <Loader2 className="size-4 animate-spin" aria-hidden="true" /> : <RefreshCw className="size-4" aria-hidden="true" />}
            {checking ? 'Checking...' : 'Check now'}
          </Button>
        </CardContent>
      </Card>
    </div>
  );
}
