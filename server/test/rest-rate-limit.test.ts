// The REST API's per-caller token bucket (no server needed): burst, refill, Retry-After, isolation.
import { describe, expect, it } from 'vitest';
import { TokenBucketLimiter } from '../src/services/api-keys';

describe('TokenBucketLimiter', () => {
  it('allows the per-minute burst, then refuses with the seconds until the next token', () => {
    const l = new TokenBucketLimiter(60);
    const t0 = 1_000_000;
    for (let i = 0; i < 60; i++) expect(l.take('k', t0).ok).toBe(true);
    const refused = l.take('k', t0);
    expect(refused).toEqual({ ok: false, limit: 60, remaining: 0, retryAfterSec: 1 });
    // 60/min = one token per second: 999 ms later still refused, at 1 s allowed once.
    expect(l.take('k', t0 + 999).ok).toBe(false);
    expect(l.take('k', t0 + 1000).ok).toBe(true);
    expect(l.take('k', t0 + 1000).ok).toBe(false);
    // Other callers have their own bucket.
    expect(l.take('other', t0 + 1000)).toMatchObject({ ok: true, remaining: 59 });
  });

  it('Retry-After rounds up for slow limits and the bucket never exceeds its size', () => {
    const l = new TokenBucketLimiter(2); // one token per 30 s
    expect(l.take('k', 0).ok).toBe(true);
    expect(l.take('k', 0).ok).toBe(true);
    expect(l.take('k', 0).retryAfterSec).toBe(30);
    expect(l.take('k', 10_000).retryAfterSec).toBe(20);
    // After an hour idle: still only 2.
    expect(l.take('k', 3_600_000).ok).toBe(true);
    expect(l.take('k', 3_600_000).ok).toBe(true);
    expect(l.take('k', 3_600_000).ok).toBe(false);
  });

  it('stays bounded in memory: full buckets are dropped first', () => {
    const l = new TokenBucketLimiter(10, 100);
    for (let i = 0; i < 1000; i++) l.take(`ip:${i}`, i);
    expect((l as unknown as { buckets: Map<string, unknown> }).buckets.size).toBeLessThanOrEqual(100);
  });
});
