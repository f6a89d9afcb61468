// /institution: the institution portal (notes/institutions-design.md). A wallet that is no institution
// yet registers one (name, domain → its wallet signs register_issuer). A registered one sees its status,
// proves its domain (what to publish, "Check now"), issues certificates to holders, answers the holders'
// confirmation requests and lists (and revokes) the certificates it issued or confirmed. Every step its
// wallet signs is prepare → sign the prepared bytes → issuer.submit (api.ts).
import { useEffect, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Building2, CheckCircle2, ExternalLink, FileText, Loader2, RefreshCw, Search, Send, XCircle } from 'lucide-react';
import { CERTIFICATE_FILE_EXTENSIONS, CERTIFICATE_MAX_BYTES } from '../../../../shared/constants';
import type { CertificateDto } from '../../../../shared/schemas/dto';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../components/ui/dialog';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { Textarea } from '../../components/ui/textarea';
import { formatDate, formatDateTime } from '../../lib/dates';
import { lazyResolver } from '../../lib/lazy-resolver';
import { toast } from '../../lib/toast';
import { trpc, trpcClient } from '../../lib/trpc';
import { FileDropZone } from '../certificates/components/FileDropZone';
import { PageHeader } from '../certificates/components/PageHeader';
import { StatusBadge } from '../certificates/components/status';
import { formatKb, publicLink, todayIso } from '../certificates/lib/format';
import { postTrpcForm } from '../certificates/lib/upload';
import { useWalletSession } from '../wallet/WalletSession';
import { errorMessage, signPrepared, type Prepared } from './api';
import type { IssueFormValues, RegisterFormValues } from './lib/forms';
import { DomainProof, IssuerStatusBadge, STATUS_TEXT, type IssuerView } from './components/IssuerProof';

const registerValidation = lazyResolver<RegisterFormValues>(() => import('./lib/forms').then((m) => m.registerResolver));
const issueValidation = lazyResolver<IssueFormValues>(() => import('./lib/forms').then((m) => m.issueResolver));

const ACCEPT = '.pdf,.jpg,.jpeg,.png,.webp,application/pdf,image/jpeg,image/png,image/webp';
const SELECT = 'h-9 rounded-md border border-input bg-transparent px-3 text-sm shadow-xs';

type Me = IssuerView;

function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={id} className="text-sm font-medium text-destructive">
      {message}
    </p>
  );
}

function useRefreshInstitution() {
  const queryClient = useQueryClient();
  return () => Promise.all([queryClient.invalidateQueries(trpc.issuer.pathFilter()), queryClient.invalidateQueries(trpc.auth.me.pathFilter())]);
}

