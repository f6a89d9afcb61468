// The short form of `npm run bench:soak`: the same driver for 15 s at a low rate. Asserts behaviour only
// (no errors, every certificate verified, memory sampled, every row reported) — latency and memory
// targets are the benchmark's business, not a test's.
import { describe, expect, it } from 'vitest';
import { runSoak, type SoakResult } from '../bench/soak.bench';

describe('soak driver (short)', () => {
  it('runs a mixed open-loop load with no errors and every certificate verified', async () => {
    const r: SoakResult = await runSoak({ durationMs: 15_000, rate: 4, windowMs: 5_000, memEveryMs: 2_500, settleMs: 30_000 });

    expect(r.errorSamples).toEqual([]);
    expect(r.errors).toBe(0);
    expect(r.requests).toBe(60); // open loop: 15 s × 4/s, each issued once

    expect(r.certificates.created).toBeGreaterThan(0);
    expect(r.certificates).toEqual({ created: r.certificates.created, verified: r.certificates.created, pending: 0, other: 0 });

    // Samples at the start, every 2.5 s and at the end, each with both figures (in-process server).
    expect(r.memSamples.length).toBeGreaterThanOrEqual(6);
    for (const m of r.memSamples) {
      expect(m.rss).toBeGreaterThan(0);
      expect(m.heap).toBeGreaterThan(0);
    }

    // Every window and every kind has a row, and the summary names every target with a verdict.
    expect(r.windows.map((w) => [w.startS, w.endS])).toEqual([[0, 5], [5, 10], [10, 15]]);
    expect(r.windows.reduce((a, w) => a + w.requests, 0)).toBe(r.requests);
    for (const w of r.windows) {
      expect(w.requests).toBeGreaterThan(0);
      expect(w.rss).toBeGreaterThan(0);
      expect(r.table).toMatch(new RegExp(`^${w.startS}–${w.endS} s\\s+${w.requests}\\s+0\\s`, 'm'));
    }
    for (const kind of ['signIn', 'create', 'poll', 'verifyHash', 'publicView'] as const) {
      expect(r.table).toMatch(new RegExp(`^${kind}\\s+${r.byKind[kind].requests}\\s+0\\s`, 'm'));
    }
    expect(r.targets.map((t) => t.name)).toEqual(['errors = 0', 'p99 last window ≤ 2× first', 'rss last window ≤ +20% of first', 'all certificates verified']);
    for (const t of r.targets) expect(r.table).toMatch(new RegExp(`${t.name.replace(/[+×≤]/g, '.')}\\s+(PASS|FAIL)`));
    expect(r.targets.find((t) => t.name === 'errors = 0')!.pass).toBe(true);
    expect(r.targets.find((t) => t.name === 'all certificates verified')!.pass).toBe(true);
    expect(r.table).toMatch(/^soak: (PASS|FAIL)$/m);
  });
});
