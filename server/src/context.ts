import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CreateFastifyContextOptions } from '@trpc/server/adapters/fastify';
import { SESSION_COOKIE } from '../../shared/constants';
import type { Services } from './services';
import { userForSession } from './services/auth';
import type { UserRow } from './db/schema';

export interface Session {
  user: UserRow;
  tokenHash: string;
}

export interface ContextInner extends Services {
  session: Session | null;
  /** e.g. http://localhost:3000 — for links and the sign-in message. */
  origin: string;
  host: string;
  secure: boolean;
  req?: FastifyRequest;
  res?: FastifyReply;
}
export type Context = ContextInner;

export async function createContextInner(p: Services & { session?: Session | null; origin?: string; host?: string; secure?: boolean; req?: FastifyRequest; res?: FastifyReply }): Promise<Context> {
  return {
    ...p,
    session: p.session ?? null,
    origin: p.origin ?? p.config.publicOrigin ?? 'http://localhost:3000',
    host: p.host ?? 'localhost:3000',
    secure: p.secure ?? false,
  };
}

export function requestOrigin(services: Services, req: FastifyRequest) {
  const host = req.headers.host ?? `localhost:${services.config.port}`;
  const secure = req.protocol === 'https';
  return { host, secure, origin: services.config.publicOrigin ?? `${secure ? 'https' : 'http'}://${host}` };
}

export async function sessionFromRequest(services: Services, req: FastifyRequest): Promise<Session | null> {
  const token = req.cookies?.[SESSION_COOKIE];
  return token ? userForSession(services.db, token) : null;
}

export function contextFactory(services: Services) {
  return async ({ req, res }: CreateFastifyContextOptions): Promise<Context> => {
    const session = await sessionFromRequest(services, req);
    return createContextInner({ ...services, session, ...requestOrigin(services, req), req, res });
  };
}
