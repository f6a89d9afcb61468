/**
 * In-memory token buckets, one per caller (API key, connect token or IP): `perMinute` requests in a
 * burst, refilled continuously at perMinute/60 per second. One server owns the SQLite data dir, so
 * process memory is the whole picture; a restart forgets the buckets (they refill within a minute anyway).
 */
export interface TakeResult {
  ok: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until one request is allowed again (0 when ok). */
  retryAfterSec: number;
}

export class TokenBucketLimiter {
  private buckets = new Map<string, { tokens: number; at: number }>();
  private readonly ratePerMs: number;

  constructor(readonly perMinute: number, private readonly maxBuckets = 50_000) {
    if (!(perMinute > 0)) throw new Error('rate limit must be positive');
    this.ratePerMs = perMinute / 60_000;
  }

  take(id: string, now = Date.now()): TakeResult {
    let b = this.buckets.get(id);
    if (!b) {
      if (this.buckets.size >= this.maxBuckets) this.sweep(now);
      b = { tokens: this.perMinute, at: now };
      this.buckets.set(id, b);
    } else {
      b.tokens = Math.min(this.perMinute, b.tokens + (now - b.at) * this.ratePerMs);
      b.at = now;
    }
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return { ok: true, limit: this.perMinute, remaining: Math.floor(b.tokens), retryAfterSec: 0 };
    }
    return { ok: false, limit: this.perMinute, remaining: 0, retryAfterSec: Math.max(1, Math.ceil((1 - b.tokens) / this.ratePerMs / 1000)) };
  }

  /** Full buckets carry no state worth keeping; drop them (and, if still too many, the oldest). */
  private sweep(now: number) {
    for (const [k, b] of this.buckets) if (b.tokens + (now - b.at) * this.ratePerMs >= this.perMinute) this.buckets.delete(k);
    for (const k of this.buckets.keys()) {
      if (this.buckets.size < this.maxBuckets) break;
      this.buckets.delete(k);
    }
  }
}
