// The holders' open confirmation requests: open the file, then confirm (the wallet signs) or decline
// with a reason the holder reads. Polled every 10 s.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { CheckCircle2, ExternalLink, Loader2, XCircle } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Label } from '../../../components/ui/label';
import { Textarea } from '../../../components/ui/textarea';
import { formatDate, formatDateTime } from '../../../lib/dates';
import { toast } from '../../../lib/toast';
import { trpc, trpcClient } from '../../../lib/trpc';
import { StatusBadge } from '../../certificates/components/status';
import { useWalletSession } from '../../wallet/WalletSession';
import { errorMessage, signPrepared, useRefreshInstitution } from '../api';
import { FieldError } from './FieldError';
import type { IssuerView } from './IssuerProof';

/**
 * The institution the certificate names (the holder's claim when asking), flagged when the server finds
 * it is not this institution or the details changed since: the server refuses to confirm either.
 */
function ClaimedInstitution({ request: r }: { request: { claimed_institution: string; names_your_institution: boolean; details_changed: boolean } }) {
  const other = !r.names_your_institution;
  return (
    <p data-testid="request-institution" data-other={other || undefined} data-names-yours={r.names_your_institution} data-details-changed={r.details_changed}>
      <span className="text-muted-foreground">Claimed institution: </span>
      <span className="font-medium">{r.claimed_institution || 'none'}</span>
      {other && <span className="font-medium text-destructive"> (not your institution: decline it)</span>}
      {r.details_changed && <span className="font-medium text-destructive"> (the holder changed the details since asking: decline it)</span>}
    </p>
  );
}

export function RequestsCard({ me }: { me: IssuerView }) {
  const wallet = useWalletSession();
  const refresh = useRefreshInstitution();
  const requests = useQuery({ ...trpc.issuer.requests.queryOptions({ status: 'open' }), refetchInterval: 10_000 });
  const [busy, setBusy] = useState<string | null>(null);
  const [declining, setDeclining] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const canAct = me.status === 'approved';

  async function confirm(id: string) {
    setBusy(id);
    try {
      const prepared = await trpcClient.issuer.confirm.mutate({ requestId: id });
      await signPrepared(wallet, prepared, (signedTransaction) => trpcClient.issuer.submit.mutate({ signedTransaction }));
      toast.success('Certificate Confirmed', { description: 'The holder sees it confirmed by your institution.' });
    } catch (e) {
      toast.error('Confirmation Failed', { description: errorMessage(e) });
    } finally {
      setBusy(null);
      await refresh();
    }
  }

  async function decline(id: string) {
    if (!reason.trim()) return setReasonError('Say why you decline (the holder reads it)');
    if (reason.trim().length > 500) return setReasonError('The reason is at most 500 characters');
    setBusy(id);
    try {
      await trpcClient.issuer.decline.mutate({ requestId: id, reason: reason.trim() });
      toast.success('Request Declined', { description: 'The holder sees your reason.' });
      setDeclining(null);
      setReason('');
    } catch (e) {
      toast.error('Decline Failed', { description: errorMessage(e) });
    } finally {
      setBusy(null);
      await refresh();
    }
  }

  const list = requests.data ?? [];
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>Confirmation requests</h2>
        </CardTitle>
        <CardDescription>Holders asking you to confirm certificates that name your institution. Open the file, then confirm or decline.</CardDescription>
      </CardHeader>
      <CardContent>
        {requests.isPending ? (
          <p className="text-sm text-muted-foreground">Loading requests...</p>
        ) : list.length === 0 ? (
          <p className="text-sm text-muted-foreground">No open requests.</p>
        ) : (
          <ul className="divide-y" aria-label="Open confirmation requests">
            {list.map((r) => (
              <li key={r.id} className="space-y-2 py-3" data-testid="request-row">
                <div className="flex flex-wrap items-start justify-between gap-2">
                  <div className="min-w-0 text-sm">
                    <p className="font-medium">{r.claims.title ?? 'Certificate'}</p>
                    {/* What the holder claimed when asking (the server refuses a confirmation of anything else). */}
                    <ClaimedInstitution request={r} />
                    <p className="text-muted-foreground">
                      {r.claims.program_name} · issued {formatDate(r.claims.issue_date)} · {r.holder_name || 'Unnamed holder'} <span className="font-mono text-xs">({r.holder_wallet.slice(0, 6)}...{r.holder_wallet.slice(-4)})</span>
                    </p>
                    <p className="text-muted-foreground">
                      Asked {formatDateTime(r.created_at)} · platform check: <StatusBadge status={r.platform_status} />
                    </p>
                  </div>
                  <div className="flex flex-wrap gap-2">
                    {r.file_url && (
                      <Button asChild variant="outline" size="sm">
                        <a href={r.file_url} target="_blank" rel="noreferrer">
                          <ExternalLink className="size-4" aria-hidden="true" /> Open file<span className="sr-only"> (opens in a new tab)</span>
                        </a>
                      </Button>
                    )}
                    <Button size="sm" disabled={!canAct || busy === r.id} onClick={() => void confirm(r.id)}>
                      {busy === r.id ? <Loader2 className="size-4 animate-spin" aria-hidden="true" /> : <CheckCircle2 className="size-4" aria-hidden="true" />} Confirm
                    </Button>
                    <Button
                      size="sm"
                      variant="outline"
                      disabled={!canAct || busy === r.id}
                      onClick={() => {
                        setDeclining(declining === r.id ? null : r.id);
                        setReason('');
                        setReasonError(null);
                      }}
                    >
                      <XCircle className="size-4" aria-hidden="true" /> Decline
                    </Button>
                  </div>
                </div>
                {declining === r.id && (
                  <div className="space-y-2">
                    <Label htmlFor={`decline-${r.id}`}>Reason (the holder reads it)</Label>
                    <Textarea
                      id={`decline-${r.id}`}
                      value={reason}
                      maxLength={500}
                      aria-invalid={!!reasonError || undefined}
                      aria-describedby={reasonError ? `decline-${r.id}-error` : undefined}
                      onChange={(e) => {
                        setReason(e.target.value);
                        setReasonError(null);
                      }}
                    />
                    <FieldError id={`decline-${r.id}-error`} message={reasonError ?? undefined} />
                    <Button size="sm" variant="destructive" disabled={busy === r.id} onClick={() => void decline(r.id)}>
                      Decline request
                    </Button>
                  </div>
                )}
              </li>
            ))}
          </ul>
        )}
        {!canAct && list.length > 0 && <p className="mt-2 text-sm text-muted-foreground">Answering requests needs an approved institution.</p>}
      </CardContent>
    </Card>
  );
}
