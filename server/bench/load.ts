// The closed-loop load generator of the server benches: `concurrency` keep-alive connections over
// loopback, each sending its next GET as soon as the previous answer ended (as server.bench.ts does).
import http from 'node:http';

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  n: number;
}

export function loadGenerator(port: number, concurrency = 8) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  function get(p: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const t0 = performance.now();
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
    const secs = (performance.now() - start) / 1000;
    lat.sort((a, b) => a - b);
    const q = (x: number) => lat[Math.min(lat.length - 1, Math.floor(x * lat.length))];
    return { rps: lat.length / secs, p50: q(0.5), p99: q(0.99), n: lat.length };
  }
  return { get, load, close: () => agent.destroy() };
}