function RegisterCard() {
  const wallet = useWalletSession();
  const refresh = useRefreshInstitution();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const { register, handleSubmit, formState, clearErrors } = useForm<RegisterFormValues>({ resolver: registerValidation.resolver, reValidateMode: 'onSubmit', defaultValues: { name: '', domain: '' } });
  const errors = formState.errors;
  useEffect(registerValidation.preload, []);

  async function onSubmit(values: RegisterFormValues) {
    setBusy(true);
    setFailure(null);
    try {
      const prepared = await trpcClient.issuer.register.mutate({ name: values.name.trim(), domain: values.domain.trim() });
      await signPrepared(wallet, prepared, (signedTransaction) => trpcClient.issuer.submit.mutate({ signedTransaction }));
      toast.success('Institution Registered', { description: 'Prove your domain next; the operator approves it then.' });
      await refresh();
    } catch (e) {
      setFailure(errorMessage(e));
      toast.error('Registration Failed', { description: errorMessage(e) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card className="max-w-2xl">
      <CardHeader>
        <CardTitle>
          <h2>Register your institution</h2>
        </CardTitle>
        <CardDescription>Your wallet becomes the institution’s key: it signs the registration, the certificates it issues and its confirmations. Attesta pays the network fees.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={handleSubmit(onSubmit)} noValidate className="space-y-4">
          <div className="space-y-2">
            <Label htmlFor="inst-name">Institution name</Label>
            <Input id="inst-name" placeholder="e.g. Northfield University" disabled={busy} aria-invalid={!!errors.name || undefined} aria-describedby={errors.name ? 'inst-name-error' : undefined} {...register('name', { onChange: () => clearErrors('name') })} />
            <FieldError id="inst-name-error" message={errors.name?.message} />
          </div>
          <div className="space-y-2">
            <Label htmlFor="inst-domain">Domain</Label>
            <Input id="inst-domain" placeholder="e.g. northfield.edu" disabled={busy} aria-invalid={!!errors.domain || undefined} aria-describedby={errors.domain ? 'inst-domain-error' : 'inst-domain-hint'} {...register('domain', { onChange: () => clearErrors('domain') })} />
            <p id="inst-domain-hint" className="text-sm text-muted-foreground">
              The web domain you control: you prove it with a DNS record or a file on its website.
            </p>
            <FieldError id="inst-domain-error" message={errors.domain?.message} />
          </div>
          {failure && (
            <p role="alert" className="text-sm font-medium text-destructive">
              {failure}
            </p>
          )}
          <Button type="submit" disabled={busy}>
            {busy ? <Loader2 className="size-4 animate-spin" aria-hidden="true" /> : <Building2 className="size-4" aria-hidden="true" />}
            {busy ? 'Registering...' : 'Register institution'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

function StatusCard({ me }: { me: Me }) {
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
  const s = STATUS_TEXT[me.status] ?? STATUS_TEXT.pending;
  return (
    <div className="grid gap-6 lg:grid-cols-2">
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
          <p className="text-muted-foreground">{s.text}</p>
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

function extensionOf(name: string) {
  return name.split('.').pop()?.toLowerCase() ?? '';
}

function IssueCard({ me }: { me: Me }) {
  const wallet = useWalletSession();
  const refresh = useRefreshInstitution();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<IssueFormValues>({
    resolver: issueValidation.resolver,
    reValidateMode: 'onSubmit',
    defaultValues: { title: '', program_name: '', issue_date: todayIso(), holder_wallet: '', expires_on: '', certificate_file: null },
  });
  const { register, handleSubmit, formState, clearErrors, setError, control, reset, watch } = form;
  const errors = formState.errors;
  const file = watch('certificate_file');
  useEffect(issueValidation.preload, []);
  const ready = me.status === 'approved' && me.proof.status === 'proven';

  async function onSubmit(values: IssueFormValues) {
    setBusy(true);
    setFailure(null);
    const body = new FormData();
    body.set('title', values.title.trim());
    body.set('program_name', values.program_name.trim());
    body.set('issue_date', values.issue_date.trim());
    body.set('holder_wallet', values.holder_wallet.trim());
    // The resolver hands back zod's output: an empty expiry is undefined there.
    const expires = values.expires_on?.trim();
    if (expires) body.set('expires_on', expires);
    body.set('certificate_file', values.certificate_file!, values.certificate_file!.name);
    try {
      const prepared = await postTrpcForm<Prepared>('issuer.issue', body);
      await signPrepared(wallet, prepared, (signedTransaction) => trpcClient.issuer.submit.mutate({ signedTransaction }));
      toast.success('Certificate Issued', { description: 'The holder sees it in their list, confirmed by your institution.' });
      reset();
      await refresh();
    } catch (e) {
      setFailure(errorMessage(e));
      toast.error('Issuing Failed', { description: errorMessage(e) });
    } finally {
      setBusy(false);
    }
  }

  function pickFile(next: File, onChange: (f: File | null) => void) {
    if (!(CERTIFICATE_FILE_EXTENSIONS as readonly string[]).includes(extensionOf(next.name))) {
      setError('certificate_file', { message: 'Unsupported file type. Use PDF, JPG, JPEG, PNG or WEBP.' });
      return;
    }
    if (next.size > CERTIFICATE_MAX_BYTES) {
      setError('certificate_file', { message: `The file is larger than ${CERTIFICATE_MAX_BYTES / 1024 / 1024} MB.` });
      return;
    }
    clearErrors('certificate_file');
    onChange(next);
  }

  const text = (name: 'title' | 'program_name' | 'holder_wallet', label: string, placeholder: string, className = '') => (
    <div className={`space-y-2 ${className}`}>
      <Label htmlFor={`issue-${name}`}>{label}</Label>
      <Input id={`issue-${name}`} placeholder={placeholder} disabled={busy} aria-invalid={!!errors[name] || undefined} aria-describedby={errors[name] ? `issue-${name}-error` : undefined} {...register(name, { onChange: () => clearErrors(name) })} />
      <FieldError id={`issue-${name}-error`} message={errors[name]?.message} />
    </div>
  );

  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>Issue a certificate</h2>
        </CardTitle>
        <CardDescription>Your wallet signs the record: the holder sees it at once, confirmed by {me.name}.</CardDescription>
      </CardHeader>
      <CardContent>
        {!ready ? (
          <p className="text-sm text-muted-foreground">Issuing opens once your domain is proven and the operator has approved your institution.</p>
        ) : (
          <form onSubmit={handleSubmit(onSubmit)} noValidate className="grid gap-4 sm:grid-cols-2">
            {text('title', 'Certificate title', 'e.g. Bachelor of Science', 'sm:col-span-2')}
            {text('program_name', 'Program', 'e.g. Computer Science')}
            <div className="space-y-2">
              <Label htmlFor="issue-issue_date">Issue date</Label>
              <Input id="issue-issue_date" type="date" max={todayIso()} disabled={busy} aria-invalid={!!errors.issue_date || undefined} aria-describedby={errors.issue_date ? 'issue-issue_date-error' : undefined} {...register('issue_date', { onChange: () => clearErrors('issue_date') })} />
              <FieldError id="issue-issue_date-error" message={errors.issue_date?.message} />
            </div>
            {text('holder_wallet', 'Holder’s wallet address', 'e.g. 7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU', 'sm:col-span-2')}
            <div className="space-y-2">
              <Label htmlFor="issue-expires_on">Expires on (optional)</Label>
              <Input id="issue-expires_on" type="date" min={todayIso()} disabled={busy} aria-invalid={!!errors.expires_on || undefined} aria-describedby={errors.expires_on ? 'issue-expires_on-error' : undefined} {...register('expires_on', { onChange: () => clearErrors('expires_on') })} />
              <FieldError id="issue-expires_on-error" message={errors.expires_on?.message} />
            </div>
            <div className="space-y-2 sm:col-span-2">
              <span className="text-sm font-medium" id="issue-file-label">
                Certificate file
              </span>
              <Controller
                control={control}
                name="certificate_file"
                render={({ field }) => (
                  <FileDropZone accept={ACCEPT} label="Certificate file to issue" onFile={(f) => pickFile(f, field.onChange)} disabled={busy} invalid={!!errors.certificate_file} describedBy={errors.certificate_file ? 'issue-file-error' : undefined} className="p-6">
                    {file ? (
                      <span className="flex items-center justify-center gap-2 text-sm">
                        <FileText className="size-4" aria-hidden="true" /> {file.name} ({formatKb(file.size)})
                      </span>
                    ) : (
                      <span className="text-sm text-muted-foreground">Drop the PDF or image here, or click to choose it</span>
                    )}
                  </FileDropZone>
                )}
              />
              <FieldError id="issue-file-error" message={errors.certificate_file?.message} />
            </div>
            {failure && (
              <p role="alert" className="text-sm font-medium text-destructive sm:col-span-2">
                {failure}
              </p>
            )}
            <div className="sm:col-span-2">
              <Button type="submit" disabled={busy}>
                {busy ? <Loader2 className="size-4 animate-spin" aria-hidden="true" /> : <Send className="size-4" aria-hidden="true" />}
                {busy ? 'Issuing...' : 'Issue certificate'}
              </Button>
            </div>
          </form>
        )}
      </CardContent>
    </Card>
  );
}

function RequestsCard({ me }: { me: Me }) {
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
                    <p className="text-muted-foreground">
                      {r.claims.program_name} · issued {r.claims.issue_date} · {r.holder_name || 'Unnamed holder'} <span className="font-mono text-xs">({r.holder_wallet.slice(0, 6)}...{r.holder_wallet.slice(-4)})</span>
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

const REVOKE_REASONS = [
  { value: 'revoked_by_issuer', label: 'Revoked by the institution' },
  { value: 'revoked_superseded', label: 'Superseded by a newer certificate' },
  { value: 'revoked_holder_request', label: 'At the holder’s request' },
] as const;

function RevokeDialog({ certificate, onClose }: { certificate: CertificateDto | null; onClose: () => void }) {
  const wallet = useWalletSession();
  const refresh = useRefreshInstitution();
  const [reason, setReason] = useState<(typeof REVOKE_REASONS)[number]['value']>('revoked_by_issuer');
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  async function revoke() {
    if (!certificate) return;
    if (note.length > 1000) return setFailure('The note is at most 1000 characters');
    setBusy(true);
    setFailure(null);
    try {
      const prepared = await trpcClient.issuer.revoke.mutate({ id: certificate.id, reason, note: note.trim() || undefined });
      await signPrepared(wallet, prepared, (signedTransaction) => trpcClient.issuer.submit.mutate({ signedTransaction }));
      toast.success('Certificate Revoked', { description: 'Every verify surface now shows it revoked, by you, and why.' });
      setNote('');
      onClose();
    } catch (e) {
      setFailure(errorMessage(e));
    } finally {
      setBusy(false);
      await refresh();
    }
  }

  return (
    <Dialog open={!!certificate} onOpenChange={(open) => !open && !busy && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Revoke “{certificate?.title}”</DialogTitle>
          <DialogDescription>The record stays on chain, marked revoked: verifiers see when, by whom and why. This cannot be undone.</DialogDescription>
        </DialogHeader>
        <div className="space-y-3">
          <div className="space-y-2">
            <Label htmlFor="revoke-reason">Reason</Label>
            <select id="revoke-reason" className={`${SELECT} w-full`} value={reason} onChange={(e) => setReason(e.target.value as typeof reason)} disabled={busy}>
              {REVOKE_REASONS.map((r) => (
                <option key={r.value} value={r.value}>
                  {r.label}
                </option>
              ))}
            </select>
          </div>
          <div className="space-y-2">
            <Label htmlFor="revoke-note">Note (optional, kept off chain)</Label>
            <Textarea id="revoke-note" value={note} maxLength={1000} onChange={(e) => setNote(e.target.value)} disabled={busy} />
          </div>
          {failure && (
            <p role="alert" className="text-sm font-medium text-destructive">
              {failure}
            </p>
          )}
        </div>
        <DialogFooter>
          <Button variant="outline" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button variant="destructive" onClick={() => void revoke()} disabled={busy}>
            {busy && <Loader2 className="size-4 animate-spin" aria-hidden="true" />} Revoke certificate
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function CertificatesCard() {
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
            ? `${counts.total} issued or confirmed: ${counts.verified} valid, ${counts.revoked} revoked, ${counts.superseded} superseded; ${counts.open_requests} open request${counts.open_requests === 1 ? '' : 's'}.`
            : 'Certificates you issued or confirmed.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <div className="flex flex-col gap-2 sm:flex-row">
          <div className="relative flex-1">
            <Search className="pointer-events-none absolute left-2.5 top-2.5 size-4 text-muted-foreground" aria-hidden="true" />
            <Input type="search" aria-label="Search certificates by title, program or holder wallet" placeholder="Search title, program, holder wallet" className="pl-8" value={search} onChange={(e) => setSearch(e.target.value)} />
          </div>
          <select aria-label="Status filter" className={SELECT} value={status} onChange={(e) => setStatus(e.target.value as typeof status)}>
            <option value="all">All statuses</option>
            <option value="verified">Valid</option>
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
                    {c.program_name} · {formatDate(c.issue_date)} · <span className="font-mono text-xs">{c.holder_wallet}</span>
                  </p>
                  {c.revocation_note && <p className="text-muted-foreground">Note: {c.revocation_note}</p>}
                </div>
                <div className="flex flex-wrap items-center gap-2">
                  <StatusBadge status={c.verification_status} />
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

export default function InstitutionPage() {
  const me = useQuery(trpc.issuer.me.queryOptions());

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
