import type { FastifyRequest } from 'fastify';
import type { SignInLimits } from '../../config';
import { DomainError } from '../../lib/errors';
import { clientKey, TokenBuckets } from '../../lib/rate-limit';

// Sign-in rate limits: token buckets (lib/rate-limit) per client address (nonces and sign-ins, each
// its own bucket) and per (wallet, client address) for nonces, in memory like the other limits.
// Signatures cannot be guessed, so this is not about brute force: it bounds the nonce rows and the
// signature checks one client can cause (every sign-in attempt, good or bad, takes from the client's
// bucket, so no client tries more than `perIp` signatures per window, whichever wallets they are for). A session lasts 30 days, so a person needs very few.
//
// The wallet bucket is keyed by the client too: a nonce request proves nothing about who asks, so a
// bucket per wallet alone let anyone lock the owner out (ten requests naming the victim's address →
// the victim's own sign-in got 429). Now a stranger only empties their own (wallet, client) bucket.

/** The sign-in buckets of one server (lib/rate-limit's token buckets, sized by config.limits.signIn). */
export class SignInLimiter {
  private readonly buckets: TokenBuckets;

  constructor(
    readonly limits: SignInLimits,
    maxKeys = 50_000,
  ) {
    this.buckets = new TokenBuckets({ maxKeys });
  }

  /** The clock; tests replace it to move time instead of sleeping. */
  get now() {
    return this.buckets.now;
  }
  set now(clock: () => number) {
    this.buckets.now = clock;
  }

  /** Takes one token from `key` (capacity refilled evenly over the window); when empty, ms until the next one. */
  take(key: string, capacity: number): { ok: true } | { ok: false; retryAfterMs: number } {
    const r = this.buckets.take(key, { capacity, windowMs: this.limits.windowMs });
    return r.ok ? { ok: true } : { ok: false, retryAfterMs: r.retryAfterMs };
  }
}

export type SignInStep = 'nonce' | 'signIn';

interface LimitContext {
  signInLimiter: SignInLimiter;
  req?: FastifyRequest;
}

function refuse(retryAfterMs: number, wallet: boolean): never {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  throw new DomainError('TOO_MANY_REQUESTS', `Too many sign-in attempts${wallet ? ' for this wallet' : ''}. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`, {
    retryAfterSec: seconds,
  });
}

/**
 * Counts one attempt of `step` for the calling client (req.ip honours TRUST_PROXY) and throws
 * TOO_MANY_REQUESTS when its bucket is empty. In-process callers (no request) are not limited.
 */
export function limitSignInByClient(ctx: LimitContext, step: SignInStep): void {
  if (!ctx.req) return;
  const limiter = ctx.signInLimiter;
  const r = limiter.take(`${step}:ip:${clientKey(ctx.req.ip)}`, limiter.limits.perIp);
  if (!r.ok) refuse(r.retryAfterMs, false);
}

/**
 * Counts one nonce for `address` asked by the calling client: one client cannot pile up nonces for one
 * wallet, and requests from other clients never use up the owner's bucket (no lock-out by a stranger).
 */
export function limitNonceByWallet(ctx: LimitContext, address: string): void {
  if (!ctx.req) return;
  const limiter = ctx.signInLimiter;
  const r = limiter.take(`nonce:wallet:${address}:${clientKey(ctx.req.ip)}`, limiter.limits.perWallet);
  if (!r.ok) refuse(r.retryAfterMs, true);
}
