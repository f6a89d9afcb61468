// /view/{userId}/{certificateId}: the shared link. No sign-in; the certificate is checked against its
// chain record, and a verifier can drop the file they received to compare fingerprints locally.
import { lazy, Suspense } from 'react';
import { useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Coins, Download, ExternalLink, Loader2 } from 'lucide-react';
import type { PublicCertificateDto, VerdictDto } from '../../../../shared/schemas/dto';
import { STATUS_POLL_INTERVAL_MS } from '../../../../shared/constants';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { trpc } from '../../lib/trpc';
import { StatusBadge, verdictBadgeStatus } from '../certificates/components/status';
import { CertificateFacts } from '../certificates/components/CertificateFacts';
import { explorerAddressUrl, publicLink, shortHash } from '../certificates/lib/format';
import { useClusterInfo } from '../wallet/cluster';
import { ChainVerdict, VerdictSummary } from '../verification/components/ChainVerdict';
import { PublicShell } from './PublicShell';

// The QR code card sits below the verdict: it loads after it.
const ShareQr = lazy(() => import('../certificates/components/ShareQr').then((m) => ({ default: m.ShareQr })));
const PublicNotFound = lazy(() => import('./PublicNotFound'));
// Comparing a file is an extra many verifiers never use: it loads after the verdict.
const CompareFile = lazy(() => import('./CompareFile'));

function errorCode(error: unknown) {
  return (error as { data?: { code?: string } } | null)?.data?.code;
}

