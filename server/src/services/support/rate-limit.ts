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

/**
 * The bucket key of a client address: IPv4 as is (also when IPv4-mapped), IPv6 by its /64, since one
 * subscriber usually holds a whole /64 and could otherwise rotate addresses to reset the limit.
 */
export function clientKey(ip: string | undefined): string {
  if (!ip) return 'internal';
  const v4 = ip.match(/^(?:::ffff:)?(\d{1,3}(?:\.\d{1,3}){3})$/i);
  if (v4) return v4[1];
  if (!ip.includes(':')) return ip;
  // Expand "::" so the first four groups are the real /64 prefix.
  const [head, tail = ''] = ip.toLowerCase().split('%')[0].split('::');
  const h = head ? head.split(':') : [];
  const t = ip.includes('::') ? (tail ? tail.split(':') : []) : [];
  const groups = ip.includes('::') ? [...h, ...Array(8 - h.length - t.length).fill('0'), ...t] : h;
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}
