// The red team's "anonymous upload of any size" (item 2), as tests: chunked bodies with no
// Content-Length and the content type in any case, to every kind of route. Each is answered well before
// its body ends, in the route's own error shape, nothing is written, and the server (in this process)
// does not hold the bodies: its RSS stays within a generous bound over the whole sweep.
import http from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server } from '../src/app';
import { MAX_REQUEST_BYTES, registerBodyLimit } from '../src/http/body-limit';
import { footprint, makeClient, newWallet, startTestServer, tmpDataDir } from './helpers';

const MB = 1024 * 1024;
/** Over the 25 MB limit with room to spare: a server that reads it all answers only after the end. */
const ATTACK_BYTES = 60 * MB;

interface Answer {
  status: number;
  body: any;
  /** Bytes the client had handed to the socket when the answer came. */
  sent: number;
  /** Whether the whole body had been sent by then. */
  finished: boolean;
}

/**
 * Streams `total` bytes of a multipart-looking body, chunked unless `contentLength` is given, and stops
 * writing as soon as the answer arrives. Rejects if the connection dies without an answer.
 */
function attack(url: string, opts: { method?: string; headers?: Record<string, string>; total?: number; contentLength?: number }): Promise<Answer> {
  const total = opts.total ?? ATTACK_BYTES;
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.contentLength !== undefined) headers['content-length'] = String(opts.contentLength);
    else headers['transfer-encoding'] = 'chunked';
    const req = http.request({ host: u.hostname, port: u.port, path: u.pathname + u.search, method: opts.method ?? 'POST', headers, agent: false });
    const chunk = Buffer.alloc(256 * 1024, 0x41);
    let sent = 0;
    let answered = false;
    let finished = false;
    req.on('response', (res) => {
      answered = true;
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => {
        const text = Buffer.concat(parts).toString('utf8');
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
        }
        resolve({ status: res.statusCode ?? 0, body, sent, finished });
        req.destroy();
      });
    });
    // Once answered, the server closing the socket under our writes is expected.
    req.on('error', (e) => {
      if (!answered) reject(new Error(`no answer after ${Math.round(sent / MB)} MB: ${e.message}`));
    });
    req.write('--x\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n');
    const pump = () => {
      while (!answered && sent < total) {
        const piece = Math.min(chunk.length, total - sent);
        sent += piece;
        if (!req.write(piece === chunk.length ? chunk : chunk.subarray(0, piece))) return void req.once('drain', pump);
      }
      if (!answered && !finished) {
        finished = true;
        req.end('\r\n--x--\r\n');
      }
    };
    pump();
  });
}

const TRPC_413 = (a: Answer) => {
  expect(a.status).toBe(413);
  expect(a.body.error.data).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', httpStatus: 413 });
  expect(a.body.error.message).toMatch(/too large/i);
};
const REST = (status: number, code: string) => (a: Answer) => {
  expect(a.status).toBe(status);
  expect(a.body).toEqual({ error: { code, message: expect.any(String) } });
  expect(a.body.error.message.length).toBeGreaterThan(0);
};
/** Answered before the body ended: the server did not read the attack to its end. */
const early = (a: Answer) => {
  expect(a.finished, `answered only after the whole body (${Math.round(a.sent / MB)} MB)`).toBe(false);
  expect(a.sent).toBeLessThan(ATTACK_BYTES);
};

/** Peak RSS of this process (which runs the server) while `fn` runs. */
async function peakRssDuring(fn: () => Promise<void>): Promise<number> {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  try {
    await fn();
  } finally {
    clearInterval(timer);
  }
  return Math.max(peak, process.memoryUsage().rss);
}