export default function PublicViewPage() {
  const { userId = '', certificateId = '' } = useParams();
  const view = useQuery({
    ...trpc.public.view.queryOptions({ userId, certificateId }),
    retry: (n, e) => errorCode(e) !== 'NOT_FOUND' && errorCode(e) !== 'BAD_REQUEST' && n < 3,
  });
  const viewed = view.data as PublicCertificateDto | undefined;
  // "Read live": the verdict is read again every 10 s (the seed's polling interval) and when the tab
  // comes back into focus, so an open page follows a revocation, a confirmation or a suspension. Cheap
  // for the server: a verdict is cached until the chain changes, and stored by hash.
  const verdictQuery = useQuery({
    ...trpc.public.verifyById.queryOptions({ certificateId }),
    enabled: !!viewed,
    retry: false,
    refetchInterval: STATUS_POLL_INTERVAL_MS,
    refetchOnWindowFocus: true,
  });
  const verdict = verdictQuery.data as VerdictDto | undefined;
  // The certificate as the latest verdict read it (the same public fields, of the same row): its download
  // link goes when it is revoked, without a second request.
  const cert = verdict?.certificate && viewed && verdict.certificate.id === viewed.id && verdict.certificate.user_id === viewed.user_id ? verdict.certificate : viewed;
  const rpcUrl = useClusterInfo().data?.rpcUrl;

  if (view.isPending) {
    return (
      <PublicShell>
        <div role="status" className="flex min-h-[50vh] items-center justify-center gap-2 text-muted-foreground">
          <Loader2 className="size-5 animate-spin" aria-hidden="true" /> Loading certificate...
        </div>
      </PublicShell>
    );
  }

  if (view.isError || !cert) {
    const missing = errorCode(view.error) === 'NOT_FOUND' || errorCode(view.error) === 'BAD_REQUEST';
    return (
      <PublicShell>
        <Suspense fallback={null}>
          <PublicNotFound missing={missing} />
        </Suspense>
      </PublicShell>
    );
  }

  const link = publicLink(cert.user_id, cert.id);

  return (
    <PublicShell>
      <div className="space-y-6">
        <div className="flex flex-col gap-4 md:flex-row md:items-start md:justify-between">
          <div className="min-w-0 space-y-2">
            <div className="flex flex-wrap items-center gap-2">
              {/* The chain's verdict once read (the badge never says more than the check below). */}
              <StatusBadge status={verdictBadgeStatus(verdict, verdictQuery.isPending)} />
              {cert.nft_mint_address && (
                <span className="inline-flex items-center gap-1 rounded-full bg-violet-100 px-2.5 py-0.5 text-xs font-semibold text-violet-800 dark:bg-violet-950 dark:text-violet-300">
                  <Coins className="size-3.5" aria-hidden="true" /> Soulbound NFT
                </span>
              )}
            </div>
            <h1 className="break-words text-2xl font-bold tracking-tight md:text-3xl">{cert.title}</h1>
            <p className="text-muted-foreground">
              {cert.institution_name} · {cert.program_name}
            </p>
          </div>
          {cert.certificate_url && (
            <Button asChild>
              <a href={`${cert.certificate_url}?download=1`} download>
                <Download className="size-4" aria-hidden="true" /> Download Certificate
              </a>
            </Button>
          )}
        </div>

        <div className="grid gap-6 lg:grid-cols-3">
          <div className="space-y-6 lg:col-span-2">
            <Card>
              <CardHeader>
                <CardTitle>
                  <h2>Chain Verification</h2>
                </CardTitle>
                <CardDescription>Read live from the certificate's on-chain record.</CardDescription>
              </CardHeader>
              <CardContent className="space-y-4">
                {verdictQuery.isPending ? (
                  <p role="status" className="flex items-center gap-2 text-muted-foreground">
                    <Loader2 className="size-4 animate-spin" aria-hidden="true" /> Checking the chain...
                  </p>
                ) : verdict ? (
                  <>
                    <VerdictSummary verdict={verdict} />
                    <ChainVerdict verdict={verdict} />
                  </>
                ) : (
                  <p role="alert" className="text-sm text-destructive">
                    The chain check could not be completed. {verdictQuery.error?.message}
                  </p>
                )}
              </CardContent>
            </Card>

            <Card>
              <CardHeader>
                <CardTitle>
                  <h2>Compare a File</h2>
                </CardTitle>
                <CardDescription>
                  Received this certificate as a file? Drop it here: it is fingerprinted in your browser and compared with the
                  chain record.
                </CardDescription>
              </CardHeader>
              <CardContent className="space-y-4">
                <Suspense fallback={<div className="h-36 rounded-xl border-2 border-dashed border-muted-foreground/30" aria-busy="true" />}>
                  <CompareFile expected={verdict?.sha256 ?? cert.sha256} verdict={verdict} />
                </Suspense>
              </CardContent>
            </Card>
          </div>

          <div className="space-y-6">
            <CertificateFacts view="public" certificate={cert} dateChecked={verdict?.tier === 'issuer_confirmed'} />

            <Card>
              <CardHeader>
                <CardTitle>
                  <h2>NFT &amp; Permanent Copy</h2>
                </CardTitle>
              </CardHeader>
              <CardContent className="space-y-3 text-sm">
                {cert.nft_mint_address ? (
                  <div>
                    <p className="text-muted-foreground">Soulbound NFT mint</p>
                    <a
                      href={explorerAddressUrl(cert.nft_mint_address, rpcUrl)}
                      target="_blank"
                      rel="noreferrer"
                      title={cert.nft_mint_address}
                      data-testid="nft-mint-link"
                      className="inline-flex items-center gap-1 whitespace-nowrap font-mono text-xs text-primary underline-offset-4 hover:underline"
                    >
                      {shortHash(cert.nft_mint_address, 6, 6)} <ExternalLink className="size-3 shrink-0" aria-hidden="true" />
                      <span className="sr-only">(opens in a new tab)</span>
                    </a>
                  </div>
                ) : (
                  <p className="text-muted-foreground">Not minted as an NFT yet.</p>
                )}
                {cert.arweave_url ? (
                  <a
                    href={cert.arweave_url}
                    target="_blank"
                    rel="noreferrer"
                    data-testid="permanent-copy"
                    className="inline-flex items-center gap-1 text-primary underline-offset-4 hover:underline"
                  >
                    View on permanent storage <ExternalLink className="size-3 shrink-0" aria-hidden="true" />
                    <span className="sr-only">(opens in a new tab)</span>
                  </a>
                ) : (
                  <p className="text-muted-foreground">No permanent copy yet: it is stored when the certificate is minted.</p>
                )}
              </CardContent>
            </Card>

            {/* A QR code invites others to check it: only for a certificate the check confirms. */}
            {verdict?.valid && (
              <Card data-testid="share-card">
                <CardHeader>
                  <CardTitle>
                    <h2>Share</h2>
                  </CardTitle>
                </CardHeader>
                <CardContent>
                  <Suspense fallback={<div className="mx-auto size-[184px] animate-pulse rounded-lg bg-muted" />}>
                    <ShareQr url={link} />
                  </Suspense>
                </CardContent>
              </Card>
            )}
          </div>
        </div>
      </div>
    </PublicShell>
  );
}
