// /certificates/{id}: the holder's view of one certificate. Status changes arrive live over SSE
// (certificate.onStatus); the seed's 10 s polling stays as the fallback while it is pending.
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSubscription } from '@trpc/tanstack-react-query';
import { toast } from '../../lib/toast';
import {
  ArrowLeft,
  Coins,
  Download,
  ExternalLink,
  Eye,
  EyeOff,
  FileText,
  HardDriveDownload,
  Loader2,
  Pencil,
  RefreshCw,
  Share2,
} from 'lucide-react';
import type { CertificateDto, VerificationAttemptDto } from '../../../../shared/schemas/dto';
import { MESSAGES, STATUS_POLL_INTERVAL_MS } from '../../../../shared/constants';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { trpc } from '../../lib/trpc';
import { useClusterInfo } from '../wallet/cluster';
import { useWalletSession } from '../wallet/WalletSession';
import { ConnectWalletDialog } from '../wallet/ConnectWalletDialog';
import { useMintCertificate } from '../mint/api';
import { awaitingConfirmation, StatusBadge, StatusIcon } from './components/status';
import { CopyValue, InfoRow } from './components/CopyField';
import { VerificationAttempts } from './components/VerificationLogList';
import { ShareQr } from './components/ShareQr';
import { explorerAddressUrl, formatDate, formatDateTime, formatKb, publicLink } from './lib/format';
import { chainReason } from './lib/chain-reason';

// The details form (react-hook-form, zod) loads when the holder first edits.
const EditClaimsDialog = lazy(() => import('./components/EditClaimsDialog'));

const TIER_LABEL: Record<string, string> = {
  none: 'None',
  platform_verified: 'Platform verified',
  issuer_confirmed: 'Issuer confirmed',
};

function errorCode(error: unknown): string | undefined {
  return (error as { data?: { code?: string } } | null)?.data?.code;
}

/** A pending certificate's retry notice from the server (chain unreachable, retrying or given up). */
export function retryNotice(c: Pick<CertificateDto, 'verification_details'>): { text: string; gaveUp: boolean } | null {
  const d = c.verification_details;
  const retry = d?.retry as { state?: string } | undefined;
  if (!retry || typeof d?.reason !== 'string') return null;
  return { text: d.reason, gaveUp: retry.state === 'gave_up' };
}

export function rejectionReason(c: Pick<CertificateDto, 'verification_details'>) {
  const reason = c.verification_details?.reason;
  return typeof reason === 'string' && reason.trim() ? reason : MESSAGES.rejectedFallback;
}

/** A run's outcome, as the seed's toasts say it (SEED-SPEC.md §8). */
function announceRun(run: VerificationAttemptDto) {
  if (run.state === 'failed') {
    toast.error('Verification Failed', { description: 'Verification could not be completed. Use Check Status to try again.' });
    return;
  }
  switch (run.outcome) {
    case 'verified':
      toast.success('Certificate Verified', { description: 'Your certificate has been successfully verified.' });
      break;
    case 'rejected':
      toast.error('Verification Failed', { description: 'Your certificate could not be verified' });
      break;
    case 'awaiting_confirmation':
      toast.message('Awaiting Confirmation', { description: 'The content could not be read automatically: the certificate stays pending until its institution confirms it.' });
      break;
    case 'revoked':
      toast.error('Certificate Revoked', { description: 'This certificate has been revoked on chain.' });
      break;
    case 'superseded':
      toast.error('Certificate Superseded', { description: 'The institution issued this file to another wallet.' });
      break;
    default:
      break;
  }
}

export function CertificateNotFound({ backTo, backLabel, description }: { backTo: string; backLabel: string; description: string }) {
  return (
    <div className="mx-auto flex max-w-md flex-col items-center py-16 text-center">
      <FileText className="mb-4 size-12 text-muted-foreground" aria-hidden="true" />
      <h1 className="text-2xl font-bold">Certificate Not Found</h1>
      <p className="mb-6 mt-2 text-muted-foreground">{description}</p>
      <Button asChild>
        <Link to={backTo}>
          <ArrowLeft className="size-4" aria-hidden="true" /> {backLabel}
        </Link>
      </Button>
    </div>
  );
}

