import { DomainError } from '../../lib/errors';
import type { FastifyRequest } from 'fastify';
import type { SignInChainId, SignInMessageFields } from '../../../../shared/schemas/auth';
import { SIGN_IN_NONCE_TTL_MS } from '../../../../shared/constants';
import type { Config } from '../../config';

// Where this server is, for the sign-in message and for links. The request's Host header is chosen
// by whoever sends the request (a phishing site relaying to us sends its own), so it is never taken
// on trust: ATTESTA_PUBLIC_ORIGIN when set; otherwise only this server's own local addresses.

type OriginConfig = Pick<Config, 'host' | 'port' | 'publicOrigin' | 'chain'>;

const LOOPBACK_HOST = /^(localhost|127\.\d+\.\d+\.\d+|\[?::1\]?)$/i;
const WILDCARD_HOST = /^(0\.0\.0\.0|::|\[::\])$/;

/** True when SOLANA_RPC_URL points at this machine (a local validator, another embedded server). */
export function isLocalChain(config: Pick<Config, 'chain'>): boolean {
  if (config.chain.mode === 'embedded') return true;
  try {
    return LOOPBACK_HOST.test(new URL(config.chain.rpcUrl).hostname);
  } catch {
    return false;
  }
}

/** The port this server listens on (the connection's own port: PORT=0 picks one at listen). */
export function listenPort(config: Pick<Config, 'port'>, req?: FastifyRequest): number {
  return req?.socket?.localPort || config.port;
}

const bracket = (h: string) => (h.includes(':') && !h.startsWith('[') ? `[${h}]` : h);
const authority = (host: string, port: number) => (port === 80 ? host : `${host}:${port}`);

/**
 * The server's own configured listen origin, http://<HOST>:<PORT>, with `localhost` for a loopback or
 * wildcard HOST (the address a developer opens after `npm start`).
 */
export function listenOrigin(config: Pick<Config, 'host' | 'port'>, req?: FastifyRequest): string {
  const host = LOOPBACK_HOST.test(config.host) || WILDCARD_HOST.test(config.host) ? 'localhost' : bracket(config.host.toLowerCase());
  return `http://${authority(host, listenPort(config, req))}`;
}

/**
 * Without ATTESTA_PUBLIC_ORIGIN: the hosts (authority, lower case) that are this server — localhost,
 * 127.0.0.1 and [::1] on its port, its HOST, and the address the connection actually reached. A
 * message naming one of them cannot be shown by a phishing site as its own.
 */
export function localHosts(config: Pick<Config, 'host' | 'port'>, req?: FastifyRequest): string[] {
  const port = listenPort(config, req);
  const names = new Set(['localhost', '127.0.0.1', '[::1]']);
  if (!WILDCARD_HOST.test(config.host)) names.add(bracket(config.host.toLowerCase()));
  const local = req?.socket?.localAddress?.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  if (local) names.add(bracket(local.toLowerCase()));
  return [...names].map((h) => authority(h, port));
}

/** The origins sign-in messages may name: ATTESTA_PUBLIC_ORIGIN alone, or this server's local ones. */
export function signInOrigins(config: OriginConfig, req?: FastifyRequest): string[] {
  if (config.publicOrigin) return [new URL(config.publicOrigin).origin];
  return localHosts(config, req).map((h) => `http://${h}`);
}

/**
 * The Chain ID written into sign-in messages: `localnet` for the embedded chain and validators on
 * this machine, the public cluster's name for its RPC URL; none when the cluster cannot be named
 * from the URL (a provider's endpoint): then the message carries no Chain ID rather than a guess.
 */
export function signInChainId(config: Pick<Config, 'chain'>): SignInChainId | undefined {
  if (isLocalChain(config)) return 'localnet';
  if (config.chain.mode !== 'rpc') return undefined;
  const m = /^https:\/\/api\.(mainnet-beta|devnet|testnet)\.solana\.com\/?$/.exec(config.chain.rpcUrl);
  if (!m) return undefined;
  return m[1] === 'mainnet-beta' ? 'mainnet' : (m[1] as SignInChainId);
}

