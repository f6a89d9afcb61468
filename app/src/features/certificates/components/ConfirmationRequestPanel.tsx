// The holder asks an approved institution to confirm a certificate it has not confirmed
// (notes/institutions-design.md): pick the institution, consent to share the file, the wallet signs
// request_confirmation. The request's state (open, declined with the reason, confirmed) follows live:
// the page's status subscription refreshes certificate.issuersFor (hooks/useCertificateLiveStatus).
import { useId, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { BadgeCheck, Clock, Loader2, Send, ShieldAlert, XCircle } from 'lucide-react';
import type { CertificateDto } from '../../../../../shared/schemas/dto';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { toast } from '../../../lib/toast';
import { trpc, trpcClient } from '../../../lib/trpc';
import { errorMessage, signPrepared } from '../../institutions/api';
import { useWalletSession } from '../../wallet/WalletSession';
import { formatDate } from '../../../lib/dates';
import { issuerConfirmed, signerOf, signerSentence } from '../lib/holder-verdict';

export function ConfirmationRequestPanel({ certificate: c }: { certificate: CertificateDto }) {
  const wallet = useWalletSession();
  const queryClient = useQueryClient();
  const id = useId();
  const final = c.verification_status === 'revoked' || c.verification_status === 'superseded';
  const confirmed = c.tier === 'issuer_confirmed';
  // Who signed, named with its domain; "Confirmed by" only while that domain is proven (lib/holder-verdict.ts).
  const signer = signerOf(c);
  const fully = issuerConfirmed(c);
  const data = useQuery({ ...trpc.certificate.issuersFor.queryOptions({ id: c.id }), enabled: !final });
  const [issuer, setIssuer] = useState('');
  const [consent, setConsent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  if (final) return null;
  // Only the institution the certificate names can be asked (the server offers no other).
  const issuers = data.data?.issuers ?? [];
  const requests = data.data?.requests ?? [];
  const claimed = data.data?.claimed_institution ?? c.institution_name;
  const nameOf = (authority: string) =>
    requests.find((r) => r.issuer_authority === authority)?.issuer_name ?? issuers.find((i) => i.authority === authority)?.name ?? `${authority.slice(0, 6)}...${authority.slice(-4)}`;
  const latest = requests[0];
  const open = latest?.status === 'open';
  const chosen = issuer || issuers[0]?.authority || '';

  async function onRequest() {
    setError(null);
    if (!chosen) return setError('Choose the institution to ask.');
    if (!consent) return setError('Consent to share the file with the institution to send the request.');
    setBusy(true);
    try {
      const prepared = await trpcClient.certificate.requestConfirmation.mutate({ id: c.id, issuer: chosen, consent: true });
      await signPrepared(wallet, prepared, (signedTransaction) => trpcClient.certificate.submitConfirmationRequest.mutate({ signedTransaction }));
      toast.success('Confirmation Requested', { description: `${nameOf(chosen)} can now see the file and confirm it.` });
      setConsent(false);
    } catch (e) {
      setError(errorMessage(e));
      toast.error('Request Failed', { description: errorMessage(e) });
    } finally {
      setBusy(false);
      await Promise.all([queryClient.invalidateQueries(trpc.certificate.issuersFor.pathFilter()), queryClient.invalidateQueries(trpc.certificate.byId.pathFilter())]);
    }
  }

  return (
    <Card data-testid="confirmation-panel">
      <CardHeader>
        <CardTitle>
          <h2>Institution Confirmation</h2>
        </CardTitle>
        <CardDescription>
          {confirmed && signer ? 'The institution whose own key signed this record, and whether its domain is proven:' : 'Ask the institution to confirm this certificate with its own key.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {confirmed && signer ? (
          <p
            className={`flex items-start gap-2 text-sm font-medium ${fully ? 'text-green-700 dark:text-green-400' : 'text-amber-800 dark:text-amber-300'}`}
            data-testid="request-state"
            data-confirmed={fully}
          >
            {fully ? <BadgeCheck className="mt-0.5 size-4 shrink-0" aria-hidden="true" /> : <ShieldAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />}
            <span>{signerSentence(signer)}</span>
          </p>
        ) : latest && latest.status === 'open' ? (
          <p className="flex items-center gap-2 text-sm" data-testid="request-state">
            <Clock className="size-4 text-amber-600" aria-hidden="true" /> Request open: waiting for {nameOf(latest.issuer_authority)} (asked {formatDate(latest.created_at)}).
          </p>
        ) : latest && latest.status === 'declined' ? (
          <div className="rounded-md border border-destructive/30 bg-destructive/5 p-3 text-sm" data-testid="request-state">
            <p className="flex items-center gap-2 font-medium">
              <XCircle className="size-4 text-destructive" aria-hidden="true" /> Declined by {nameOf(latest.issuer_authority)}
            </p>
            {latest.decline_reason && <p className="mt-1 text-muted-foreground">Reason: {latest.decline_reason}</p>}
          </div>
        ) : latest && latest.status === 'withdrawn' ? (
          <div className="rounded-md border p-3 text-sm" data-testid="request-state" data-status="withdrawn">
            <p className="font-medium">Request to {nameOf(latest.issuer_authority)} withdrawn</p>
            {latest.withdrawn_reason && <p className="mt-1 text-muted-foreground">{latest.withdrawn_reason}</p>}
          </div>
        ) : null}

        {!confirmed && !open && (
          data.isPending ? (
            <p className="text-sm text-muted-foreground">Loading institutions...</p>
          ) : issuers.length === 0 ? (
            <p className="text-sm text-muted-foreground" data-testid="no-named-institution">
              Only the institution a certificate names can confirm it, and “{claimed}” is not an approved institution on Attesta. If you mistyped it, correct the details; otherwise ask {claimed} once it is on Attesta.
            </p>
          ) : (
            <div className="space-y-3">
              <div className="space-y-1.5">
                <label htmlFor={`${id}-issuer`} className="text-sm font-medium">
                  Institution
                </label>
                <select
                  id={`${id}-issuer`}
                  value={chosen}
                  onChange={(e) => (setIssuer(e.target.value), setError(null))}
                  disabled={busy}
                  className="h-9 w-full rounded-md border border-input bg-transparent px-3 text-sm shadow-xs"
                >
                  {issuers.map((i) => (
                    <option key={i.authority} value={i.authority}>
                      {i.name} ({i.domain}
                      {i.domain_proven ? ', domain proven' : ', domain not proven'})
                    </option>
                  ))}
                </select>
              </div>
              <label className="flex items-start gap-2 text-sm">
                <input type="checkbox" className="mt-0.5 size-4" checked={consent} onChange={(e) => (setConsent(e.target.checked), setError(null))} disabled={busy} />
                <span>I consent to share this certificate’s file with the institution so that it can check it.</span>
              </label>
              {error && (
                <p role="alert" className="text-sm font-medium text-destructive">
                  {error}
                </p>
              )}
              <Button className="w-full" onClick={() => void onRequest()} disabled={busy}>
                {busy ? <Loader2 className="size-4 animate-spin" aria-hidden="true" /> : <Send className="size-4" aria-hidden="true" />}
                {busy ? 'Requesting...' : 'Request confirmation'}
              </Button>
            </div>
          )
        )}
      </CardContent>
    </Card>
  );
}
