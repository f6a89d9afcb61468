import { initTRPC, TRPCError } from '@trpc/server';
import { z, ZodError } from 'zod';
import { MESSAGES } from '../../shared/constants';
import type { Context } from './context';

const t = initTRPC.context<Context>().create({
  errorFormatter({ shape, error }) {
    const zodError = error.cause instanceof ZodError ? error.cause : null;
    return {
      ...shape,
      // The first issue's message is the one the form shows (e.g. 'Title is required').
      message: zodError ? (zodError.issues[0]?.message ?? shape.message) : shape.message,
      data: { ...shape.data, stack: undefined, zodError: zodError ? z.flattenError(zodError) : null },
    };
  },
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/** A NUL character anywhere in an input (strings, object keys, form fields, file names). */
function hasNul(v: unknown, depth = 0): boolean {
  if (typeof v === 'string') return v.includes('\0');
  if (depth > 32 || v === null || typeof v !== 'object') return false;
  if (typeof File !== 'undefined' && v instanceof File) return v.name.includes('\0');
  if (v instanceof FormData) return [...v.entries()].some(([k, x]) => k.includes('\0') || hasNul(x, depth + 1));
  return Object.entries(v).some(([k, x]) => k.includes('\0') || hasNul(x, depth + 1));
}

// PostgreSQL text cannot hold NUL (SQLite can): refused up front on both, as bad input, before
// anything is read or written — otherwise it was a 500 from the database on PostgreSQL.
const noNul = t.middleware(async ({ getRawInput, next }) => {
  const raw = await getRawInput().catch(() => undefined);
  if (hasNul(raw)) throw new TRPCError({ code: 'BAD_REQUEST', message: 'Text must not contain NUL characters (\\u0000).' });
  return next();
});

export const publicProcedure = t.procedure.use(noNul);

export const protectedProcedure = t.procedure
  .use(({ ctx, next }) => {
    if (!ctx.session) throw new TRPCError({ code: 'UNAUTHORIZED', message: MESSAGES.notSignedIn });
    return next({ ctx: { ...ctx, session: ctx.session } });
  })
  .use(noNul);
