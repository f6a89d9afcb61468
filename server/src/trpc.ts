import { initTRPC, TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import { z, ZodError } from 'zod';
import { MESSAGES } from '../../shared/constants';
import type { Context } from './context';
import { DomainError } from './lib/errors';
import { hasNul, NUL_MESSAGE } from './lib/nul';

/** The tRPC edge's view of a domain refusal: same code and message, the domain error as its cause. */
const toTRPCError = (e: DomainError) => new TRPCError({ code: e.code, message: e.message, cause: e });

const t = initTRPC.context<Context>().create({
  errorFormatter({ shape, error }) {
    const zodError = error.cause instanceof ZodError ? error.cause : null;
    // A domain refusal thrown where the middleware below cannot see it (inside a subscription's
    // stream) is shaped here the same way.
    const domain = error.code === 'INTERNAL_SERVER_ERROR' && error.cause instanceof DomainError ? toTRPCError(error.cause) : null;
    // The certificate a refusal is about, for the caller to open (a duplicate upload: the owner's own).
    const certificateId = error.cause instanceof DomainError ? error.cause.certificateId : undefined;
    return {
      ...shape,
      ...(domain ? { code: TRPC_ERROR_CODES_BY_KEY[domain.code] } : {}),
      // The first issue's message is the one the form shows (e.g. 'Title is required').
      message: zodError ? (zodError.issues[0]?.message ?? shape.message) : (domain?.message ?? shape.message),
      data: {
        ...shape.data,
        ...(domain ? { code: domain.code, httpStatus: getHTTPStatusCodeFromError(domain) } : {}),
        stack: undefined,
        zodError: zodError ? z.flattenError(zodError) : null,
        ...(certificateId ? { certificateId } : {}),
      },
    };
  },
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

// NUL in any input is refused before anything is read or written (lib/nul.ts).
const noNul = t.middleware(async ({ getRawInput, next }) => {
  const raw = await getRawInput().catch(() => undefined);
  if (hasNul(raw)) throw new TRPCError({ code: 'BAD_REQUEST', message: NUL_MESSAGE });
  return next();
});

/**
 * Services throw DomainError (lib/errors.ts): here it becomes the TRPCError of the same code and
 * message, and a refusal with `retryAfterSec` sets Retry-After on the reply.
 */
function translated<R extends { ok: boolean; error?: { cause?: unknown } }>(ctx: Context, result: R): R {
  if (!result.ok && result.error?.cause instanceof DomainError) {
    const e = result.error.cause;
    if (e.retryAfterSec !== undefined) ctx.res?.header('retry-after', String(e.retryAfterSec));
    throw toTRPCError(e);
  }
  return result;
}
const domainErrors = t.middleware(async ({ ctx, next }) => translated(ctx, await next()));

const procedure = t.procedure.use(domainErrors);

/**
 * domainErrors and noNul as one middleware: every public call (the app's most frequent) goes through
 * one step fewer of tRPC's middleware chain, which copies the call's options at each step.
 */
const publicGuard = t.middleware(async ({ ctx, getRawInput, next }) => {
  const raw = await getRawInput().catch(() => undefined);
  if (hasNul(raw)) throw new TRPCError({ code: 'BAD_REQUEST', message: NUL_MESSAGE });
  return translated(ctx, await next());
});

export const publicProcedure = t.procedure.use(publicGuard);

export const protectedProcedure = procedure
  .use(({ ctx, next }) => {
    if (!ctx.session) throw new TRPCError({ code: 'UNAUTHORIZED', message: MESSAGES.notSignedIn });
    return next({ ctx: { session: ctx.session } }); // tRPC merges it into the context
  })
  .use(noNul);
