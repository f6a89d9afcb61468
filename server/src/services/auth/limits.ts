import { TRPCError } from '@trpc/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { clientKey } from '../support/rate-limit';

// Sign-in rate limits: token buckets per client address (nonces and sign-ins, each its own bucket)
// and per (wallet, client address) for nonces, in memory like the support limits
// (services/support/rate-limit.ts). Signatures cannot be guessed, so this is not about brute force: it
// bounds the nonce rows and the signature checks one client can cause (every sign-in attempt, good or
// bad, takes from the client's bucket, so no client tries more than `perIp` signatures per window,
// whichever wallets they are for). A session lasts 30 days, so a person needs very few.
//
// The wallet bucket is keyed by the client too: a nonce request proves nothing about who asks, so a
// bucket per wallet alone let anyone lock the owner out (ten requests naming the victim's address →
// the victim's own sign-in got 429). Now a stranger only empties their own (wallet, client) bucket.

export interface SignInLimits {
  /** Nonce requests, and separately sign-in submissions, per client address per window. */
  perIp: number;
  /** Nonce requests per wallet address per client address per window. */
  perWallet: number;
  windowMs: number;
}

/** 60 per 10 minutes per address is a school or office behind one NAT signing in at once. */
export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = { perIp: 60, perWallet: 10, windowMs: 10 * 60_000 };

/**
 * SIGN_IN_RATE_LIMIT_PER_IP, SIGN_IN_RATE_LIMIT_PER_WALLET, SIGN_IN_RATE_LIMIT_WINDOW_SEC from the
 * server's environment (config.env). Invalid values stop the start, naming the variable.
 */
export function loadSignInLimits(env: Record<string, string | undefined> = {}): SignInLimits {
  const read = (name: string, def: number) => {
    const raw = env[name];
    if (raw === undefined || raw === '') return def;
    const v = Number(raw);
    if (!Number.isInteger(v) || v < 1) throw new Error(`Invalid configuration: ${name} must be a positive integer (got "${raw}")`);
    return v;
  };
  return {
    perIp: read('SIGN_IN_RATE_LIMIT_PER_IP', DEFAULT_SIGN_IN_LIMITS.perIp),
    perWallet: read('SIGN_IN_RATE_LIMIT_PER_WALLET', DEFAULT_SIGN_IN_LIMITS.perWallet),
    windowMs: read('SIGN_IN_RATE_LIMIT_WINDOW_SEC', DEFAULT_SIGN_IN_LIMITS.windowMs / 1000) * 1000,
  };
}

interface Bucket {
  tokens: number;
  at: number;
}

export class SignInLimiter {
  private readonly buckets = new Map<string, Bucket>();
  /** The clock; tests replace it to move time instead of sleeping. */
  now: () => number = Date.now;

  constructor(
    readonly limits: SignInLimits,
    private readonly maxKeys = 50_000,
  ) {}

  /** Takes one token from `key` (capacity refilled evenly over the window); when empty, ms until the next one. */
  take(key: string, capacity: number): { ok: true } | { ok: false; retryAfterMs: number } {
    const t = this.now();
    const rate = capacity / this.limits.windowMs;
    const b = this.buckets.get(key);
    const tokens = b ? Math.min(capacity, b.tokens + Math.max(0, t - b.at) * rate) : capacity;
    if (tokens < 1) {
      this.buckets.set(key, { tokens, at: t });
      return { ok: false, retryAfterMs: Math.ceil((1 - tokens) / rate) };
    }
    if (!b && this.buckets.size >= this.maxKeys) this.sweep(t);
    this.buckets.set(key, { tokens: tokens - 1, at: t });
    return { ok: true };
  }

  /** Refilled buckets carry no state; a flood of distinct keys loses its oldest half rather than grow. */
  private sweep(t: number) {
    for (const [k, b] of this.buckets) if (t - b.at >= this.limits.windowMs) this.buckets.delete(k);
    if (this.buckets.size >= this.maxKeys) {
      let n = Math.floor(this.buckets.size / 2);
      for (const k of this.buckets.keys()) {
        if (n-- <= 0) break;
        this.buckets.delete(k);
      }
    }
  }
}

// One limiter per database handle: the server has one, each test server its own.
const limiters = new WeakMap<object, SignInLimiter>();

export function signInLimiterFor(db: Kysely<any>, env: Record<string, string | undefined> = {}): SignInLimiter {
  let l = limiters.get(db);
  if (!l) {
    l = new SignInLimiter(loadSignInLimits(env));
    limiters.set(db, l);
  }
  return l;
}

export type SignInStep = 'nonce' | 'signIn';

interface LimitContext {
  db: Kysely<any>;
  config: { env: Record<string, string | undefined> };
  req?: FastifyRequest;
  res?: FastifyReply;
}

function refuse(ctx: LimitContext, retryAfterMs: number, wallet: boolean): never {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  ctx.res?.header('retry-after', String(seconds));
  throw new TRPCError({
    code: 'TOO_MANY_REQUESTS',
    message: `Too many sign-in attempts${wallet ? ' for this wallet' : ''}. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
  });
}

/**
 * Counts one attempt of `step` for the calling client (req.ip honours TRUST_PROXY) and throws
 * TOO_MANY_REQUESTS when its bucket is empty. In-process callers (no request) are not limited.
 */
export function limitSignInByClient(ctx: LimitContext, step: SignInStep): void {
  if (!ctx.req) return;
  const limiter = signInLimiterFor(ctx.db, ctx.config.env);
  const r = limiter.take(`${step}:ip:${clientKey(ctx.req.ip)}`, limiter.limits.perIp);
  if (!r.ok) refuse(ctx, r.retryAfterMs, false);
}

/**
 * Counts one nonce for `address` asked by the calling client: one client cannot pile up nonces for one
 * wallet, and requests from other clients never use up the owner's bucket (no lock-out by a stranger).
 */
export function limitNonceByWallet(ctx: LimitContext, address: string): void {
  if (!ctx.req) return;
  const limiter = signInLimiterFor(ctx.db, ctx.config.env);
  const r = limiter.take(`nonce:wallet:${address}:${clientKey(ctx.req.ip)}`, limiter.limits.perWallet);
  if (!r.ok) refuse(ctx, r.retryAfterMs, true);
}
