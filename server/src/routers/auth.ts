import { SESSION_COOKIE } from '../../../shared/constants';
import { nonceInput, signInInput } from '../../../shared/schemas/auth';
import { toUserDto } from '../services/certificates/dto';
import { issueNonce, signIn, signOut } from '../services/auth';
import { protectedProcedure, publicProcedure, router } from '../trpc';

export const authRouter = router({
  /** A fresh sign-in message for the wallet to sign (single use, 5 minutes). */
  nonce: publicProcedure.input(nonceInput).mutation(({ ctx, input }) =>
    issueNonce(ctx.db, { address: input.address, domain: ctx.host, uri: ctx.origin }),
  ),

  signIn: publicProcedure.input(signInInput).mutation(async ({ ctx, input }) => {
    const { user, token, expiresAt } = await signIn(ctx.db, input);
    ctx.res?.setCookie(SESSION_COOKIE, token, { httpOnly: true, sameSite: 'lax', path: '/', secure: ctx.secure, expires: new Date(expiresAt) });
    return { user: toUserDto(user) };
  }),

  me: publicProcedure.query(({ ctx }) => (ctx.session ? toUserDto(ctx.session.user) : null)),

  signOut: protectedProcedure.mutation(async ({ ctx }) => {
    await signOut(ctx.db, ctx.session.tokenHash);
    ctx.res?.clearCookie(SESSION_COOKIE, { path: '/' });
    return { success: true };
  }),
});
