// The institutions by status, pending first: each row leads with its name and its domain (whether it
// is proven) — several may share a name — then its key. Approve (open only with a proven domain; the
// server refuses otherwise too) and Suspend (confirmed first, SuspendDialog).
import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Ban, CheckCircle2, Globe, Loader2 } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { NATIVE_SELECT_CLASS } from '../../../components/ui/native-select';
import { formatDate } from '../../../lib/dates';
import { toast } from '../../../lib/toast';
import { trpc, trpcClient } from '../../../lib/trpc';
import { DomainProof, IssuerStatusBadge, ProofState } from '../../institutions/components/IssuerProof';
import { errorMessage } from '../lib';
import { SuspendDialog, type SuspendTarget } from './SuspendDialog';

type OperatorIssuer = Awaited<ReturnType<typeof trpcClient.operator.issuers.query>>[number];

/** Why Approve is closed for an institution whose domain is not proven (the server says the same if asked). */
function approveBlocked(i: OperatorIssuer): string | null {
  if (i.status === 'approved' || i.proof.status === 'proven') return null;
  return i.proof.status === 'lapsed'
    ? 'Approval needs a proven domain: its proof lapsed at the last check.'
    : 'Approval needs a proven domain: it has not proven its domain yet.';
}

/** What an approved institution whose domain is not proven may do now, as the server decides it (may_act). */
function approvedUnproven(i: OperatorIssuer): string {
  return i.demo
    ? 'Approved without a proven domain: the demo institution of this local installation (demo data on the embedded chain), so it may issue and confirm here; verifiers are told its domain is not proven.'
    : 'Approved without a proven domain at present: verifiers are told its domain is not proven, and it cannot issue or confirm until its domain is proven.';
}

export function IssuersCard() {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<'all' | 'pending' | 'approved' | 'suspended'>('all');
  const issuers = useQuery({ ...trpc.operator.issuers.queryOptions({ status }), placeholderData: (prev) => prev });
  const [busy, setBusy] = useState<string | null>(null);
  const [suspending, setSuspending] = useState<SuspendTarget | null>(null);

  async function approve(i: OperatorIssuer) {
    setBusy(i.authority);
    try {
      await trpcClient.operator.setStatus.mutate({ authority: i.authority, status: 'approved' });
      toast.success('Institution Approved', { description: `${i.name} (${i.domain}) may issue certificates and confirm holders’ requests.` });
    } catch (e) {
      toast.error('Approval Failed', { description: errorMessage(e) });
    } finally {
      setBusy(null);
      await queryClient.invalidateQueries(trpc.operator.pathFilter());
    }
  }

  const list = issuers.data ?? [];
  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-2">
        <div className="min-w-0 space-y-1.5">
          <CardTitle>
            <h2>Institutions</h2>
          </CardTitle>
          <CardDescription>Pending first. Approval needs a proven domain.</CardDescription>
        </div>
        <select aria-label="Institution status filter" className={NATIVE_SELECT_CLASS} value={status} onChange={(e) => setStatus(e.target.value as typeof status)}>
          <option value="all">All statuses</option>
          <option value="pending">Pending</option>
          <option value="approved">Approved</option>
          <option value="suspended">Suspended</option>
        </select>
      </CardHeader>
      <CardContent>
        {issuers.isPending ? (
          <p className="text-sm text-muted-foreground">Loading institutions...</p>
        ) : list.length === 0 ? (
          <p className="text-sm text-muted-foreground">No institution{status === 'all' ? ' has registered yet' : ` is ${status}`}.</p>
        ) : (
          <ul className="divide-y" aria-label="Institutions">
            {list.map((i) => {
              const blocked = approveBlocked(i);
              const who = `${i.name} (${i.domain})`;
              return (
                <li key={i.authority} className="space-y-3 py-4" data-testid="issuer-row" data-authority={i.authority}>
                  <div className="flex flex-wrap items-start justify-between gap-x-6 gap-y-3">
                    <div className="min-w-0 flex-1 basis-64 space-y-1">
                      <h3 className="flex flex-wrap items-center gap-2 font-medium">
                        {i.name} <IssuerStatusBadge status={i.status} />
                      </h3>
                      <p className="flex flex-wrap items-center gap-x-2 gap-y-1" data-testid="issuer-domain">
                        <Globe className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
                        <span className="text-base font-semibold">{i.domain}</span>
                        <span className="text-sm">
                          <span className="sr-only">domain </span>
                          <ProofState status={i.proof.status} />
                        </span>
                      </p>
                      <p className="break-all font-mono text-xs text-muted-foreground">
                        <span className="sr-only">Key </span>
                        {i.authority}
                      </p>
                      <p className="text-xs text-muted-foreground">Registered {formatDate(i.registered_at)}</p>
                    </div>
                    <div className="flex max-w-full flex-col items-start gap-1.5 sm:ml-auto sm:max-w-72 sm:items-end">
                      <div className="flex flex-wrap gap-2">
                        {i.status !== 'approved' && (
                          <Button size="sm" disabled={busy === i.authority || !!blocked} aria-describedby={blocked ? `approve-blocked-${i.authority}` : undefined} onClick={() => void approve(i)}>
                            {busy === i.authority ? <Loader2 className="size-4 animate-spin" aria-hidden="true" /> : <CheckCircle2 className="size-4" aria-hidden="true" />} Approve<span className="sr-only"> {who}</span>
                          </Button>
                        )}
                        {i.status !== 'suspended' && (
                          <Button size="sm" variant="outline" disabled={busy === i.authority} onClick={() => setSuspending({ authority: i.authority, name: i.name, domain: i.domain })}>
                            <Ban className="size-4" aria-hidden="true" /> Suspend<span className="sr-only"> {who}</span>
                          </Button>
                        )}
                      </div>
                      {blocked && (
                        <p id={`approve-blocked-${i.authority}`} className="text-xs text-muted-foreground sm:text-right" data-testid="approve-blocked">
                          {blocked}
                        </p>
                      )}
                    </div>
                  </div>
                  {i.status === 'approved' && i.proof.status !== 'proven' && (
                    <p className="text-xs font-medium text-amber-800 dark:text-amber-300" data-testid="approved-unproven" data-may-act={i.may_act}>
                      {approvedUnproven(i)}
                    </p>
                  )}
                  <DomainProof proof={i.proof} showDomain={false} />
                </li>
              );
            })}
          </ul>
        )}
      </CardContent>
      <SuspendDialog issuer={suspending} onClose={() => setSuspending(null)} />
    </Card>
  );
}
