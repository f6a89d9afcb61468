// The benches' load generator (load.ts): its open loop charges a server's pause to every request
// scheduled during it, which is what makes its p99 the latency a steady load meets.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { loadGenerator, PRODUCTION_NODE_FLAGS } from './load';

let server: http.Server | null = null;
afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

/** A loopback server answering at once; `stall()` makes it hold its process still for `ms` at the next request. */
async function serve() {
  let stallMs = 0;
  let requests = 0;
  server = http.createServer((_req, res) => {
    requests++;
    const end = Date.now() + stallMs;
    stallMs = 0;
    while (Date.now() < end); // the event loop blocked, as by a long collection
    res.end('ok');
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return { port: (server.address() as AddressInfo).port, stall: (ms: number) => (stallMs = ms), requests: () => requests };
}

describe('paced (open loop)', () => {
  it('charges a pause to every request scheduled while it lasted, counted from its schedule', async () => {
    const s = await serve();
    const gen = loadGenerator(s.port, 4);
    try {
      setTimeout(() => s.stall(300), 300);
      const r = await gen.paced(() => '/', { rate: 400, durationMs: 1000 });
      // Every scheduled request was sent and answered (none dropped while the server stood still).
      expect(r.n).toBe(400);
      expect(s.requests()).toBe(400);
      // About 120 of them (30 %) were due during the 300 ms pause: the slowest percent waited most of it.
      expect(r.p99).toBeGreaterThanOrEqual(200);
    } finally {
      gen.close();
    }
  });

  it('sends on the schedule, not faster: a quick server does not shorten the run', async () => {
    const s = await serve();
    const gen = loadGenerator(s.port, 4);
    try {
      const t0 = performance.now();
      const r = await gen.paced(() => '/', { rate: 200, durationMs: 1000 });
      expect(r.n).toBe(200);
      // The last request is due at 995 ms.
      expect(performance.now() - t0).toBeGreaterThanOrEqual(995);
    } finally {
      gen.close();
    }
  });
});

describe('PRODUCTION_NODE_FLAGS', () => {
  // The benches and the fault tests start the server with these: they must measure what `npm start` runs.
  it('are the flags `npm start` runs the server with', () => {
    const start = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).scripts.start as string;
    expect(start).toBe(['node', ...PRODUCTION_NODE_FLAGS, 'dist/server/main.mjs'].join(' '));
  });
});
