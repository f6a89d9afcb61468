// The load generator of the server benches, over `concurrency` keep-alive connections on loopback:
// closed loop (`load`: each connection sends its next GET as soon as the previous answer ended, which
// finds the throughput) and open loop (`paced`: GETs sent on a fixed schedule, which finds the latency
// at a given rate).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

/**
 * The Node flags `npm start` runs the server with (package.json; load.test.ts holds the two equal):
 * - source maps;
 * - the old generation grown to live size × 1.5 between full collections instead of V8's own factor (up
 *   to × 4 when collections are cheap): garbage promoted under load took the resident memory from ~250 MB
 *   to 400–600 MB before the next full collection (bench:scale, 10,000 certificates), with × 1.5 to
 *   ~330 MB, at no measured cost;
 * - no allocation-site pretenuring. V8 had decided to allocate node-postgres's parsed rows (pg-protocol's
 *   DataRow field arrays) in the old generation from the start; an old array holding a young string keeps
 *   it through every young-generation collection until the next full one, so each stored verdict read
 *   on PostgreSQL (~1.6 kB) was promoted: ~780 kB a scavenge under cold verifies, against ~1 kB without
 *   it, and scavenges of 2.2 against 1.5–1.7 ms (#15, twenty-first round). bench:scale and bench:server
 *   alternately with and without: nothing else moved beyond the noise.
 */
export const PRODUCTION_NODE_FLAGS = ['--enable-source-maps', '--heap-growing-percent=50', '--no-allocation-site-pretenuring'];

/**
 * The arguments to Node that start the server of the checkout at `root` as `npm start` does: its
 * production build (built first when stale); a checkout from before the build existed runs from source.
 * BENCH_SERVER_FLAGS adds Node flags to the server only (for example `--cpu-prof --cpu-prof-dir=DIR`:
 * Node refuses those in NODE_OPTIONS).
 */
export function serverArgs(root: string): string[] {
  const extra = process.env.BENCH_SERVER_FLAGS?.split(' ').filter(Boolean) ?? [];
  const build = path.join(root, 'server/build.mjs');
  if (!fs.existsSync(build)) return [...extra, '--import', 'tsx', 'server/src/main.ts'];
  execFileSync(process.execPath, [build, '--if-stale'], { cwd: root, stdio: 'inherit' });
  return [...PRODUCTION_NODE_FLAGS, ...extra, 'dist/server/main.mjs'];
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  n: number;
}

function summary(lat: number[], secs: number): LoadResult {
  lat.sort((a, b) => a - b);
  const q = (x: number) => lat[Math.min(lat.length - 1, Math.floor(x * lat.length))];
  return { rps: lat.length / secs, p50: q(0.5), p99: q(0.99), n: lat.length };
}

export function loadGenerator(port: number, concurrency = 8) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  /** GETs `p`; resolves with the milliseconds from `t0` (by default: now) to the answer's end. */
  function get(p: string, t0 = performance.now()): Promise<number> {
    return new Promise((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path: p, agent }, (res) => {
          res.resume();
          res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - t0) : reject(new Error(`HTTP ${res.statusCode} for ${p}`))));
        })
        .on('error', reject);
    });
  }
  /**
   * Requests `path(i)` (i = 0, 1, 2… across all connections) for `durationMs` after a warm-up of
   * `warmupMs` (its requests take their own i), or until `maxRequests` were measured.
   */
  async function load(path: (i: number) => string, o: { durationMs: number; warmupMs?: number; maxRequests?: number }): Promise<LoadResult> {
    let i = 0;
    const warmEnd = performance.now() + (o.warmupMs ?? 500);
    await Promise.all(Array.from({ length: concurrency }, async () => { while (performance.now() < warmEnd) await get(path(i++)); }));
    const lat: number[] = [];
    const max = o.maxRequests ?? Infinity;
    let issued = 0;
    const start = performance.now();
    const end = start + o.durationMs;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (performance.now() < end && issued < max) {
          issued++;
          lat.push(await get(path(i++)));
        }
      }),
    );
    return summary(lat, (performance.now() - start) / 1000);
  }
  /**
   * Requests `path(i)` at `rate` per second for `durationMs` (open loop). A closed loop at saturation
   * measures queueing: its mean latency is the connections in flight over the rate (Little's law), so
   * its p99 grows with the connections chosen (bench:scale's cold verify, the same hour: p99 3.5–4.2 ms
   * with 8, 5.7–15 ms with 16), and a pause of the server delays only the requests then in flight, one
   * a connection. Here each request's latency counts from when the schedule said to send it (not when
   * it was sent): a server, or a generator, running late is charged for it (coordinated omission, as
   * wrk2 corrects it). Due requests are sent every millisecond; one waits for a connection when all
   * `concurrency` are busy, and that wait counts too.
   */
  async function paced(path: (i: number) => string, o: { rate: number; durationMs: number }): Promise<LoadResult> {
    const lat: number[] = [];
    const inFlight: Promise<void>[] = [];
    const start = performance.now();
    const total = Math.floor((o.rate * o.durationMs) / 1000);
    for (let i = 0; i < total; ) {
      const now = performance.now();
      for (; i < total && start + (i * 1000) / o.rate <= now; i++) inFlight.push(get(path(i), start + (i * 1000) / o.rate).then((ms) => void lat.push(ms)));
      await new Promise((r) => setTimeout(r, 1));
    }
    await Promise.all(inFlight);
    return summary(lat, (performance.now() - start) / 1000);
  }
  return { get, load, paced, close: () => agent.destroy() };
}
