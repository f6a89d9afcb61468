// Property-based fuzzing of GET /api/dev/accounts (the development wallet's named accounts, issue 14),
// apart from fuzz-rest.test.ts: that suite's server runs behind TRUST_PROXY (every answer here would be
// 403), this one on the defaults, as `npm start` does. Fuzzed: method, Host, Origin, Sec-Fetch-Site, every
// forwarding header, query strings and bodies. Never a 5xx; the keys only when the request is a plain
// loopback one (the oracle below is written out, not the route's own check); a refusal is JSON that says
// why; nothing is ever written (tables, data dir files). Seed: FC_SEED.
import fs from 'node:fs';
import http from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server } from '../src/app';
import { FC_SEED, fcParams, nastyString, sometimes } from './fuzz-support/arbitraries';
import { diffSnapshots, snapshot } from './fuzz-support/snapshot';
import { startTestServer, tmpDataDir } from './helpers';

let server: Server;
let dir: string;
let port: string;
beforeAll(async () => {
  dir = tmpDataDir();
  server = await startTestServer(dir, { ATTESTA_DEMO_DATA: 'true', ATTESTA_WORKER: 'false' });
  port = new URL(server.url).port;
}, 60_000);
afterAll(async () => {
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

// Hosts with the answer a browser on this machine should get: [Host header, is it this machine].
const HOSTS: [string, boolean][] = [
  ['localhost:PORT', true],
  ['127.0.0.1:PORT', true],
  ['LocalHost:PORT', true],
  ['127.8.9.10:PORT', true],
  ['[::1]:PORT', true],
  ['localhost', true],
  ['localhost.:PORT', false],
  ['localhost.attacker.example:PORT', false],
  ['attacker.example', false],
  ['127.0.0.1.nip.io:PORT', false],
  ['0.0.0.0:PORT', false],
  ['192.0.2.2:PORT', false],
  ['[::2]:PORT', false],
  ['127.1:PORT', false],
  ['', false],
];
const FORWARDING = ['x-forwarded-for', 'forwarded', 'x-real-ip', 'via', 'x-forwarded-host', 'x-forwarded-proto', 'true-client-ip', 'cf-connecting-ip'];
const ORIGINS: [string, boolean][] = [
  ['http://localhost:PORT', true],
  ['http://127.0.0.1:PORT', true],
  ['https://localhost', true],
  ['http://attacker.example', false],
  ['null', false],
  ['file://', false],
];
const headerSafe = nastyString.map((s) => s.replace(/[^\x20-\x7e]/g, '').slice(0, 200));

function request(method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.setTimeout(15_000, () => req.destroy(new Error(`hung request: ${method} ${path}`)));
    req.on('error', reject);
    req.end(body);
  });
}

describe(`fuzz: GET /api/dev/accounts (seed ${FC_SEED})`, () => {
  it('keys only to a plain loopback request; otherwise a JSON refusal; never a 5xx, never a write', async () => {
    const call = fc.record({
      method: fc.constantFrom('GET', 'GET', 'GET', 'HEAD', 'POST', 'PUT', 'DELETE'),
      host: fc.constantFrom(...HOSTS),
      forwarded: fc.subarray(FORWARDING, { maxLength: 3 }),
      forwardedValue: fc.oneof(fc.constantFrom('127.0.0.1', '::1', 'for=127.0.0.1', 'localhost', ''), headerSafe),
      origin: sometimes(fc.constantFrom(...ORIGINS)),
      fetchSite: sometimes(fc.constantFrom('same-origin', 'same-site', 'cross-site', 'none')),
      query: sometimes(headerSafe.map((s) => encodeURIComponent(s))),
      body: sometimes(headerSafe),
    });
    let served = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(call, async (c) => {
        const headers: Record<string, string> = { host: c.host[0].replace('PORT', port) };
        for (const h of c.forwarded) headers[h] = c.forwardedValue;
        if (c.origin) headers.origin = c.origin[0].replace('PORT', port);
        if (c.fetchSite) headers['sec-fetch-site'] = c.fetchSite;
        if (c.body !== undefined && c.method !== 'GET' && c.method !== 'HEAD') headers['content-type'] = 'text/plain';
        const before = await snapshot(server.services.db, dir);
        const res = await request(c.method, `/api/dev/accounts${c.query ? `?q=${c.query}` : ''}`, headers, c.method === 'GET' || c.method === 'HEAD' ? undefined : c.body);
        const ctx = `${c.method} ${JSON.stringify(headers)} → ${res.status} ${res.text.slice(0, 200)}`;
        expect(res.status, ctx).toBeLessThan(500);
        expect(diffSnapshots(before, await snapshot(server.services.db, dir)), ctx).toEqual([]);
        if (c.method !== 'GET' && c.method !== 'HEAD') {
          // No such route (fastify may refuse an empty text body before routing: 400).
          expect([400, 404], ctx).toContain(res.status);
          expect(res.text, ctx).not.toMatch(/secret_key/);
          return;
        }
        const plain = c.host[1] && c.forwarded.length === 0 && (c.origin?.[1] ?? true) && c.fetchSite !== 'cross-site';
        expect(res.headers['cache-control'], ctx).toBe('no-store');
        expect(res.status, ctx).toBe(plain ? 200 : 403);
        if (c.method === 'HEAD') return;
        const body = JSON.parse(res.text) as { accounts?: { id: string; secret_key: string }[]; error?: string };
        if (plain) {
          served++;
          expect(body.accounts?.map((a) => a.id), ctx).toEqual(['holder', 'institution', 'operator']);
        } else {
          refused++;
          expect(body.accounts, ctx).toBeUndefined();
          expect(res.text, ctx).not.toMatch(/secret_key/);
          expect(typeof body.error === 'string' && body.error.length > 20, ctx).toBe(true);
        }
      }),
      fcParams(Number(process.env.FC_RUNS ?? 24) * 6),
    );
    expect(served, 'no fuzzed call was served').toBeGreaterThan(0);
    expect(refused, 'no fuzzed call was refused').toBeGreaterThan(0);
  });
});
