import type { FastifyInstance } from 'fastify';
import { isIP } from 'node:net';
import type { Config } from '../config';
import type { Services } from '../services';
import { DEV_ACCOUNTS_PATH } from '../../../shared/schemas/dev-accounts';

// GET /api/dev/accounts: the development wallet's named accounts (services/demo/accounts.ts) with their
// secret keys, for the connect dialog of a browser on this machine. Registered only on the embedded chain
// (config.devAccounts): elsewhere the route does not exist (404). It answers only when everything says
// the caller is a person on this machine, and 403 with the reason otherwise:
// - the TCP peer is a loopback address (not a header: X-Forwarded-For is never believed here);
// - the request carries no forwarding header at all (X-Forwarded-*, Forwarded, X-Real-IP, Via…): a proxy
//   on this machine would make every visitor's peer loopback;
// - TRUST_PROXY is off and ATTESTA_PUBLIC_ORIGIN (if set) is a loopback origin: a server that says it
//   sits behind a proxy, or is published under a public name, hands these keys to nobody;
// - the Host header (and Origin, when sent) name a loopback host: a page that rebinds its own domain to
//   127.0.0.1 (DNS rebinding) sends its own name, and a proxy usually passes the public one.

export { DEV_ACCOUNTS_PATH };

const FORWARDING_HEADERS = ['x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port', 'forwarded', 'x-real-ip', 'via', 'x-client-ip', 'true-client-ip', 'cf-connecting-ip', 'fastly-client-ip', 'x-cluster-client-ip'];

/** 127.0.0.0/8, ::1, and IPv4-mapped 127.x. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.toLowerCase().replace(/^::ffff:/, '');
  if (isIP(a) === 4) return a.startsWith('127.');
  return a === '::1' || a === '0:0:0:0:0:0:0:1';
}

/** A Host header value (host[:port]) naming this machine: localhost, 127.x.y.z or [::1]. */
export function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  const m = /^(\[[^\]]+\]|[^:]+)(?::(\d{1,5}))?$/.exec(host.trim().toLowerCase());
  if (!m) return false;
  const name = m[1].replace(/^\[|\]$/g, '');
  return name === 'localhost' || (isIP(name) !== 0 && isLoopbackAddress(name));
}

function loopbackOrigin(origin: string): boolean {
  try {
    const u = new URL(origin);
    return (u.protocol === 'http:' || u.protocol === 'https:') && isLoopbackHost(u.host);
  } catch {
    return false;
  }
}

/** Why this request may not have the keys, or null when it may. */
export function refusal(config: Pick<Config, 'trustProxy' | 'publicOrigin'>, req: { headers: Record<string, string | string[] | undefined>; socket: { remoteAddress?: string } }): string | null {
  if (config.trustProxy !== false) return 'This server runs behind a proxy (TRUST_PROXY), so it cannot tell a visitor on this machine from anyone else: development accounts are off.';
  if (config.publicOrigin && !loopbackOrigin(config.publicOrigin)) return `This server is published as ${config.publicOrigin}: development accounts are served only to a browser on this machine of a server that is not.`;
  const forwarded = FORWARDING_HEADERS.filter((h) => req.headers[h] !== undefined);
  if (forwarded.length) return `Development accounts are served only to a browser on this machine, not through a proxy (the request carries ${forwarded.join(', ')}).`;
  if (!isLoopbackAddress(req.socket.remoteAddress)) return 'Development accounts are served only to a browser on this machine (a loopback connection).';
  if (typeof req.headers.host !== 'string' || !isLoopbackHost(req.headers.host)) return 'Development accounts are served only at a loopback address (open the app at http://localhost:<port>).';
  const origin = req.headers.origin;
  if (origin !== undefined && (typeof origin !== 'string' || !loopbackOrigin(origin))) return 'Development accounts are not served to another site.';
  if (req.headers['sec-fetch-site'] === 'cross-site') return 'Development accounts are not served to another site.';
  return null;
}

export function registerDevAccountsRoute(app: FastifyInstance, svc: Pick<Services, 'config' | 'devAccounts'>) {
  const accounts = svc.devAccounts;
  if (!accounts) return;
  app.get(DEV_ACCOUNTS_PATH, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    const why = refusal(svc.config, req.raw);
    if (why) return reply.code(403).send({ error: why });
    return { accounts: accounts.list() };
  });
}
