// Token buckets in process memory: the one implementation behind every rate limit (sign-in, support
// forms, REST API, certificate creation). A bucket holds `capacity` tokens, refilled evenly over
// `windowMs`; a request takes one. One process owns its buckets: several servers sharing PostgreSQL
// each count their own (limits that must hold across servers are counted in the database instead,
// like the daily anchoring budget).

export interface BucketLimit {
  /** Burst size: requests allowed at once. */
  capacity: number;
  /** Window in ms over which `capacity` tokens refill. */
  windowMs: number;
}

/** Refused: the wait until a token is back, and which bucket was empty (the one with the longest wait). */
export type Taken = { ok: true; remaining: number } | { ok: false; retryAfterMs: number; key: string };

interface Bucket {
  tokens: number;
  at: number;
  capacity: number;
  rate: number; // tokens per ms
}

export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();
  private readonly maxKeys: number;
  /** The clock; tests replace it to move time instead of sleeping. */
  now: () => number;

  constructor(opts: { now?: () => number; maxKeys?: number } = {}) {
    this.now = opts.now ?? Date.now;
    this.maxKeys = opts.maxKeys ?? 50_000;
  }

  /** Takes one token from `key`; when it is empty, the ms until the next one. */
  take(key: string, limit: BucketLimit, t = this.now()): Taken {
    return this.takeAll([[key, limit]], t);
  }

  /**
   * One token from each bucket, or from none: when any is empty nothing is taken (a refusal by one
   * limit does not use up another), and the wait is the longest of the empty ones.
   */
  takeAll(entries: [key: string, limit: BucketLimit][], t = this.now()): Taken {
    const levels = entries.map(([key, limit]) => {
      const rate = limit.capacity / limit.windowMs;
      const b = this.buckets.get(key);
      const tokens = b ? Math.min(limit.capacity, b.tokens + Math.max(0, t - b.at) * rate) : limit.capacity;
      return { key, capacity: limit.capacity, rate, tokens, known: !!b };
    });
    let refused: { key: string; retryAfterMs: number } | null = null;
    for (const l of levels) {
      // Rounded up to the ms; the epsilon keeps float noise (29999.999999999996) from adding one.
      const wait = l.tokens < 1 ? Math.ceil((1 - l.tokens) / l.rate - 1e-6) : 0;
      if (wait > 0 && (!refused || wait > refused.retryAfterMs)) refused = { key: l.key, retryAfterMs: wait };
    }
    if (refused) return { ok: false, ...refused };
    for (const l of levels) {
      if (!l.known && this.buckets.size >= this.maxKeys) this.sweep(t);
      this.buckets.set(l.key, { tokens: l.tokens - 1, at: t, capacity: l.capacity, rate: l.rate });
    }
    return { ok: true, remaining: Math.min(...levels.map((l) => Math.floor(l.tokens - 1))) };
  }

  /** Gives back a token taken for a request that ended up costing nothing (never above capacity). */
  give(key: string, t = this.now()) {
    const b = this.buckets.get(key);
    if (!b) return;
    b.tokens = Math.min(b.capacity, b.tokens + Math.max(0, t - b.at) * b.rate + 1);
    b.at = t;
  }

  get size() {
    return this.buckets.size;
  }

  /** Refilled buckets carry no state; a flood of distinct keys loses its oldest half rather than grow. */
  private sweep(t: number) {
    for (const [k, b] of this.buckets) if (b.tokens + (t - b.at) * b.rate >= b.capacity) this.buckets.delete(k);
    if (this.buckets.size >= this.maxKeys) {
      let n = Math.floor(this.buckets.size / 2);
      for (const k of this.buckets.keys()) {
        if (n-- <= 0) break;
        this.buckets.delete(k);
      }
    }
  }
}

/** Whole seconds for a Retry-After header (at least 1). */
export const retryAfterSeconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

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
