import { tracked } from '@trpc/server';
import { certificateByIdInput, createCertificateInput, listCertificatesInput, onStatusInput, updateClaimsInput } from '../../../shared/schemas/certificate';
import type { CertificateDto, CertificateStatsDto } from '../../../shared/schemas/dto';
import { holderMark, type HolderMark } from '../../../shared/schemas/holder-mark';
import type { TrustTierName } from '../../../shared/constants';
import type { Context, Session } from '../context';
import type { CertificateRow } from '../db/schema';
import { AWAITING_VERIFICATION, claimsOf, getCertificate, listOwn, lockCertificate, ownOrNotFound, ownStats, sameClaims, updateCertificate } from '../db/certificates';
import { appendAudit } from '../db/audit';
import { DomainError } from '../lib/errors';
import { stepOrder, verificationAttempts } from '../services/certificates/attempts';
import { certificateEvents } from '../services/certificates/history';
import { reserveRerun } from '../services/certificates/limits';
import { withdrawOpenRequests } from '../services/chain-sync/reconcile';
import { toCertificateDto, toLogDto } from '../services/certificates/dto';
import { standingOf, standingsOf } from '../services/certificates/standing';
import { createCertificate } from '../services/certificates/intake';
import { issuersForInput, requestConfirmationInput, submitSignedInput } from '../../../shared/schemas/institutions';
import { issuersFor, prepareRequest, requestFlow, requestsOfCertificate } from '../services/issuers/requests';
import { submitAction } from '../services/wallet-tx/actions';
import { protectedProcedure, router } from '../trpc';

/** Own certificates only: someone else's id is indistinguishable from a missing one. */
const ownCertificate = (ctx: Context & { session: Session }, id: string) => ownOrNotFound(ctx.db, ctx.session.user.id, id);

/** One certificate as its holder sees it: with what its public verdict says now (services/certificates/standing.ts). */
const holderView = async (ctx: Context, row: CertificateRow) => toCertificateDto(row, ctx.origin, await standingOf(ctx, row, ctx.origin));

/**
 * A revoked or superseded certificate is final: the chain decided it (the institution or the operator
 * revoked it; the institution issued the file to another wallet), and no verification run, retry or
 * change of details can make it verified again (CONFLICT).
 */
function refuseFinal(cert: CertificateRow) {
  if (cert.verification_status === 'revoked') {
    throw new DomainError('CONFLICT', 'This certificate was revoked on chain. A revoked certificate cannot be verified again or changed.');
  }
  if (cert.verification_status === 'superseded') {
    throw new DomainError('CONFLICT', 'The institution issued this file to another wallet, so this certificate no longer counts. It cannot be verified again or changed.');
  }
}

/**
 * Queues a verification run the holder asked for (Check Status, Try Again), paced per wallet
 * (reserveRerun: 429 with Retry-After past it); a run already queued or running is the answer, and
 * costs nothing.
 */
async function queueRerun(ctx: Context & { session: Session }, certificateId: string) {
  const active = await ctx.db.selectFrom('verification_job').selectAll().where('certificate_id', '=', certificateId).where('status', 'in', ['queued', 'running']).executeTakeFirst();
  if (active) return active;
  const reservation = reserveRerun(ctx, ctx.session.user);
  try {
    const job = await ctx.queue.enqueue(certificateId);
    ctx.queue.kick();
    return job;
  } catch (e) {
    reservation.release();
    throw e;
  }
}

/** Confirmation requests count against the wallet's institution-action budget (each prepares a transaction). */
const limitedRequest = protectedProcedure.use(({ ctx, next }) => {
  ctx.institutionLimiter.take(ctx.session.user.wallet_address);
  return next();
});

