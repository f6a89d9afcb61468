import { retryAfterSeconds, TokenBuckets } from '../../lib/rate-limit';

/**
 * The REST API's limit, one token bucket (lib/rate-limit) per caller (API key, connect token or IP):
 * `perMinute` requests in a burst, refilled continuously at perMinute/60 per second. A restart forgets
 * the buckets (they refill within a minute anyway).
 */
export interface TakeResult {
  ok: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until one request is allowed again (0 when ok). */
  retryAfterSec: number;
}

export class TokenBucketLimiter {
  private readonly buckets: TokenBuckets;

  constructor(readonly perMinute: number, maxBuckets = 50_000) {
    if (!(perMinute > 0)) throw new Error('rate limit must be positive');
    this.buckets = new TokenBuckets({ maxKeys: maxBuckets });
  }

  take(id: string, now = Date.now()): TakeResult {
    const r = this.buckets.take(id, { capacity: this.perMinute, windowMs: 60_000 }, now);
    return r.ok
      ? { ok: true, limit: this.perMinute, remaining: r.remaining, retryAfterSec: 0 }
      : { ok: false, limit: this.perMinute, remaining: 0, retryAfterSec: retryAfterSeconds(r.retryAfterMs) };
  }
}
