import { chatInput, chatOutput, contactInput, feedbackInput } from '../../../shared/schemas/support';
import { domainErrorOf } from '../lib/errors';
import { SUPPORT_LIMITS } from '../services/support';
import { clientKey, type RateLimit } from '../services/support/rate-limit';
import { publicProcedure, router } from '../trpc';

// Support chat, contact and feedback: public, rate-limited per client address, and every provider
// credential stays on the server (config.ts: config.support).

const withSupport = publicProcedure.use(async ({ ctx, next, path }) => {
  const result = await next();
  // Provider failures are not INTERNAL_SERVER_ERRORs (app.ts logs only those), but operators need them.
  const refusal = result.ok ? null : domainErrorOf(result.error);
  if (refusal && (refusal.code === 'BAD_GATEWAY' || refusal.code === 'GATEWAY_TIMEOUT')) {
    ctx.req?.log.warn({ path, err: refusal.cause ?? refusal }, 'support provider call failed');
  }
  return result;
});

/** Checked before the input is parsed: malformed floods count against the limit too. */
const limited = (name: keyof typeof SUPPORT_LIMITS, limit: RateLimit = SUPPORT_LIMITS[name]) =>
  withSupport.use(({ ctx, next }) => {
    // req.ip honours TRUST_PROXY (X-Forwarded-For only behind a configured proxy). No request: an in-process caller.
    ctx.support.limiter.consume(`${name}:${clientKey(ctx.req?.ip)}`, limit);
    return next();
  });

export const supportRouter = router({
  chat: limited('chat')
    .input(chatInput)
    .output(chatOutput)
    .mutation(async ({ ctx, input }) => ({ reply: await ctx.support.chat(input.messages) })),

  contact: limited('contact')
    .input(contactInput)
    .mutation(async ({ ctx, input }) => {
      await ctx.support.outbox.submitContact(input);
      return { ok: true as const };
    }),

  feedback: limited('feedback')
    .input(feedbackInput)
    .mutation(async ({ ctx, input }) => {
      await ctx.support.outbox.submitFeedback({ message: input.message, category: input.category, userEmail: input.userEmail || null });
      return { ok: true as const };
    }),
});