export const SIGN_IN_ORIGIN_MESSAGES = {
  /** A nonce asked for through a Host that is not this server (without ATTESTA_PUBLIC_ORIGIN). */
  unknownHost: (allowed: string[]) =>
    `Sign-in is only available at ${allowed.slice(0, 2).join(' or ')} on this server. ` +
    'To serve Attesta at another address, set ATTESTA_PUBLIC_ORIGIN to its public URL (for example https://attesta.example) and restart the server.',
  otherSite: 'This sign-in message was made for another site. Please sign in again from this site.',
  otherChain: 'This sign-in message is for another Solana network. Please sign in again.',
  badTimes: 'The times in this sign-in message are not valid. Please sign in again.',
} as const;

/**
 * Domain and URI for a new sign-in message. With ATTESTA_PUBLIC_ORIGIN: always that origin. Without:
 * the Host the request came to when it is one of this server's own (so the wallet sees the address
 * the user opened), else a 400 saying to set ATTESTA_PUBLIC_ORIGIN — never a message naming that Host.
 */
export function signInDomainFor(config: OriginConfig, req?: FastifyRequest): { domain: string; uri: string } {
  if (config.publicOrigin) {
    const u = new URL(config.publicOrigin);
    return { domain: u.host, uri: config.publicOrigin };
  }
  if (!req) {
    const origin = listenOrigin(config);
    return { domain: new URL(origin).host, uri: origin };
  }
  const hosts = localHosts(config, req);
  const host = (req.headers.host ?? '').toLowerCase();
  if (!hosts.includes(host)) throw new DomainError('BAD_REQUEST', SIGN_IN_ORIGIN_MESSAGES.unknownHost(hosts.map((h) => `http://${h}`)));
  return { domain: host, uri: `http://${host}` };
}

/** What a sign-in message must say to be accepted here (besides the nonce, which the database holds). */
export interface SignInExpectation {
  origins: string[];
  chainId: SignInChainId | undefined;
}

export function signInExpectation(config: OriginConfig, req?: FastifyRequest): SignInExpectation {
  return { origins: signInOrigins(config, req), chainId: signInChainId(config) };
}

/** Clock difference tolerated on Issued At (our own clock wrote it; a second server's may differ a little). */
const CLOCK_SKEW_MS = 60_000;

/**
 * The EIP-4361 / SIWS checks a verifier makes on the parsed message: the domain and URI are this
 * server's, the URI's authority is the domain, the chain is ours (when the message names one), and
 * Issued At / Expiration Time are well-formed, in order, unexpired and no longer apart than a nonce
 * lives. Null when fine, else the reason to refuse.
 */
export function checkSignInFields(f: SignInMessageFields, expect: SignInExpectation, now: number): string | null {
  let uri: URL;
  try {
    uri = new URL(f.uri);
  } catch {
    return SIGN_IN_ORIGIN_MESSAGES.otherSite;
  }
  if (uri.host !== f.domain.toLowerCase() || !expect.origins.includes(uri.origin) || uri.username || uri.password) return SIGN_IN_ORIGIN_MESSAGES.otherSite;
  if (f.chainId !== undefined && f.chainId !== expect.chainId) return SIGN_IN_ORIGIN_MESSAGES.otherChain;
  const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
  if (!iso.test(f.issuedAt) || !iso.test(f.expirationTime)) return SIGN_IN_ORIGIN_MESSAGES.badTimes;
  const issued = Date.parse(f.issuedAt);
  const expires = Date.parse(f.expirationTime);
  if (!Number.isFinite(issued) || !Number.isFinite(expires)) return SIGN_IN_ORIGIN_MESSAGES.badTimes;
  if (issued > now + CLOCK_SKEW_MS || expires <= issued || expires - issued > SIGN_IN_NONCE_TTL_MS) return SIGN_IN_ORIGIN_MESSAGES.badTimes;
  return null;
}
