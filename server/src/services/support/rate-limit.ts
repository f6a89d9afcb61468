import { TRPCError } from '@trpc/server';

// In-memory token buckets keyed by client + procedure. One process owns them: a deployment with several
// servers behind a load balancer would keep the buckets in the database or Redis instead.

export interface RateLimit {
  /** Burst size: requests allowed at once. */
  capacity: number;
  /** Window in ms over which `capacity` tokens refill. */
  windowMs: number;
  message: string;
}

export const SUPPORT_LIMITS = {
  chat: { capacity: 20, windowMs: 60_000, message: 'Too many messages. Please wait a minute and try again.' },
  contact: { capacity: 5, windowMs: 10 * 60_000, message: 'Too many messages. Please wait a few minutes and try again.' },
  feedback: { capacity: 5, windowMs: 10 * 60_000, message: 'Too many messages. Please wait a few minutes and try again.' },
} satisfies Record<string, RateLimit>;

interface Bucket {
  tokens: number;
  at: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly maxKeys = 50_000,
  ) {}

  /** Takes one token; false when the bucket is empty. */
  take(key: string, limit: RateLimit): boolean {
    const t = this.now();
    const rate = limit.capacity / limit.windowMs;
    const b = this.buckets.get(key);
    const tokens = b ? Math.min(limit.capacity, b.tokens + (t - b.at) * rate) : limit.capacity;
    if (tokens < 1) {
      if (b) {
        b.tokens = tokens;
        b.at = t;
      }
      return false;
    }
    if (!b && this.buckets.size >= this.maxKeys) this.sweep(t, limit);
    this.buckets.set(key, { tokens: tokens - 1, at: t });
    return true;
  }

  /** Throws TOO_MANY_REQUESTS when the client is over the limit. */
  consume(key: string, limit: RateLimit): void {
    if (!this.take(key, limit)) throw new TRPCError({ code: 'TOO_MANY_REQUESTS', message: limit.message });
  }

  /** Drops buckets that have refilled (they carry no state); bounds memory under many client IPs. */
  private sweep(t: number, limit: RateLimit) {
    for (const [k, b] of this.buckets) if (t - b.at >= limit.windowMs) this.buckets.delete(k);
    // Still full (a flood of distinct addresses): forget the oldest half rather than grow unbounded.
    if (this.buckets.size >= this.maxKeys) {
      let n = Math.floor(this.buckets.size / 2);
      for (const k of this.buckets.keys()) {
        if (n-- <= 0) break;
        this.buckets.delete(k);
      }
    }
  }

  get size() {
    return this.buckets.size;
  }
}