describe('request bodies over the limit, in the real server', () => {
  let server: Server;
  let cookie = '';
  let token = '';
  beforeAll(async () => {
    server = await startTestServer(tmpDataDir(), { ATTESTA_WORKER: 'false', API_RATE_LIMIT_PER_MIN: '1000' });
    const browser = makeClient(server.url);
    const w = newWallet();
    const { message } = await browser.client.auth.nonce.mutate({ address: w.address });
    await browser.client.auth.signIn.mutate({ address: w.address, message, signature: w.sign(message) });
    cookie = [...browser.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const rw = newWallet();
    const post = (p: string, body: unknown) => fetch(`${server.url}${p}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const n = await (await post('/api/v1/auth/nonce', { wallet_address: rw.address })).json();
    token = (await (await post('/api/v1/auth/connect', { wallet_address: rw.address, message: n.message, signature: rw.sign(n.message) })).json()).token;
    expect(token).toBeTruthy();
  });
  afterAll(async () => {
    await server?.close();
  });

  const multipart = ['Multipart/form-data', 'MULTIPART/FORM-DATA', 'multipart/Form-Data', 'multipart/form-data'];
  type Case = [string, () => { path: string; headers: Record<string, string>; contentLength?: number }, (a: Answer) => void];
  const cases: Case[] = [
    ...multipart.map((ct): Case => [`anonymous public.verifyFile, chunked ${ct}`, () => ({ path: '/trpc/public.verifyFile', headers: { 'content-type': `${ct}; boundary=x` } }), TRPC_413]),
    ['signed-in certificate.create, chunked Multipart/form-data', () => ({ path: '/trpc/certificate.create', headers: { cookie, 'content-type': 'Multipart/form-data; boundary=x' } }), TRPC_413],
    ['signed-in profile.uploadPhoto, chunked MULTIPART/FORM-DATA', () => ({ path: '/trpc/profile.uploadPhoto', headers: { cookie, 'content-type': 'MULTIPART/FORM-DATA; boundary=x' } }), TRPC_413],
    [
      'anonymous certificate.create: refused before the body is read (401), connection closed',
      () => ({ path: '/trpc/certificate.create', headers: { 'content-type': 'Multipart/form-data; boundary=x' } }),
      (a) => {
        expect(a.status).toBe(401);
        expect(a.body.error.data.code).toBe('UNAUTHORIZED');
      },
    ],
    [
      'tRPC, chunked JSON',
      () => ({ path: '/trpc/public.verifyFile', headers: { 'content-type': 'Application/JSON' } }),
      (a) => {
        expect(a.status).toBe(413);
        expect(JSON.stringify(a.body)).toMatch(/too large/i);
      },
    ],
    [
      'tRPC, chunked with no content type: refused before reading (415)',
      () => ({ path: '/trpc/public.verifyFile', headers: {} }),
      (a) => {
        expect(a.status).toBe(415);
        expect(String(a.body.message ?? a.body.error?.message).length).toBeGreaterThan(0);
      },
    ],
    ['tRPC, declared Content-Length over the limit: refused before reading', () => ({ path: '/trpc/public.verifyFile', headers: { 'content-type': 'multipart/form-data; boundary=x' }, contentLength: ATTACK_BYTES }), TRPC_413],
    ['REST upload, chunked Multipart/form-data', () => ({ path: '/api/v1/certificates', headers: { authorization: `Bearer ${token}`, 'content-type': 'Multipart/form-data; boundary=x' } }), REST(413, 'payload_too_large')],
    ['REST upload, chunked MULTIPART/FORM-DATA', () => ({ path: '/api/v1/certificates', headers: { authorization: `Bearer ${token}`, 'content-type': 'MULTIPART/FORM-DATA; boundary=x' } }), REST(413, 'payload_too_large')],
    ['REST upload, chunked with no content type (415 before reading)', () => ({ path: '/api/v1/certificates', headers: { authorization: `Bearer ${token}` } }), REST(415, 'unsupported_media_type')],
    ['REST upload, anonymous (401 before reading)', () => ({ path: '/api/v1/certificates', headers: { 'content-type': 'Multipart/form-data; boundary=x' } }), REST(401, 'unauthorized')],
    ['REST, declared Content-Length over the limit', () => ({ path: '/api/v1/certificates', headers: { authorization: `Bearer ${token}`, 'content-type': 'multipart/form-data; boundary=x' }, contentLength: ATTACK_BYTES }), REST(413, 'payload_too_large')],
    [
      'plain route (JSON-RPC), chunked, no content type',
      () => ({ path: '/rpc', headers: {} }),
      (a) => {
        // In JSON-RPC's shape, as a Solana validator answers a body over its limit.
        expect(a.status).toBe(413);
        expect(a.body.error?.message).toMatch(/too large/i);
      },
    ],
    [
      'plain route, declared Content-Length over the limit',
      () => ({ path: '/rpc', headers: { 'content-type': 'application/json' }, contentLength: ATTACK_BYTES }),
      (a) => {
        expect(a.status).toBe(413);
        expect(a.body).toMatchObject({ statusCode: 413, message: expect.stringMatching(/too large \(max 25 MB\)/) });
      },
    ],
    ['a GET-only route posted to (404 before reading)', () => ({ path: '/healthz', headers: { 'content-type': 'Multipart/form-data; boundary=x' } }), (a) => expect(a.status).toBe(404)],
  ];

  it('answers every oversized body early, in the route’s shape, writes nothing, and does not hold the bodies', async () => {
    const written = await footprint(server);
    const seen: string[] = [];
    let maxGrowth = 0;
    for (const [name, target, check] of cases) {
      const t = target();
      let a: Answer | undefined;
      const before = process.memoryUsage().rss;
      const peak = await peakRssDuring(async () => {
        a = await attack(`${server.url}${t.path}`, { headers: t.headers, contentLength: t.contentLength });
      });
      const grownMb = (peak - before) / MB;
      maxGrowth = Math.max(maxGrowth, grownMb);
      seen.push(`${name}: ${a!.status} after ${(a!.sent / MB).toFixed(1)} MB sent, RSS +${grownMb.toFixed(0)} MB`);
      check(a!);
      early(a!);
    }
    expect(await footprint(server)).toEqual(written);
    // Generous: a reader holds at most the 25 MB limit (plus what the client's socket buffered);
    // before the fix a 60 MB attack on tRPC was buffered whole and copied (well over 100 MB each).
    expect(maxGrowth, seen.join('\n')).toBeLessThan(100);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  it('a chunked upload under the limit is read and handled as usual (no Content-Length needed)', async () => {
    const small = await attack(`${server.url}/trpc/public.verifyFile`, { headers: { 'content-type': 'Multipart/form-data; boundary=x' }, total: 1 * MB });
    expect(small.finished).toBe(true);
    expect(small.status).toBe(200);
    expect(small.body.result.data.status).toBe('not_found'); // hashed, not registered
  });
});

describe('registerBodyLimit on any route', () => {
  const LIMIT = 1 * MB;
  let app: FastifyInstance;
  let url = '';
  let streamedBytes = 0;
  beforeAll(async () => {
    app = Fastify();
    registerBodyLimit(app, LIMIT);
    // A route that reads its body as a raw stream with no limit of its own (as tRPC's multipart parser does).
    app.register(async (scope: FastifyInstance) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', (_req: unknown, payload: NodeJS.ReadableStream, done: (err: Error | null, body?: unknown) => void) => {
        const parts: Buffer[] = [];
        payload.on('data', (c: Buffer) => parts.push(c));
        payload.on('error', (e: Error) => done(e, undefined));
        payload.on('end', () => done(null, Buffer.concat(parts)));
      });
      scope.post('/stream', async (req: { body: unknown }) => {
        streamedBytes = (req.body as Buffer).length;
        return { bytes: streamedBytes };
      });
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const addr = app.server.address();
    url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('stops a chunked body at the limit with a 413 that says so, before it ends', async () => {
    for (const ct of ['Multipart/form-data; boundary=x', 'application/octet-stream', undefined]) {
      const a = await attack(`${url}/stream`, { headers: ct ? { 'content-type': ct } : {}, total: 20 * MB });
      expect(a.status, String(ct)).toBe(413);
      expect(a.body).toMatchObject({ statusCode: 413, message: 'The request is too large (max 1 MB).' });
      expect(a.finished).toBe(false);
    }
  });

  it('refuses a declared Content-Length over the limit before reading, and lets a body under it through', async () => {
    const over = await attack(`${url}/stream`, { headers: { 'content-type': 'text/plain' }, contentLength: 2 * LIMIT, total: 2 * LIMIT });
    expect(over.status).toBe(413);
    const under = await attack(`${url}/stream`, { headers: { 'content-type': 'text/plain' }, total: LIMIT / 2 });
    expect(under.status).toBe(200);
    expect(under.finished).toBe(true);
    expect(streamedBytes).toBeGreaterThan(LIMIT / 2);
    expect(streamedBytes).toBeLessThan(LIMIT);
  });

  it('uses the product limit of 25 MB by default', () => {
    expect(MAX_REQUEST_BYTES).toBe(25 * MB);
  });
});
