// The holder's certificate and its verification runs, kept live: status changes arrive over SSE
// (certificate.onStatus); the seed's 10 s polling stays as the fallback while the certificate is
// pending or a run is under way. Each run is announced by toast when it ends.
import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSubscription } from '@trpc/tanstack-react-query';
import type { CertificateDto, CertificateEventDto, VerificationAttemptDto } from '../../../../../shared/schemas/dto';
import { STATUS_POLL_INTERVAL_MS } from '../../../../../shared/constants';
import { toast } from '../../../lib/toast';
import { trpc } from '../../../lib/trpc';
import { verifiedToast } from '../lib/holder-verdict';

export function errorCode(error: unknown): string | undefined {
  return (error as { data?: { code?: string } } | null)?.data?.code;
}

/** A run's outcome, as the seed's toasts say it (SEED-SPEC.md §8); a verified one as its badge reads (verifiedToast). */
function announceRun(run: VerificationAttemptDto, certificate: CertificateDto) {
  if (run.state === 'failed') {
    toast.error('Verification Failed', { description: 'Verification could not be completed. Use Check Status to try again.' });
    return;
  }
  switch (run.outcome) {
    case 'verified': {
      const { kind, title, description } = verifiedToast(certificate);
      toast[kind](title, { description });
      break;
    }
    case 'rejected':
      toast.error('Verification Failed', { description: 'Your certificate could not be verified' });
      break;
    case 'awaiting_confirmation':
      toast.message('Awaiting Confirmation', { description: 'The content could not be read automatically: the certificate stays pending until its institution confirms it.' });
      break;
    default:
      break;
  }
}

export function useCertificateLiveStatus(id: string) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();

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
  const certificate = query.data as CertificateDto | undefined;
  const attemptsQuery = useQuery({
    ...trpc.certificate.attempts.queryOptions({ id }),
    enabled: !!certificate,
    refetchInterval: certificate?.verification_status === 'pending' || running.current ? STATUS_POLL_INTERVAL_MS : false,
  });
  const attempts = (attemptsQuery.data ?? []) as VerificationAttemptDto[];
  // What institutions, the operator and the holder did: entries of the history beside the runs.
  const eventsQuery = useQuery({ ...trpc.certificate.events.queryOptions({ id }), enabled: !!certificate });
  const events = (eventsQuery.data ?? []) as CertificateEventDto[];
  const latest = attempts.at(-1);
  running.current = !!latest && (latest.state === 'queued' || latest.state === 'running');

  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: byIdOptions.queryKey }),
      queryClient.invalidateQueries(trpc.certificate.logs.pathFilter()),
      queryClient.invalidateQueries(trpc.certificate.attempts.pathFilter()),
      queryClient.invalidateQueries(trpc.certificate.events.pathFilter()),
      queryClient.invalidateQueries(trpc.certificate.list.pathFilter()),
      queryClient.invalidateQueries(trpc.certificate.stats.pathFilter()),
      // A confirmation request's state (open, declined with the reason, confirmed): ConfirmationRequestPanel.
      queryClient.invalidateQueries(trpc.certificate.issuersFor.pathFilter()),
    ]);

  useSubscription(
    trpc.certificate.onStatus.subscriptionOptions(
      { id },
      {
        enabled: !!certificate,
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
    if (!run || run.state === 'queued' || run.state === 'running' || !certificate) return;
    // A verified run is announced as its certificate's badge reads it: once the certificate read says verified too.
    if (run.outcome === 'verified' && certificate.verification_status !== 'verified') return;
    awaited.current = null;
    announced.current.add(run.job_id);
    announceRun(run, certificate);
    // Announce once: a reload of this history entry must not toast again.
    if (justCreated) navigate(location.pathname, { replace: true, state: null });
  }, [attemptsQuery.data, attempts, certificate, justCreated, location.pathname, navigate]);
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

  /** A run this page started (Check Status, Try Again, corrected details): said, watched, announced when it ends. */
  async function runStarted(jobId: string | null | undefined) {
    if (jobId) {
      awaited.current = jobId;
      announced.current.delete(jobId);
    }
    toast.success('Verification Started', { description: 'Your certificate is being verified. This may take a moment.' });
    await refresh();
  }

  return {
    query,
    certificate,
    attempts,
    events,
    /** The runs have been read at least once. */
    attemptsLoaded: !!attemptsQuery.data,
    /** A run is queued or running. */
    running: running.current,
    runStarted,
  };
}
