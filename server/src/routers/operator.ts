import { auditInput, operatorIssuersInput, operatorRevokeInput, operatorRevokePreviewInput, setIssuerStatusInput } from '../../../shared/schemas/institutions';
import { operatorRevoke, operatorRevokePreview } from '../services/issuers/revoke';
import { requireOperator } from '../services/issuers/roles';
import { auditLog, listIssuers, setIssuerStatus } from '../services/operator';
import { protectedProcedure, router } from '../trpc';

// The operator console: only wallets listed in ATTESTA_OPERATOR_WALLETS (anyone else: FORBIDDEN).
// On-chain actions are signed by the server's operator key (the registry admin).

const operatorProcedure = protectedProcedure.use(({ ctx, next }) => {
  requireOperator(ctx, ctx.session.user);
  return next();
});
const limited = operatorProcedure.use(({ ctx, next }) => {
  ctx.institutionLimiter.take(ctx.session.user.wallet_address);
  return next();
});

export const operatorRouter = router({
  /** Issuers by status, pending first, with their domain proof. */
  issuers: operatorProcedure.input(operatorIssuersInput).query(({ ctx, input }) => listIssuers(ctx, input?.status ?? 'all')),
  /** Approve (needs a proven domain) or suspend an issuer: set_issuer_status. */
  setStatus: limited.input(setIssuerStatusInput).mutation(({ ctx, input }) => setIssuerStatus(ctx, ctx.session.user, input)),
  /** The certificate a fraud revocation would revoke, shown to the operator before it confirms (or the refusal). */
  revokePreview: operatorProcedure.input(operatorRevokePreviewInput).query(({ ctx, input }) => operatorRevokePreview(ctx, input.id)),
  /** Revokes any certificate for fraud (revoked_fraud), with a note. */
  revoke: limited.input(operatorRevokeInput).mutation(({ ctx, input }) => operatorRevoke(ctx, ctx.session.user, input)),
  /** The audit log, newest first, paged (`next` is the cursor of the following page). */
  audit: operatorProcedure.input(auditInput).query(({ ctx, input }) => auditLog(ctx, input ?? {})),
});
