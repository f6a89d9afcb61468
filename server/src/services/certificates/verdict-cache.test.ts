// The process's verdict cache in front of the stored verdicts (verdict.ts): a hash asked once is
// answered from the store and not kept (kept, every cold verify's answer outlived a few young-generation
// collections and went to the old generation: #15); a hash asked again within the cache's lifetime is
// kept and then answered from memory; a stale or chain-changed entry is never served.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { CERTIFICATES_PROGRAM_ID } from '../../../../shared/program/ids';
import { openDatabase, type Db } from '../../db';
import { CACHE_TTL_MS, RecentlyAsked, VerdictService } from './verdict';

const hash = (n: number) => createHash('sha256').update(`certificate ${n}`).digest('hex');

/** A verdict service over a store that counts its reads; the chain's state version is settable. */
function service() {
  const reads: string[] = [];
  let version = 1;
  const svc = new VerdictService({ db: null as never, chain: { stateVersion: () => version } as never });
  svc.stored = {
    read: async (sha256, origin) => {
      reads.push(sha256);
      return JSON.stringify({ valid: true, sha256, url: `${origin}/view/${sha256.slice(0, 6)}` });
    },
  };
  const ask = async (sha256: string) => JSON.parse(await svc.verdictJson({ sha256, origin: 'https://attesta.example' }));
  const readsOf = (sha256: string) => reads.filter((r) => r === sha256).length;
  return { ask, readsOf, reads, changeChain: () => version++ };
}

