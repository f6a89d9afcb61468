import { DomainError } from '../../lib/errors';
import { TokenBuckets, type BucketLimit } from '../../lib/rate-limit';

// Support chat, contact and feedback: token buckets (lib/rate-limit) keyed by client + procedure.

export { clientKey } from '../../lib/rate-limit';

export interface RateLimit extends BucketLimit {
  message: string;
}

export const SUPPORT_LIMITS = {
  chat: { capacity: 20, windowMs: 60_000, message: 'Too many messages. Please wait a minute and try again.' },
  contact: { capacity: 5, windowMs: 10 * 60_000, message: 'Too many messages. Please wait a few minutes and try again.' },
  feedback: { capacity: 5, windowMs: 10 * 60_000, message: 'Too many messages. Please wait a few minutes and try again.' },
} satisfies Record<string, RateLimit>;

export class RateLimiter {
  private readonly buckets: TokenBuckets;

  constructor(now: () => number = Date.now, maxKeys = 50_000) {
    this.buckets = new TokenBuckets({ now, maxKeys });
  }

  /** Takes one token; false when the bucket is empty. */
  take(key: string, limit: RateLimit): boolean {
    return this.buckets.take(key, limit).ok;
  }

  /** Throws TOO_MANY_REQUESTS when the client is over the limit. */
  consume(key: string, limit: RateLimit): void {
    if (!this.take(key, limit)) throw new DomainError('TOO_MANY_REQUESTS', limit.message);
  }

  get size() {
    return this.buckets.size;
  }
}
