// The embedded chain's cache of account reads is bounded in bytes (data + an estimated overhead per
// entry), not in entries: whatever the accounts' sizes, it never holds more than its bound.
import { PublicKey } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { CERTIFICATE_LEN } from '../../../../shared/program/codec';
import type { AccountReader, AccountRow } from './embedded-account-reader';
import { EmbeddedAccounts, READ_CACHE_BYTES, READ_CACHE_ENTRY_OVERHEAD } from './embedded-accounts';
import type { NativeSvm } from './svm-native';
import type { AccountSnapshot } from './types';

const OWNER = new PublicKey(Buffer.alloc(32, 200)).toBase58();
const key = (i: number) => new PublicKey(Buffer.from(Uint32Array.of(i + 1, 7, 7, 7, 7, 7, 7, 7).buffer)).toBase58();

/** Committed rows of `sizes[i]` bytes for key(i), read synchronously as from SQLite; LiteSVM holds none of them. */
function setup(sizes: number[], cacheLimitBytes?: number) {
  const rows = new Map<string, AccountRow>(sizes.map((n, i) => [key(i), { pubkey: key(i), owner: OWNER, lamports: '1000', data: new Uint8Array(n).fill(i % 251) }]));
  let reads = 0;
  const reader: AccountReader = {
    rows(keys) {
      reads++;
      return new Map(keys.filter((k) => rows.has(k)).map((k) => [k, rows.get(k)!]));
    },
    keysByOwner: () => [],
    scanPage: () => ({ keys: [], last: null }),
    close() {},
  };
  const svm = { getAccount: () => null } as unknown as NativeSvm;
  const accounts = new EmbeddedAccounts(svm, reader, 16, cacheLimitBytes);
  // The reader is synchronous: so is every read.
  const read = (i: number) => accounts.read(key(i)) as AccountSnapshot | null;
  return { accounts, read, reads: () => reads };
}

const entry = (dataBytes: number) => READ_CACHE_ENTRY_OVERHEAD + dataBytes;

describe('the read cache of the embedded chain', () => {
  it('holds certificate records up to its byte bound, the least recently used out first', () => {
    const bound = 10 * entry(CERTIFICATE_LEN);
    const { accounts, read, reads } = setup(Array(100).fill(CERTIFICATE_LEN), bound);
    for (let i = 0; i < 100; i++) {
      expect(read(i)?.data[0]).toBe(i % 251);
      expect(accounts.stats().cachedBytes).toBeLessThanOrEqual(bound);
    }
    expect(accounts.stats()).toMatchObject({ cached: 10, cachedBytes: bound, cacheLimitBytes: bound });
    // The last ten are cached (no database read), the eleventh from the end is not.
    const before = reads();
    for (let i = 90; i < 100; i++) read(i);
    expect(reads()).toBe(before);
    read(89);
    expect(reads()).toBe(before + 1);
  });

  it('counts bytes, not entries: larger accounts leave room for fewer', () => {
    const bound = 64 * 1024;
    const sizes = Array.from({ length: 200 }, (_, i) => [0, CERTIFICATE_LEN, 1000, 10_000, 30_000][i % 5]);
    const { accounts, read } = setup(sizes, bound);
    for (let i = 0; i < sizes.length; i++) {
      expect(read(i)?.data.length).toBe(sizes[i]);
      expect(accounts.stats().cachedBytes).toBeLessThanOrEqual(bound);
    }
    expect(accounts.stats().cached).toBeLessThan((64 * 1024) / entry(CERTIFICATE_LEN));
  });

  it('does not cache an account larger than the whole bound, and still answers it', () => {
    const { accounts, read } = setup([100_000, CERTIFICATE_LEN], 50_000);
    expect(read(0)?.data.length).toBe(100_000);
    expect(read(1)?.data.length).toBe(CERTIFICATE_LEN);
    expect(accounts.stats()).toMatchObject({ cached: 1, cachedBytes: entry(CERTIFICATE_LEN) });
  });

  it('counts an absent account (a cached "no account") at its overhead, and a changed account leaves the cache', () => {
    const { accounts, read } = setup([CERTIFICATE_LEN]);
    expect(accounts.read(key(5))).toBeNull();
    read(0);
    expect(accounts.stats()).toMatchObject({ cached: 2, cachedBytes: entry(0) + entry(CERTIFICATE_LEN), cacheLimitBytes: READ_CACHE_BYTES });
    accounts.changed([key(0)]);
    expect(accounts.stats()).toMatchObject({ cached: 1, cachedBytes: entry(0) });
  });
});
