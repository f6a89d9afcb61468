// /operator: the operator console (notes/institutions-design.md), for wallets listed in
// ATTESTA_OPERATOR_WALLETS only (the server refuses anyone else: FORBIDDEN). Institutions by status with
// their domain proof, approve / suspend (set_issuer_status, signed by the server's operator key), revoke
// any certificate for fraud (note required), and the append-only audit log, newest first, paged.
import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Ban, CheckCircle2, ChevronLeft, ChevronRight, Loader2, ShieldAlert } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { Textarea } from '../../components/ui/textarea';
import { formatDate, formatDateTime } from '../../lib/dates';
import { toast } from '../../lib/toast';
import { trpc, trpcClient } from '../../lib/trpc';
import { useAuth } from '../auth/AuthProvider';
import { PageHeader } from '../certificates/components/PageHeader';
import { DomainProof, IssuerStatusBadge } from '../institutions/components/IssuerProof';
import { NATIVE_SELECT_CLASS } from '../../components/ui/native-select';

const AUDIT_PAGE = 20;

function errorMessage(e: unknown) {
  return e instanceof Error ? e.message : String(e);
}

function IssuersCard() {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<'all' | 'pending' | 'approved' | 'suspended'>('all');
  const issuers = useQuery({ ...trpc.operator.issuers.queryOptions({ status }), placeholderData: (prev) => prev });
  const [busy, setBusy] = useState<string | null>(null);

  async function set(authority: string, name: string, next: 'approved' | 'suspended') {
    setBusy(authority);
    try {
      await trpcClient.operator.setStatus.mutate({ authority, status: next });
      toast.success(next === 'approved' ? 'Institution Approved' : 'Institution Suspended', { description: `${name} is now ${next}.` });
    } catch (e) {
      toast.error('Status Change Failed', { description: errorMessage(e) });
    } finally {
      setBusy(null);
      await queryClient.invalidateQueries(trpc.operator.pathFilter());
    }
  }

  const list = issuers.data ?? [];
  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-2">
        <div className="space-y-1.5">
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
            {list.map((i) => (
              <li key={i.authority} className="space-y-2 py-4" data-testid="issuer-row">
                <div className="flex flex-wrap items-start justify-between gap-2">
                  <div className="min-w-0">
                    <p className="flex items-center gap-2 font-medium">
                      {i.name} <IssuerStatusBadge status={i.status} />
                    </p>
                    <p className="break-all font-mono text-xs text-muted-foreground">{i.authority}</p>
                    <p className="text-xs text-muted-foreground">Registered {formatDate(i.registered_at)}</p>
                  </div>
                  <div className="flex gap-2">
                    {i.status !== 'approved' && (
                      <Button size="sm" disabled={busy === i.authority} onClick={() => void set(i.authority, i.name, 'approved')}>
                        {busy === i.authority ? <Loader2 className="size-4 animate-spin" aria-hidden="true" /> : <CheckCircle2 className="size-4" aria-hidden="true" />} Approve<span className="sr-only"> {i.name}</span>
                      </Button>
                    )}
                    {i.status !== 'suspended' && (
                      <Button size="sm" variant="outline" disabled={busy === i.authority} onClick={() => void set(i.authority, i.name, 'suspended')}>
                        <Ban className="size-4" aria-hidden="true" /> Suspend<span className="sr-only"> {i.name}</span>
                      </Button>
                    )}
                  </div>
                </div>
                {i.status === 'approved' && i.proof.status !== 'proven' && (
                  <p className="text-xs font-medium text-amber-800 dark:text-amber-300" data-testid="approved-unproven">
                    Approved without a proven domain at present: verifiers are told its domain is not proven, and it cannot issue or confirm.
                  </p>
                )}
                <DomainProof proof={i.proof} />
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function FraudRevokeCard() {
  const queryClient = useQueryClient();
  const [id, setId] = useState('');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<{ id?: string; note?: string }>({});
  const [busy, setBusy] = useState(false);

  async function revoke(e: React.FormEvent) {
    e.preventDefault();
    const next: typeof errors = {};
    if (!id.trim()) next.id = 'A certificate ID is required';
    if (!note.trim()) next.note = 'A note is required: say what the fraud is';
    else if (note.trim().length > 1000) next.note = 'The note is at most 1000 characters';
    setErrors(next);
    if (next.id || next.note) return;
    setBusy(true);
    try {
      await trpcClient.operator.revoke.mutate({ id: id.trim(), note: note.trim() });
      toast.success('Certificate Revoked', { description: 'Revoked for fraud; every verify surface shows it.' });
      setId('');
      setNote('');
    } catch (err) {
      toast.error('Revocation Failed', { description: errorMessage(err) });
      setErrors({ id: errorMessage(err) });
    } finally {
      setBusy(false);
      await queryClient.invalidateQueries(trpc.operator.audit.pathFilter());
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>Revoke for fraud</h2>
        </CardTitle>
        <CardDescription>Any certificate, signed by the platform’s registry key. The record stays, marked revoked for fraud, with your note.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={(e) => void revoke(e)} noValidate className="space-y-3">
          <div className="space-y-2">
            <Label htmlFor="fraud-id">Certificate ID</Label>
            <Input id="fraud-id" value={id} onChange={(e) => (setId(e.target.value), setErrors((x) => ({ ...x, id: undefined })))} aria-invalid={!!errors.id || undefined} aria-describedby={errors.id ? 'fraud-id-error' : 'fraud-id-hint'} disabled={busy} />
            <p id="fraud-id-hint" className="text-sm text-muted-foreground">
              The last part of its public link (/view/…/<em>ID</em>).
            </p>
            {errors.id && (
              <p id="fraud-id-error" className="text-sm font-medium text-destructive">
                {errors.id}
              </p>
            )}
          </div>
          <div className="space-y-2">
            <Label htmlFor="fraud-note">Note (required)</Label>
            <Textarea id="fraud-note" value={note} maxLength={1000} onChange={(e) => (setNote(e.target.value), setErrors((x) => ({ ...x, note: undefined })))} aria-invalid={!!errors.note || undefined} aria-describedby={errors.note ? 'fraud-note-error' : undefined} disabled={busy} />
            {errors.note && (
              <p id="fraud-note-error" className="text-sm font-medium text-destructive">
                {errors.note}
              </p>
            )}
          </div>
          <Button type="submit" variant="destructive" disabled={busy}>
            {busy ? <Loader2 className="size-4 animate-spin" aria-hidden="true" /> : <ShieldAlert className="size-4" aria-hidden="true" />} Revoke for fraud
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

function AuditCard() {
  // Cursors of the pages seen so far: [undefined (newest), next of page 1, …].
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const page = cursors.length - 1;
  const audit = useQuery({ ...trpc.operator.audit.queryOptions({ limit: AUDIT_PAGE, before: cursors[page] }), placeholderData: (prev) => prev });
  const entries = audit.data?.entries ?? [];
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>Audit log</h2>
        </CardTitle>
        <CardDescription>Every operator and institution action, newest first. Nothing in it is ever changed or deleted.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        {audit.isPending ? (
          <p className="text-sm text-muted-foreground">Loading the audit log...</p>
        ) : entries.length === 0 ? (
          <p className="text-sm text-muted-foreground">No actions yet.</p>
        ) : (
          // Scrolls sideways on a narrow screen (focusable, so a keyboard can scroll it too).
          <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="Audit log entries">
            <table className="w-full min-w-[640px] text-left text-sm [overflow-wrap:normal]">
              <caption className="sr-only">Audit log, page {page + 1}</caption>
              <thead className="text-xs text-muted-foreground">
                <tr>
                  <th scope="col" className="py-2 pr-3 font-medium">When</th>
                  <th scope="col" className="py-2 pr-3 font-medium">Who</th>
                  <th scope="col" className="py-2 pr-3 font-medium">Action</th>
                  <th scope="col" className="py-2 pr-3 font-medium">Target</th>
                  <th scope="col" className="py-2 font-medium">Transaction</th>
                </tr>
              </thead>
              <tbody className="divide-y">
                {entries.map((e) => (
                  <tr key={e.id} data-testid="audit-row">
                    <td className="whitespace-nowrap py-2 pr-3">{formatDateTime(e.at)}</td>
                    <td className="py-2 pr-3">
                      <span className="font-mono text-xs">{e.actor_wallet.slice(0, 6)}...{e.actor_wallet.slice(-4)}</span> <span className="text-muted-foreground">({e.actor_role})</span>
                    </td>
                    <td className="py-2 pr-3 font-medium">{e.action}</td>
                    <td className="max-w-48 truncate py-2 pr-3 font-mono text-xs" title={e.target ?? undefined}>
                      {e.target ?? '—'}
                    </td>
                    <td className="max-w-32 truncate py-2 font-mono text-xs" title={e.signature ?? undefined}>
                      {e.signature ? `${e.signature.slice(0, 10)}...` : '—'}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <div className="flex items-center justify-between">
          <Button variant="outline" size="sm" disabled={page === 0} onClick={() => setCursors((c) => c.slice(0, -1))}>
            <ChevronLeft className="size-4" aria-hidden="true" /> Newer
          </Button>
          <span className="text-sm text-muted-foreground">Page {page + 1}</span>
          <Button variant="outline" size="sm" disabled={!audit.data?.next || audit.isPlaceholderData} onClick={() => setCursors((c) => [...c, audit.data!.next!])}>
            Older <ChevronRight className="size-4" aria-hidden="true" />
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}

export default function OperatorPage() {
  const { roles } = useAuth();
  if (!roles.operator) {
    return (
      <div className="mx-auto max-w-md py-16 text-center">
        <h1 className="text-2xl font-bold">Operators only</h1>
        <p className="mt-2 text-muted-foreground">This wallet is not an operator of this installation.</p>
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-6xl min-w-0 space-y-6 [overflow-wrap:anywhere]">
      <PageHeader title="Operator console" description="Approve institutions, revoke fraud and read the audit log." />
      <IssuersCard />
      <div className="max-w-2xl">
        <FraudRevokeCard />
      </div>
      <AuditCard />
    </div>
  );
}