export default function CertificateDetailPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const cluster = useClusterInfo();
  const wallet = useWalletSession();
  const [showPdf, setShowPdf] = useState(false);

  // A run under way (also Try Again on a rejected certificate, whose status stays rejected meanwhile):
  // the seed's 10 s polling is the fallback while it runs, as while the certificate is pending.
  const running = useRef(false);
  const byIdOptions = trpc.certificate.byId.queryOptions({ id });
  const query = useQuery({
    ...byIdOptions,
    retry: (count, error) => errorCode(error) !== 'NOT_FOUND' && errorCode(error) !== 'FORBIDDEN' && count < 3,
    refetchInterval: (q) =>
      (q.state.data as CertificateDto | undefined)?.verification_status === 'pending' || running.current ? STATUS_POLL_INTERVAL_MS : false,
  });
  const c = query.data as CertificateDto | undefined;
  const attemptsQuery = useQuery({
    ...trpc.certificate.attempts.queryOptions({ id }),
    enabled: !!c,
    refetchInterval: c?.verification_status === 'pending' || running.current ? STATUS_POLL_INTERVAL_MS : false,
  });
  const attempts = (attemptsQuery.data ?? []) as VerificationAttemptDto[];
  const latest = attempts.at(-1);
  running.current = !!latest && (latest.state === 'queued' || latest.state === 'running');

  // The server knows its chain, so it builds the explorer links for the mint and its transaction.
  const mintLinks = useQuery({ ...trpc.mint.links.queryOptions({ id }), enabled: !!c?.nft_mint_address });

  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: byIdOptions.queryKey }),
      queryClient.invalidateQueries(trpc.certificate.logs.pathFilter()),
      queryClient.invalidateQueries(trpc.certificate.attempts.pathFilter()),
      queryClient.invalidateQueries(trpc.certificate.list.pathFilter()),
      queryClient.invalidateQueries(trpc.certificate.stats.pathFilter()),
    ]);

  useSubscription(
    trpc.certificate.onStatus.subscriptionOptions(
      { id },
      {
        enabled: !!c,
        onData: () => void refresh(),
        onError: (e) => console.warn('Live status unavailable; polling instead', e),
      },
    ),
  );

  // Each run is announced when it ends (SEED-SPEC.md §4: 'Certificate Verified' / 'Verification
  // Failed'), by the run's own outcome — not by a status change, which Try Again on a rejected
  // certificate never makes. The runs announced: one started here (Check Status, Try Again, corrected
  // details), one seen under way on this page, and the first one straight from the create form.
  const location = useLocation();
  const justCreated = !!(location.state as { justCreated?: boolean } | null)?.justCreated;
  const awaited = useRef<string | null>(null);
  const announced = useRef(new Set<string>());
  useEffect(() => {
    if (!attemptsQuery.data) return;
    const last = attempts.at(-1);
    if (!last) return;
    if (!awaited.current && !announced.current.has(last.job_id) && (last.state === 'queued' || last.state === 'running' || justCreated)) awaited.current = last.job_id;
    const run = attempts.find((a) => a.job_id === awaited.current);
    if (!run || run.state === 'queued' || run.state === 'running') return;
    awaited.current = null;
    announced.current.add(run.job_id);
    announceRun(run);
    // Announce once: a reload of this history entry must not toast again.
    if (justCreated) navigate(location.pathname, { replace: true, state: null });
  }, [attemptsQuery.data, attempts, justCreated, location.pathname, navigate]);
  useEffect(() => {
    // Runs already finished when the page opened are history, not news.
    if (attemptsQuery.data && !justCreated) for (const a of attempts) if (a.state === 'done' || a.state === 'failed') announced.current.add(a.job_id);
    // Only on the first answer.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [attemptsQuery.data === undefined]);

  const loadErrorShown = useRef(false);
  useEffect(() => {
    if (query.isError && errorCode(query.error) !== 'NOT_FOUND' && !loadErrorShown.current) {
      loadErrorShown.current = true;
      toast.error('Error', { description: 'Failed to load certificate details.' });
    }
  }, [query.isError, query.error]);

  const start = useMutation(trpc.certificate.startVerification.mutationOptions());
  const retry = useMutation(trpc.certificate.retryVerification.mutationOptions());
  const verifying = start.isPending || retry.isPending;

  // Check Status (pending) or Try Again (rejected) queue a verification run on the server.
  async function onVerify(rejected: boolean) {
    try {
      const r = await (rejected ? retry : start).mutateAsync({ id });
      if (r.job_id) {
        awaited.current = r.job_id;
        announced.current.delete(r.job_id);
      }
      toast.success('Verification Started', { description: 'Your certificate is being verified. This may take a moment.' });
      await refresh();
    } catch (e) {
      console.error('Could not start verification', e);
      toast.error('Verification Failed', { description: 'Failed to initiate verification process.' });
    }
  }

  const [editOpen, setEditOpen] = useState(false);
  const [editRequested, setEditRequested] = useState(false);
  async function onClaimsUpdated(jobId: string) {
    awaited.current = jobId;
    toast.success('Verification Started', { description: 'Your certificate is being verified. This may take a moment.' });
    await refresh();
  }

  const mint = useMintCertificate(wallet.signTransaction);

  const [connectOpen, setConnectOpen] = useState(false);
  // Resume the mint once the freshly connected wallet has reached this render.
  const [mintAfterConnect, setMintAfterConnect] = useState(false);
  useEffect(() => {
    if (mintAfterConnect && wallet.connected) {
      setMintAfterConnect(false);
      void onMint();
    }
  });

  const minting = useRef(false);
  async function onMint() {
    if (minting.current) return;
    minting.current = true;
    try {
      // After a reload the session survives but the wallet may not be connected: ask for it first.
      if (!(await wallet.waitForSelectedWallet())) {
        setConnectOpen(true);
        return;
      }
      await mint.mutateAsync(id);
      toast.success('Certificate Minted', { description: 'Your certificate has been successfully minted as an NFT.' });
    } catch (e) {
      const reason = e instanceof Error ? e.message : String(e);
      console.error('Mint failed', e);
      toast.error('Minting Failed', { description: `Failed to mint your certificate as an NFT.${reason ? ` ${reason}` : ''}` });
    } finally {
      minting.current = false;
    }
  }

  async function onShare(link: string) {
    try {
      await navigator.clipboard.writeText(link);
      toast.success('Link Copied', { description: 'Certificate link copied to clipboard.' });
    } catch {
      toast.error('Copy Failed', { description: 'Failed to copy the link to clipboard.' });
    }
  }

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
  const fileUrl = c.certificate_url || `/files/certificates/${c.id}`;
  const status = c.verification_status;
  const notice = retryNotice(c);
  const canMint = status === 'verified' && !c.nft_mint_address;
  const rpcUrl = cluster.data?.rpcUrl;
  const awaiting = status === 'pending' && awaitingConfirmation(c.verification_details);
  const isRunning = running.current;
  // What the holder can still do: verify again (seed: Check Status / Try Again) and correct the claims
  // (a mistyped detail can never pass Try Again). Revoked and superseded are final.
  const canVerify = status === 'pending' || status === 'rejected';
  const canEdit = (status === 'rejected' || status === 'pending') && !isRunning && !!attemptsQuery.data;
  const details = c.verification_details ?? {};

  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <Button asChild variant="ghost" size="sm" className="-ml-2">
        <Link to="/certificates">
          <ArrowLeft className="size-4" aria-hidden="true" /> Back to Certificates
        </Link>
      </Button>

      <div className="flex flex-col gap-4 md:flex-row md:items-start md:justify-between">
        <div className="min-w-0 space-y-2">
          <div className="flex flex-wrap items-center gap-2">
            <StatusBadge status={status} />
            {c.nft_mint_address && (
              <span className="inline-flex items-center gap-1 rounded-full bg-violet-100 px-2.5 py-0.5 text-xs font-semibold text-violet-800 dark:bg-violet-950 dark:text-violet-300">
                <Coins className="size-3.5" aria-hidden="true" /> Minted
              </span>
            )}
          </div>
          <h1 className="break-words text-2xl font-bold tracking-tight md:text-3xl">{c.title}</h1>
          <p className="text-muted-foreground">
            {c.institution_name} · {c.program_name}
          </p>
        </div>
        <div className="flex shrink-0 flex-wrap gap-2">
          <Button variant="outline" onClick={() => void onShare(link)}>
            <Share2 className="size-4" aria-hidden="true" /> Share
          </Button>
          <Button asChild variant="outline">
            <a href={`${fileUrl}?download=1`} download={c.file_name || `${c.title}.pdf`}>
              <Download className="size-4" aria-hidden="true" /> Download
            </a>
          </Button>
        </div>
      </div>

      <div className="grid gap-6 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          <Card>
            <CardHeader className="flex flex-row items-center justify-between gap-2 space-y-0">
              <CardTitle>
                <h2>Preview</h2>
              </CardTitle>
              <Button variant="outline" size="sm" onClick={() => setShowPdf((v) => !v)} aria-expanded={showPdf}>
                {showPdf ? <EyeOff className="size-4" aria-hidden="true" /> : <Eye className="size-4" aria-hidden="true" />}
                {showPdf ? 'Hide Original Certificate' : 'View Original Certificate'}
              </Button>
            </CardHeader>
            <CardContent>
              {showPdf ? (
                <iframe
                  src={fileUrl}
                  title={`Original certificate: ${c.title}`}
                  className="h-[70vh] min-h-96 w-full rounded-lg border bg-muted"
                />
              ) : (
                <div className="rounded-lg border bg-gradient-to-br from-primary/5 to-muted p-8 text-center" data-testid="certificate-preview">
                  {/* The preview's mark is the certificate's status, never a check mark it has not earned. */}
                  <StatusIcon status={status} className="mx-auto mb-3 size-10" />
                  <p className="text-xs uppercase tracking-widest text-muted-foreground">Certificate</p>
                  <p className="mt-2 text-xl font-semibold">{c.title}</p>
                  <p className="mt-1 text-muted-foreground">{c.program_name}</p>
                  <p className="mt-4 text-sm">{c.institution_name}</p>
                  <p className="text-sm text-muted-foreground">Issued {formatDate(c.issue_date)}</p>
                </div>
              )}
            </CardContent>
          </Card>

          <Card>
            <CardHeader>
              <CardTitle>
                <h2>Certificate Information</h2>
              </CardTitle>
            </CardHeader>
            <CardContent>
              <dl className="divide-y">
                <InfoRow label="Title">{c.title}</InfoRow>
                <InfoRow label="Institution">{c.institution_name}</InfoRow>
                <InfoRow label="Program">{c.program_name}</InfoRow>
                <InfoRow label="Issue date">{formatDate(c.issue_date)}</InfoRow>
                <InfoRow label="Added">{formatDateTime(c.created_at)}</InfoRow>
                <InfoRow label="Certificate ID">
                  <CopyValue value={c.id} label="certificate ID" />
                </InfoRow>
                <InfoRow label="File">
                  {c.file_name} ({formatKb(c.file_size)})
                </InfoRow>
                <InfoRow label="SHA-256">
                  <CopyValue value={c.sha256} label="SHA-256 hash" />
                </InfoRow>
                {c.original_sha256 && (
                  <InfoRow label="Original upload SHA-256">
                    <CopyValue value={c.original_sha256} label="original upload hash" />
                  </InfoRow>
                )}
                <InfoRow label="On-chain record">
                  <a
                    href={explorerAddressUrl(c.record_address, rpcUrl)}
                    target="_blank"
                    rel="noreferrer"
                    className="inline-flex items-center gap-1 break-all font-mono text-xs text-primary underline-offset-4 hover:underline"
                  >
                    {c.record_address} <ExternalLink className="size-3 shrink-0" aria-hidden="true" />
                    <span className="sr-only">(opens in a new tab)</span>
                  </a>
                </InfoRow>
                <InfoRow label="Holder wallet">
                  <CopyValue value={c.holder_wallet} label="holder wallet" />
                </InfoRow>
                <InfoRow label="Certificate URL">
                  <a href={fileUrl} target="_blank" rel="noreferrer" className="inline-flex items-center gap-1 text-primary underline-offset-4 hover:underline">
                    Open file <ExternalLink className="size-3" aria-hidden="true" />
                    <span className="sr-only">(opens in a new tab)</span>
                  </a>
                </InfoRow>
              </dl>
            </CardContent>
          </Card>
        </div>

        <div className="space-y-6">
          <Card>
            <CardHeader>
              <CardTitle>
                <h2>Verification Status</h2>
              </CardTitle>
              <CardDescription>Checked against the on-chain record of this file's fingerprint.</CardDescription>
            </CardHeader>
            <CardContent className="space-y-4">
              <div className="flex items-center justify-between gap-2">
                <StatusBadge status={status} />
                {status === 'verified' && c.tier !== 'none' && <span className="text-sm text-muted-foreground">{TIER_LABEL[c.tier] ?? c.tier}</span>}
              </div>
              {status === 'pending' && !awaiting && (
                <p className="flex items-center gap-2 text-sm text-muted-foreground" aria-live="polite" data-testid="pending-status">
                  {/* The server's retry notice (network down, gave up): see services/verification/retry-status.ts. */}
                  {notice ? (
                    <>
                      {!notice.gaveUp && <Loader2 className="size-4 shrink-0 animate-spin" aria-hidden="true" />} {notice.text}
                    </>
                  ) : (
                    <>
                      <Loader2 className="size-4 animate-spin" aria-hidden="true" /> Verification in progress...
                    </>
                  )}
                </p>
              )}
              {awaiting && (
                <div className="rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm dark:border-amber-900 dark:bg-amber-950" data-testid="awaiting-confirmation">
                  <p className="font-semibold text-amber-900 dark:text-amber-200">Awaiting confirmation</p>
                  <p className="text-amber-900 dark:text-amber-100">{rejectionReason(c)}</p>
                </div>
              )}
              {status === 'rejected' && (
                <div className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm dark:border-red-900 dark:bg-red-950">
                  <p className="font-semibold text-red-800 dark:text-red-300">Reason</p>
                  <p className="break-words text-red-800 dark:text-red-200" data-testid="rejection-reason">
                    {rejectionReason(c)}
                  </p>
                </div>
              )}
              {status === 'revoked' && (
                <div className="space-y-1 rounded-lg border border-red-300 bg-red-50 p-3 text-sm dark:border-red-900 dark:bg-red-950" data-testid="revocation">
                  <p className="font-semibold text-red-900 dark:text-red-300">Revoked</p>
                  <p className="break-words text-red-900 dark:text-red-200">{chainReason(status, details) ?? rejectionReason(c)}</p>
                </div>
              )}
              {status === 'superseded' && (
                <div className="space-y-1 rounded-lg border border-slate-300 bg-slate-50 p-3 text-sm dark:border-slate-700 dark:bg-slate-900" data-testid="supersession">
                  <p className="font-semibold">Superseded</p>
                  <p className="break-words">{chainReason(status, details) ?? rejectionReason(c)}</p>
                  {typeof details.new_holder_wallet === 'string' && (
                    <p className="flex flex-wrap items-center gap-1 text-muted-foreground">
                      Now held by <CopyValue value={details.new_holder_wallet} label="new holder wallet" short />
                    </p>
                  )}
                </div>
              )}
              <VerificationAttempts attempts={attempts} />
              {canVerify && (
                <Button variant="outline" className="w-full" disabled={verifying || (isRunning && status === 'rejected')} onClick={() => void onVerify(status === 'rejected')}>
                  {verifying || isRunning ? <Loader2 className="size-4 animate-spin" aria-hidden="true" /> : <RefreshCw className="size-4" aria-hidden="true" />}
                  {status === 'rejected' ? (isRunning ? 'Verifying again...' : 'Try Again') : 'Check Status'}
                </Button>
              )}
              {canEdit && (
                <div className="space-y-2">
                  <Button
                    variant="outline"
                    className="w-full"
                    onClick={() => {
                      setEditRequested(true);
                      setEditOpen(true);
                    }}
                  >
                    <Pencil className="size-4" aria-hidden="true" /> Edit Details
                  </Button>
                  <p className="text-xs text-muted-foreground">
                    Mistyped the title, institution or program? Correct them and the same file is verified again.
                  </p>
                </div>
              )}
              {editRequested && (
                <Suspense fallback={null}>
                  <EditClaimsDialog certificate={c} open={editOpen} onOpenChange={setEditOpen} onUpdated={(jobId) => void onClaimsUpdated(jobId)} />
                </Suspense>
              )}
            </CardContent>
          </Card>

          <Card>
            <CardHeader>
              <CardTitle>
                <h2>NFT Minting</h2>
              </CardTitle>
              <CardDescription>A soulbound (non-transferable) Token-2022 NFT in your wallet.</CardDescription>
            </CardHeader>
            <CardContent className="space-y-3">
              {c.nft_mint_address ? (
                <>
                  <p className="text-sm text-muted-foreground">Minted to your wallet. Mint address:</p>
                  <a
                    href={mintLinks.data?.explorer_address_url ?? explorerAddressUrl(c.nft_mint_address, rpcUrl)}
                    target="_blank"
                    rel="noreferrer"
                    data-testid="mint-address"
                    className="inline-flex items-center gap-1 break-all font-mono text-xs text-primary underline-offset-4 hover:underline"
                  >
                    {c.nft_mint_address} <ExternalLink className="size-3 shrink-0" aria-hidden="true" />
                    <span className="sr-only">(opens in a new tab)</span>
                  </a>
                  {mintLinks.data?.explorer_tx_url && (
                    <a
                      href={mintLinks.data.explorer_tx_url}
                      target="_blank"
                      rel="noreferrer"
                      className="inline-flex items-center gap-1 text-sm text-primary underline-offset-4 hover:underline"
                    >
                      View mint transaction <ExternalLink className="size-3" aria-hidden="true" />
                      <span className="sr-only">(opens in a new tab)</span>
                    </a>
                  )}
                </>
              ) : canMint ? (
                <>
                  <p className="text-sm text-muted-foreground">
                    Your certificate is verified. Mint it as an NFT: your wallet signs, Attesta pays the network fees.
                  </p>
                  <Button className="w-full" disabled={mint.isPending} onClick={() => void onMint()}>
                    {mint.isPending ? <Loader2 className="size-4 animate-spin" aria-hidden="true" /> : <Coins className="size-4" aria-hidden="true" />}
                    {mint.isPending ? 'Minting...' : 'Mint as NFT'}
                  </Button>
                </>
              ) : status === 'revoked' || status === 'superseded' ? (
                <p className="text-sm text-muted-foreground">A {status} certificate cannot be minted.</p>
              ) : (
                <p className="text-sm text-muted-foreground">Minting becomes available once the certificate is verified.</p>
              )}
            </CardContent>
          </Card>

          <ConnectWalletDialog
            open={connectOpen}
            onOpenChange={setConnectOpen}
            signIn={false}
            onSignedIn={() => setMintAfterConnect(true)}
          />

          <Card>
            <CardHeader>
              <CardTitle>
                <h2>Permanent Storage</h2>
              </CardTitle>
            </CardHeader>
            <CardContent>
              {c.arweave_url ? (
                <a
                  href={c.arweave_url}
                  target="_blank"
                  rel="noreferrer"
                  className="inline-flex items-center gap-2 text-sm text-primary underline-offset-4 hover:underline"
                >
                  <HardDriveDownload className="size-4" aria-hidden="true" /> View on permanent storage
                  <ExternalLink className="size-3" aria-hidden="true" />
                  <span className="sr-only">(opens in a new tab)</span>
                </a>
              ) : (
                <p className="text-sm text-muted-foreground">Your certificate will be stored permanently when minted as an NFT.</p>
              )}
            </CardContent>
          </Card>

          <Card data-testid="share-card">
            <CardHeader>
              <CardTitle>
                <h2>Share</h2>
              </CardTitle>
              {/* The invitation to check it (and the QR code) only for what the check confirms. */}
              <CardDescription>
                {status === 'verified'
                  ? 'Anyone with the link can check this certificate against the chain, without a wallet.'
                  : status === 'pending'
                    ? 'Share it once it is verified: until then its public page shows it as pending.'
                    : `Its public page shows it as ${status} and not valid.`}
              </CardDescription>
            </CardHeader>
            <CardContent className="space-y-3">
              {status === 'verified' && (
                <>
                  <ShareQr url={link} />
                  <Button variant="outline" className="w-full" onClick={() => void onShare(link)}>
                    <Share2 className="size-4" aria-hidden="true" /> Copy public link
                  </Button>
                </>
              )}
              <Button asChild variant="link" className="w-full">
                <Link to={`/view/${c.user_id}/${c.id}`}>Open public view</Link>
              </Button>
            </CardContent>
          </Card>
        </div>
      </div>
    </div>
  );
}
