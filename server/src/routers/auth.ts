import { SESSION_COOKIE } from '../../../shared/constants';
import { nonceInput, signInInput } from '../../../shared/schemas/auth';
import { toUserDto } from '../services/certificates/dto';
import { issueNonce, limitNonceByWallet, limitSignInByClient, signIn, signInChainId, signInDomainFor, signInExpectation, signOut, type SignInStep } from '../services/auth';
import { rolesOf } from '../services/issuers/roles';
import { protectedProcedure, publicProcedure, router } from '../trpc';

/** Rate-limited per client address before the input is parsed: malformed floods count too. */
const limited = (step: SignInStep) =>
  publicProcedure.use(({ ctx, next }) => {
    limitSignInByClient(ctx, step);
    return next();
  });

export const authRouter = router({
  /** A fresh sign-in message naming this server (not the request's Host) for the wallet to sign (single use, 5 minutes). */
  nonce: limited('nonce')
    .input(nonceInput)
    .mutation(({ ctx, input }) => {
      const { domain, uri } = signInDomainFor(ctx.config, ctx.req);
      limitNonceByWallet(ctx, input.address);
      return issueNonce(ctx.db, { address: input.address, domain, uri, chainId: signInChainId(ctx.config) });
    }),

  signIn: limited('signIn').input(signInInput).mutation(async ({ ctx, input }) => {
    // A session held before is replaced (rotated), never reused.
    const { user, token, expiresAt } = await signIn(ctx.db, { ...input, expect: signInExpectation(ctx.config, ctx.req), replaceTokenHash: ctx.session?.tokenHash });
    ctx.res?.setCookie(SESSION_COOKIE, token, { httpOnly: true, sameSite: 'lax', path: '/', secure: ctx.secure, expires: new Date(expiresAt) });
    return { user: toUserDto(user) };
  }),

  /** The signed-in user with their roles (issuer: the on-chain Issuer account; operator: ATTESTA_OPERATOR_WALLETS), or null. */
  me: publicProcedure.query(async ({ ctx }) => {
    if (ctx.session) return { ...toUserDto(ctx.session.user), roles: await rolesOf(ctx, ctx.session.user.wallet_address) };
    // A cookie that is not a live stored session (expired, signed out, or planted) is cleared, never adopted.
    if (ctx.req?.cookies?.[SESSION_COOKIE]) ctx.res?.clearCookie(SESSION_COOKIE, { path: '/' });
    return null;
  }),

  signOut: protectedProcedure.mutation(async ({ ctx }) => {
    await signOut(ctx.db, ctx.session.tokenHash);
    ctx.res?.clearCookie(SESSION_COOKIE, { path: '/' });
    return { success: true };
  }),
});