export const certificateRouter = router({
  /** FormData: title, institution_name, program_name, issue_date, certificate_file. */
  create: protectedProcedure.input(createCertificateInput).mutation(async ({ ctx, input }) => {
    const row = await createCertificate(ctx, ctx.session.user, input);
    return holderView(ctx, row);
  }),

  list: protectedProcedure.input(listCertificatesInput).query(async ({ ctx, input }) => {
    const standing = input?.standing;
    // By standing: only verified rows can be either, and the limit applies after judging them.
    const rows = await listOwn(ctx.db, ctx.session.user.id, { status: standing ? 'verified' : input?.status, search: input?.search, limit: standing ? undefined : input?.limit });
    // Not a verdict each: the same rules over the rows, the chain read for issuer-confirmed ones only.
    const standings = await standingsOf(ctx, rows);
    const dtos = rows.map((r, i) => toCertificateDto(r, ctx.origin, standings[i]));
    if (!standing) return dtos;
    if (input?.status && input.status !== 'all' && input.status !== 'verified') return []; // never verified, so neither
    const keep =
      standing === 'valid' ? (c: CertificateDto) => c.public_valid : standing === 'not_valid' ? (c: CertificateDto) => !c.public_valid : (c: CertificateDto) => holderMark(c) === standing;
    return dtos.filter(keep).slice(0, input?.limit ?? 200);
  }),

  byId: protectedProcedure.input(certificateByIdInput).query(async ({ ctx, input }) => holderView(ctx, await ownCertificate(ctx, input.id))),

  logs: protectedProcedure.input(certificateByIdInput).query(async ({ ctx, input }) => {
    await ownCertificate(ctx, input.id);
    const rows = await ctx.db.selectFrom('verification_log').selectAll().where('certificate_id', '=', input.id).orderBy('created_at').orderBy('id').execute();
    // Steps logged in the same millisecond keep the pipeline's order (ids are random), as in `attempts`.
    rows.sort((a, b) => a.created_at.localeCompare(b.created_at) || stepOrder(a.verification_step) - stepOrder(b.verification_step));
    return rows.map(toLogDto);
  }),

  /** The verification runs of a certificate, oldest first, each with its own steps (one job = one attempt). */
  attempts: protectedProcedure.input(certificateByIdInput).query(async ({ ctx, input }) => verificationAttempts(ctx.db, await ownCertificate(ctx, input.id))),

  /**
   * The rest of the certificate's history, oldest first: what institutions, the operator and the holder
   * did (an issue, a confirmation request and its withdrawal, a confirmation, a decline, a revocation, a
   * supersede), each with who, when and the transaction (services/certificates/history.ts).
   */
  events: protectedProcedure.input(certificateByIdInput).query(async ({ ctx, input }) => {
    await ownCertificate(ctx, input.id);
    return certificateEvents(ctx.db, input.id);
  }),

  /**
   * The dashboard's counters. The certificates verified on record, by what a verifier's badge reads
   * (holder-mark.ts): Verified only where an institution whose domain is proven signed it; checked by
   * Attesta only; signed by an institution whose domain is not proven (or not checked just now); and
   * not valid now (its institution suspended, expired…).
   */
  stats: protectedProcedure.query(async ({ ctx }): Promise<CertificateStatsDto> => {
    const counts = await ownStats(ctx.db, ctx.session.user.id);
    const rows = await listOwn(ctx.db, ctx.session.user.id, { status: 'verified', limit: counts.verified });
    const standings = await standingsOf(ctx, rows);
    const marks = { verified: 0, platform_checked: 0, domain_not_proven: 0, issuer_unchecked: 0, not_valid: 0 } satisfies Record<HolderMark, number>;
    rows.forEach((r, i) => marks[holderMark({ tier: r.tier as TrustTierName, ...standings[i] })]++);
    return { ...counts, ...marks };
  }),

  /** The seed's Check Status: (re)starts verification of a pending certificate. */
  startVerification: protectedProcedure.input(certificateByIdInput).mutation(async ({ ctx, input }) => {
    const cert = await ownCertificate(ctx, input.id);
    refuseFinal(cert);
    if (cert.verification_status !== 'pending') return { status: cert.verification_status, job_id: null as string | null };
    const job = await queueRerun(ctx, cert.id);
    return { status: cert.verification_status, job_id: job.id as string | null };
  }),

  /** The seed's Try Again: a rejected certificate is verified again from the start. */
  retryVerification: protectedProcedure.input(certificateByIdInput).mutation(async ({ ctx, input }) => {
    const cert = await ownCertificate(ctx, input.id);
    refuseFinal(cert);
    if (cert.verification_status === 'verified') throw new DomainError('BAD_REQUEST', 'This certificate is already verified.');
    const job = await queueRerun(ctx, cert.id);
    return { status: cert.verification_status, job_id: job.id };
  }),

  /**
   * The holder corrects the claimed details (title, institution, program, issue date) of a rejected
   * certificate, or of a pending one no run is working on (content not readable, retries given up):
   * the same file is verified again against them (a re-run: paced per wallet). Verified, revoked and
   * superseded certificates, and one being verified right now, keep their details (CONFLICT).
   *
   * An institution's word covers only the details it was shown: changed details withdraw the open
   * confirmation request (the holder sees it withdrawn and why, the institution's queue drops it, the
   * audit log records it), and the holder asks again with the details as they are now. Withdrawing
   * rather than refusing, because a holder who spotted a mistake must not wait on an institution's
   * answer to details that are wrong. While a confirmation (or the holder's request) is being sent, the
   * details stay as that transaction was checked against (CONFLICT: wait for it).
   */
  updateClaims: protectedProcedure.input(updateClaimsInput).mutation(async ({ ctx, input }) => {
    const cert = await ownCertificate(ctx, input.id);
    const refuse = (message: string) => new DomainError('CONFLICT', message);
    if (cert.verification_status === 'verified') throw refuse('A verified certificate keeps the details it was verified with.');
    refuseFinal(cert);
    const wallet = ctx.session.user.wallet_address;
    const now = new Date().toISOString();
    const reservation = reserveRerun(ctx, ctx.session.user);
    let job;
    try {
      job = await ctx.db.transaction().execute(async (trx) => {
        // The row is held first: a confirmation being checked before its send waits, or is waited for.
        const row = (await lockCertificate(trx, cert.id)) ?? cert;
        // Checked inside the transaction that queues the new run, so two edits cannot both start one.
        const active = await trx.selectFrom('verification_job').select('id').where('certificate_id', '=', cert.id).where('status', 'in', ['queued', 'running']).executeTakeFirst();
        if (active) throw refuse('This certificate is being verified right now. Wait for the result before changing its details.');
        const sending = await trx.selectFrom('wallet_action').select('kind').where('certificate_id', '=', cert.id).where('kind', 'in', ['confirm_certificate', 'request_confirmation']).where('status', '=', 'submitted').executeTakeFirst();
        if (sending) {
          throw refuse(
            sending.kind === 'confirm_certificate'
              ? 'The institution is confirming this certificate right now, on the details it was shown. Wait for its answer before changing them.'
              : 'Your confirmation request is being sent right now. Wait a moment, then change the details (the request is withdrawn, and you ask again).',
          );
        }
        const claimsChange = !sameClaims(claimsOf(row), claimsOf(input));
        const withdrawn = claimsChange
          ? await withdrawOpenRequests(trx, cert.id, 'You changed the certificate’s details after asking; ask again to have the new details confirmed.', now, { actor: { role: 'holder', wallet }, chain: ctx.chain })
          : [];
        const changed = await updateCertificate(
          trx,
          cert.id,
          { ...claimsOf(input), ...AWAITING_VERIFICATION, ...(withdrawn.length ? { requested_issuer: null } : {}), updated_at: now },
          { ifUnchangedSince: cert.updated_at },
        );
        if (!changed) throw refuse('This certificate changed meanwhile. Reload it and try again.');
        for (const r of withdrawn) {
          await appendAudit(trx, { actor_wallet: wallet, actor_role: 'holder', action: 'holder.withdraw_request', target: cert.id, details: { request_id: r.id, issuer: r.issuer_authority, reason: 'details_changed' } });
        }
        return ctx.queue.enqueue(cert.id, trx);
      });
    } catch (e) {
      reservation.release();
      throw e;
    }
    ctx.queue.kick();
    ctx.bus.publish({ certificate_id: cert.id, verification_status: 'pending', step: null, step_status: null, updated_at: now });
    return { certificate: await holderView(ctx, await getCertificate(ctx.db, cert.id)), job_id: job.id };
  }),

  /**
   * Asks an approved institution to confirm the certificate (the holder consents to share the file
   * with it): request_confirmation for the holder's wallet to sign, then `submitConfirmationRequest`.
   */
  requestConfirmation: limitedRequest.input(requestConfirmationInput).mutation(({ ctx, input }) => prepareRequest(ctx, ctx.session.user, input)),

  /** Sends the holder-signed request_confirmation. */
  submitConfirmationRequest: limitedRequest
    .input(submitSignedInput)
    .mutation(({ ctx, input }) => submitAction(ctx, ctx.session.user, input.signedTransaction, { request_confirmation: requestFlow })),

  /** The approved institutions the holder may ask (those the claims name) and this certificate's requests so far (with decline and withdrawal reasons). */
  issuersFor: protectedProcedure.input(issuersForInput).query(async ({ ctx, input }) => {
    const cert = await ownCertificate(ctx, input.id);
    return {
      /** The institution the certificate's claims name: only it (its approved registration) can be asked. */
      claimed_institution: cert.institution_name,
      issuers: await issuersFor(ctx, ctx.session.user, input.id),
      requests: await requestsOfCertificate(ctx, input.id),
    };
  }),

  /** Live status over SSE; the first event is the current state, so reconnects never miss the end. */
  onStatus: protectedProcedure.input(onStatusInput).subscription(async function* ({ ctx, input, signal }) {
    const cert = await ownCertificate(ctx, input.id);
    const events = ctx.bus.subscribe(cert.id, signal);
    const current = await getCertificate(ctx.db, cert.id);
    let n = 0;
    yield tracked(`${cert.id}:${n++}`, { certificate_id: cert.id, verification_status: current.verification_status, step: null as string | null, step_status: null as string | null, updated_at: current.updated_at });
    for await (const e of events) yield tracked(`${cert.id}:${n++}`, e);
  }),
});
