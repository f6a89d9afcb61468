// The verification status of the holder's certificate: its verdict and why, every attempt, and what the
// holder can still do — verify again (seed: Check Status / Try Again) and correct the claims (a
// mistyped detail can never pass Try Again). Revoked and superseded are final.
import { lazy, Suspense, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Loader2, Pencil, RefreshCw } from 'lucide-react';
import type { CertificateDto, CertificateEventDto, VerificationAttemptDto } from '../../../../../shared/schemas/dto';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { toast } from '../../../lib/toast';
import { trpc } from '../../../lib/trpc';
import { chainReason } from '../lib/chain-reason';
import { checkedSentence, issuerConfirmed, notValidReason } from '../lib/holder-verdict';
import { rejectionReason, retryNotice } from '../lib/verification-details';
import { CopyValue } from './CopyField';
import { awaitingConfirmation, holderStatus, StatusBadge } from './status';
import { VerificationAttempts } from './VerificationLogList';

// The details form (react-hook-form, zod) loads when the holder first edits.
const EditClaimsDialog = lazy(() => import('./EditClaimsDialog'));

export function VerificationStatusPanel({
  certificate: c,
  attempts,
  events = [],
  attemptsLoaded,
  running,
  onRunStarted,
  rpcUrl,
}: {
  certificate: CertificateDto;
  /** Oldest first. */
  attempts: VerificationAttemptDto[];
  /** What institutions, the operator and the holder did, oldest first: entries of the history of their own. */
  events?: CertificateEventDto[];
  rpcUrl?: string | null;
  attemptsLoaded: boolean;
  /** A run is queued or running. */
  running: boolean;
  /** A run was queued from here (Check Status, Try Again, corrected details). */
  onRunStarted: (jobId: string | null | undefined) => Promise<void>;
}) {
  const status = c.verification_status;
  const notice = retryNotice(c);
  const awaiting = status === 'pending' && awaitingConfirmation(c.verification_details);
  const details = c.verification_details ?? {};
  const canVerify = status === 'pending' || status === 'rejected';
  const canEdit = (status === 'rejected' || status === 'pending') && !running && attemptsLoaded;

  const start = useMutation(trpc.certificate.startVerification.mutationOptions());
  const retry = useMutation(trpc.certificate.retryVerification.mutationOptions());
  const verifying = start.isPending || retry.isPending;

  // Check Status (pending) or Try Again (rejected) queue a verification run on the server.
  async function onVerify(rejected: boolean) {
    try {
      const r = await (rejected ? retry : start).mutateAsync({ id: c.id });
      await onRunStarted(r.job_id);
    } catch (e) {
      console.error('Could not start verification', e);
      toast.error('Verification Failed', { description: 'Failed to initiate verification process.' });
    }
  }

  const [editOpen, setEditOpen] = useState(false);
  const [editRequested, setEditRequested] = useState(false);

  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>Verification Status</h2>
        </CardTitle>
        <CardDescription>Checked against the on-chain record of this file's fingerprint.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <StatusBadge status={holderStatus(c)} />
        {/* What was checked, in the words a verifier reads it (lib/holder-verdict.ts). */}
        {status === 'verified' && (
          <p className="text-sm" data-testid="holder-verdict" data-tier={c.tier} data-confirmed={issuerConfirmed(c)}>
            {checkedSentence(c)}
          </p>
        )}
        {/* Verified on record, but its public verdict is not valid: why, and what that means here. */}
        {status === 'verified' && !c.public_valid && (
          <div className="space-y-1 rounded-lg border border-red-300 bg-red-50 p-3 text-sm dark:border-red-900 dark:bg-red-950" data-testid="public-not-valid">
            <p className="font-semibold text-red-900 dark:text-red-300">Not valid</p>
            <p className="break-words text-red-900 dark:text-red-200">{notValidReason(c)}</p>
            <p className="text-red-900 dark:text-red-200">Its public page shows it as not valid, so it cannot be shared or minted until this changes.</p>
          </div>
        )}
        {status === 'pending' && !awaiting && (notice || running || attemptsLoaded) && (
          <p className="flex items-center gap-2 text-sm text-muted-foreground" aria-live="polite" data-testid="pending-status">
            {/* The server's retry notice (network down, gave up): see services/verification/retry-status.ts. */}
            {notice ? (
              <>
                {!notice.gaveUp && <Loader2 className="size-4 shrink-0 animate-spin" aria-hidden="true" />} {notice.text}
              </>
            ) : running ? (
              <>
                <Loader2 className="size-4 animate-spin" aria-hidden="true" /> Verification in progress...
              </>
            ) : (
              // No run under way (none yet, or the last one left no verdict): nothing is being checked.
              <>Not verified yet: use Check Status to start.</>
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
        <VerificationAttempts attempts={attempts} events={events} certificate={c} rpcUrl={rpcUrl} />
        {canVerify && (
          <Button variant="outline" className="w-full" disabled={verifying || (running && status === 'rejected')} onClick={() => void onVerify(status === 'rejected')}>
            {verifying || running ? <Loader2 className="size-4 animate-spin" aria-hidden="true" /> : <RefreshCw className="size-4" aria-hidden="true" />}
            {status === 'rejected' ? (running ? 'Verifying again...' : 'Try Again') : 'Check Status'}
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
            <p className="text-xs text-muted-foreground">Mistyped the title, institution or program? Correct them and the same file is verified again.</p>
          </div>
        )}
        {editRequested && (
          <Suspense fallback={null}>
            <EditClaimsDialog certificate={c} open={editOpen} onOpenChange={setEditOpen} onUpdated={(jobId) => void onRunStarted(jobId)} />
          </Suspense>
        )}
      </CardContent>
    </Card>
  );
}