describe('the verdict cache in front of the stored verdicts', () => {
  beforeEach(() => void vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-29T12:00:00Z') }));
  afterEach(() => void vi.useRealTimers());

  it('keeps a verdict only when its hash is asked again, then answers from memory', async () => {
    const { ask, readsOf } = service();
    const h = hash(1);
    expect(await ask(h)).toMatchObject({ valid: true, sha256: h, url: `https://attesta.example/view/${h.slice(0, 6)}`, checked_at: '2026-11-29T12:00:00.000Z' });
    expect(readsOf(h)).toBe(1);
    vi.advanceTimersByTime(200);
    await ask(h); // asked again: read, and kept
    expect(readsOf(h)).toBe(2);
    vi.advanceTimersByTime(200);
    const third = await ask(h);
    expect(readsOf(h)).toBe(2); // from memory
    expect(third.checked_at).toBe('2026-11-29T12:00:00.400Z'); // the time of this answer, not of the kept one
  });

  it('does not keep hashes asked once, however many', async () => {
    const { ask, readsOf, reads } = service();
    for (let i = 0; i < 5_000; i++) await ask(hash(i));
    expect(reads).toHaveLength(5_000);
    // Each asked again (a cache that kept first asks would answer these from memory): read once more.
    for (let i = 0; i < 100; i++) await ask(hash(i));
    expect(reads).toHaveLength(5_100);
    // The last one asked, again twice: the first of those reads and keeps it.
    await ask(hash(4_999));
    await ask(hash(4_999));
    expect(readsOf(hash(4_999))).toBe(2);
  });

  it('does not count an ask older than the cache lifetime as a repeat, and lets kept verdicts expire', async () => {
    const { ask, readsOf } = service();
    const h = hash(7);
    await ask(h);
    vi.advanceTimersByTime(CACHE_TTL_MS + 1);
    await ask(h); // too late to count: a first ask again
    vi.advanceTimersByTime(10);
    await ask(h); // a repeat: read, kept
    await ask(h); // from memory
    expect(readsOf(h)).toBe(3);
    vi.advanceTimersByTime(CACHE_TTL_MS + 1);
    await ask(h); // the kept verdict expired
    expect(readsOf(h)).toBe(4);
  });

  it('never answers a kept verdict once the chain changed', async () => {
    const { ask, readsOf, changeChain } = service();
    const h = hash(9);
    await ask(h);
    await ask(h);
    await ask(h);
    expect(readsOf(h)).toBe(2);
    changeChain();
    await ask(h);
    expect(readsOf(h)).toBe(3);
  });
});

describe('verdicts computed from the chain (no stored verdict: a hash nobody anchored)', () => {
  let dir: string;
  let db: Db;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attesta-verdict-cache-'));
    ({ db } = await openDatabase(dir));
  });
  afterAll(async () => {
    await db?.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => void vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-29T12:00:00Z') }));
  afterEach(() => void vi.useRealTimers());

  /** A verdict service with no stored verdicts, over a chain with no records that counts its reads. */
  function computing() {
    const chainReads: string[] = [];
    const chain = {
      mode: 'embedded',
      programId: CERTIFICATES_PROGRAM_ID,
      stateVersion: () => 1,
      now: async () => Math.floor(Date.now() / 1000),
      readCertificateRecord: async (hash: Uint8Array) => {
        chainReads.push(Buffer.from(hash).toString('hex'));
        return null;
      },
    };
    const svc = new VerdictService({ db, chain: chain as never });
    const ask = async (sha256: string) => JSON.parse(await svc.verdictJson({ sha256, origin: 'https://attesta.example' }));
    const byId = (sha256: string) => svc.verdictFor({ sha256, origin: 'https://attesta.example', fileSha256: sha256 });
    return { ask, byId, chainReads, readsOf: (sha256: string) => chainReads.filter((r) => r === sha256).length };
  }

  it('computes a hash asked once and keeps neither its verdict nor its chain part', async () => {
    const { ask, chainReads } = computing();
    for (let i = 0; i < 300; i++) expect(await ask(hash(i))).toMatchObject({ valid: false, status: 'not_found' });
    expect(chainReads).toHaveLength(300);
    // Each asked again: a cache that kept first asks would answer these without reading the chain.
    for (let i = 0; i < 300; i++) await ask(hash(i));
    expect(chainReads).toHaveLength(600);
  });

  it('keeps a hash asked again: the third ask is answered from memory', async () => {
    const { ask, readsOf } = computing();
    const h = hash(1_001);
    await ask(h);
    vi.advanceTimersByTime(100);
    await ask(h);
    expect(readsOf(h)).toBe(2);
    vi.advanceTimersByTime(100);
    expect(await ask(h)).toMatchObject({ status: 'not_found', checked_at: '2026-11-29T12:00:00.200Z' });
    expect(readsOf(h)).toBe(2);
  });

  it('shares a kept chain part between the verdicts of one hash asked in other ways', async () => {
    const { ask, byId, readsOf } = computing();
    const h = hash(2_002);
    await ask(h);
    await ask(h); // asked again: its verdict and its chain part are kept
    expect(readsOf(h)).toBe(2);
    // Another verdict of the same hash (a dropped file's): computed, its chain part from memory.
    expect(await byId(h)).toMatchObject({ status: 'not_found', integrity: 'not_checked' });
    expect(readsOf(h)).toBe(2);
  });
});

describe('RecentlyAsked', () => {
  const other = (sha256: string, at: number, c: string) => sha256.slice(0, at) + c + sha256.slice(at + 1);

  it('tells a repeat within the window from a first ask', () => {
    const recent = new RecentlyAsked(1000);
    const h = hash(1);
    expect(recent.askedAgain(h, 10_000)).toBe(false);
    expect(recent.askedAgain(h, 10_999)).toBe(true);
    expect(recent.askedAgain(h, 12_000)).toBe(false); // 1,001 ms after the last ask
    expect(recent.askedAgain(h, 12_500)).toBe(true);
  });

  it('takes a hash with other first bits on the same slot for another hash (it evicts the first)', () => {
    const recent = new RecentlyAsked(1000);
    const a = 'a'.repeat(64);
    const b = other(a, 0, 'b'); // same slot (the bits after the first 32), another fingerprint
    expect(recent.askedAgain(a, 1)).toBe(false);
    expect(recent.askedAgain(b, 2)).toBe(false);
    expect(recent.askedAgain(a, 3)).toBe(false); // b took the slot: a's repeat is missed (one more read, no harm)
    expect(recent.askedAgain(a, 4)).toBe(true);
  });

  it('keeps hashes on different slots apart', () => {
    const recent = new RecentlyAsked(1000);
    const a = 'a'.repeat(64);
    const b = other(a, 9, 'b'); // another slot
    expect(recent.askedAgain(a, 1)).toBe(false);
    expect(recent.askedAgain(b, 2)).toBe(false);
    expect(recent.askedAgain(a, 3)).toBe(true);
    expect(recent.askedAgain(b, 4)).toBe(true);
  });
});
