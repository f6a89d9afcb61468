import { issueCertificateInput, declineInput, listIssuedInput, listRequestsInput, registerIssuerInput, requestByIdInput, revokeByIssuerInput, submitSignedInput } from '../../../shared/schemas/institutions';
import { issuedCertificates } from '../services/issuers/certificates';
import { INSTITUTION_FLOWS } from '../services/issuers/flows';
import { prepareIssue } from '../services/issuers/issue';
import { checkDomain, issuerMe, prepareRegister } from '../services/issuers/profile';
import { declineRequest, listRequests, prepareConfirm } from '../services/issuers/requests';
import { prepareIssuerRevoke } from '../services/issuers/revoke';
import { issuerOf } from '../services/issuers/roles';
import { submitAction } from '../services/wallet-tx/actions';
import { protectedProcedure, router } from '../trpc';

// The institution portal (notes/institutions-design.md). Every wallet-signed step is prepare (here:
// register, issue, confirm, revoke) → the institution's wallet signs → `submit`. A wallet without an
// Issuer account on chain is refused (FORBIDDEN) everywhere but `me`, `register` and `submit` (its
// registration is its first signed step); another institution's requests and certificates are not found.

/** Signed in and counted against the wallet's institution-action budget (like sign-in). */
const limited = protectedProcedure.use(({ ctx, next }) => {
  ctx.institutionLimiter.take(ctx.session.user.wallet_address);
  return next();
});

/** A registered institution (any status: a pending one sees its portal; acting needs approval). */
const issuerProcedure = protectedProcedure.use(async ({ ctx, next }) => {
  await issuerOf(ctx, ctx.session.user);
  return next();
});
const limitedIssuer = issuerProcedure.use(({ ctx, next }) => {
  ctx.institutionLimiter.take(ctx.session.user.wallet_address);
  return next();
});

export const issuerRouter = router({
  /** The caller's institution (status, domain proof and what to publish), or null when it has none. */
  me: protectedProcedure.query(({ ctx }) => issuerMe(ctx, ctx.session.user)),

  /** Prepares register_issuer (name, domain) for the wallet to sign; the platform pays. */
  register: protectedProcedure
    .use(({ ctx, next }) => {
      ctx.institutionLimiter.take(ctx.session.user.wallet_address, ctx.req ? { ip: ctx.req.ip } : undefined);
      return next();
    })
    .input(registerIssuerInput)
    .mutation(({ ctx, input }) => prepareRegister(ctx, ctx.session.user, input)),

  /** Checks the domain proof now (DNS TXT or HTTPS well-known file) and stores the outcome. */
  checkDomain: limitedIssuer.mutation(({ ctx }) => checkDomain(ctx, ctx.session.user)),

  /** FormData: title, program_name, issue_date, holder_wallet, expires_on?, certificate_file → issue_certificate to sign. */
  issue: limitedIssuer.input(issueCertificateInput).mutation(({ ctx, input }) => prepareIssue(ctx, ctx.session.user, input)),

  /** The queue of confirmation requests addressed to the institution. */
  requests: issuerProcedure.input(listRequestsInput).query(({ ctx, input }) => listRequests(ctx, ctx.session.user, ctx.origin, input?.status ?? 'open')),

  /** Prepares confirm_certificate for an open request. */
  confirm: limitedIssuer.input(requestByIdInput).mutation(({ ctx, input }) => prepareConfirm(ctx, ctx.session.user, input.requestId)),

  /** Declines an open request with a reason the holder reads (off chain). */
  decline: limitedIssuer.input(declineInput).mutation(({ ctx, input }) => declineRequest(ctx, ctx.session.user, input)),

  /** Prepares revoke_certificate (reason + off-chain note) for a certificate it issued, confirmed or was asked about. */
  revoke: limitedIssuer.input(revokeByIssuerInput).mutation(({ ctx, input }) => prepareIssuerRevoke(ctx, ctx.session.user, input)),

  /** Sends a prepared register/issue/confirm/revoke transaction the institution's wallet signed. */
  submit: limited.input(submitSignedInput).mutation(({ ctx, input }) => submitAction(ctx, ctx.session.user, input.signedTransaction, INSTITUTION_FLOWS)),

  /** Certificates it issued or confirmed, with a search, a status filter and counts. */
  certificates: issuerProcedure.input(listIssuedInput).query(({ ctx, input }) => issuedCertificates(ctx, ctx.session.user, ctx.origin, input ?? {})),
});
