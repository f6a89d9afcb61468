import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CreateFastifyContextOptions } from '@trpc/server/adapters/fastify';
import { SESSION_COOKIE } from '../../shared/constants';
import type { Services } from './services';
import { listenOrigin, localHosts, userForSession } from './services/auth';
import type { UserRow } from './db/schema';

export interface Session {
  user: UserRow;
  tokenHash: string;
}

export interface ContextInner extends Services {
  session: Session | null;
  /**
   * e.g. http://localhost:3000 — for links shown to the user (share links, file and explorer links),
   * never for anything permanent (services/mint/origin.ts) nor the sign-in message (services/auth/origin.ts).
   */
  origin: string;
  /** The authority of `origin`. */
  host: string;
  secure: boolean;
  req?: FastifyRequest;
  res?: FastifyReply;
}
export type Context = ContextInner;

export async function createContextInner(p: Services & { session?: Session | null; origin?: string; host?: string; secure?: boolean; req?: FastifyRequest; res?: FastifyReply }): Promise<Context> {
  const { session, origin, host, secure, ...rest } = p;
  // The rest spread last (see requestContext: properties written after a spread cost a map transition each).
  return {
    session: session ?? null,
    origin: origin ?? p.config.publicOrigin ?? 'http://localhost:3000',
    host: host ?? 'localhost:3000',
    secure: secure ?? false,
    ...rest,
  };
}

/**
 * The origin for links in this request's answers: ATTESTA_PUBLIC_ORIGIN when set; otherwise the
 * address the user opened when it is one of this server's own (localhost, 127.0.0.1, its HOST), so a
 * link works where the user is; a Host header naming anything else (forged, or a proxy's) falls back
 * to the server's listen origin — a sender's Host never appears in a link.
 */
export function requestOrigin(services: Services, req: FastifyRequest): RequestOrigin {
  const secure = req.protocol === 'https';
  const { config } = services;
  // The answer depends on these alone (and the config): worked out once per combination (every
  // tRPC call and public verify asks), at most ORIGIN_MEMO of them kept.
  const key = `${secure ? 's' : ''}|${req.headers.host ?? ''}|${req.socket?.localAddress ?? ''}|${req.socket?.localPort ?? ''}`;
  let memo = originMemo.get(config);
  if (!memo) originMemo.set(config, (memo = new Map()));
  let found = memo.get(key);
  if (!found) {
    found = Object.freeze(originOf(config, req, secure));
    if (memo.size >= ORIGIN_MEMO) memo.clear();
    memo.set(key, found);
  }
  return found;
}

type RequestOrigin = Readonly<{ host: string; secure: boolean; origin: string }>;
const ORIGIN_MEMO = 1000;
const originMemo = new WeakMap<Services['config'], Map<string, RequestOrigin>>();

function originOf(config: Services['config'], req: FastifyRequest, secure: boolean): RequestOrigin {
  if (config.publicOrigin) return { host: new URL(config.publicOrigin).host, secure, origin: config.publicOrigin };
  const host = (req.headers.host ?? '').toLowerCase();
  if (localHosts(config, req).includes(host)) return { host, secure, origin: `${secure ? 'https' : 'http'}://${host}` };
  const origin = listenOrigin(config, req);
  return { host: new URL(origin).host, secure, origin };
}

export async function sessionFromRequest(services: Services, req: FastifyRequest): Promise<Session | null> {
  const token = req.cookies?.[SESSION_COOKIE];
  return token ? userForSession(services.db, token) : null;
}

/** tRPC's context of a request: its session from the cookie, then requestContext. */
export function contextFactory(services: Services) {
  return async ({ req, res }: CreateFastifyContextOptions): Promise<Context> => {
    const session = req.cookies?.[SESSION_COOKIE] ? await sessionFromRequest(services, req) : null;
    return requestContext(services, req, session, res);
  };
}

/**
 * The context of a request whose caller is `session` (tRPC's above; REST's, signed in by a key or
 * token): built as one object, no intermediate copies (this runs for every call). The services are
 * spread last: V8 gives each property written after a spread of an object this size a map transition
 * of its own (13 µs for the six here, measured), while spreading into the literal is one copy (0.4 µs).
 */
export function requestContext(services: Services, req: FastifyRequest, session: Session | null, res?: FastifyReply): Context {
  const { origin, host, secure } = requestOrigin(services, req);
  return { session, origin, host, secure, req, res, ...services };
}
