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
export const publicProcedure = t.procedure;
export const createCallerFactory = t.createCallerFactory;

export const protectedProcedure = t.procedure.use(({ ctx, next }) => {
  if (!ctx.session) throw new TRPCError({ code: 'UNAUTHORIZED', message: MESSAGES.notSignedIn });
  return next({ ctx: { ...ctx, session: ctx.session } });
});
