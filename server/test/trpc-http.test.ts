// The server answers GET queries itself (src/trpc-http.ts) instead of through tRPC's fastify adapter:
// the same answers, byte for byte. A second fastify serves the same router and context through the
// stock adapter; every request below goes to both and must get the same status, content type, vary
// header and body.
import fs from 'node:fs';
import fastifyCookie from '@fastify/cookie';
import { fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import { initTRPC, TRPCError } from '@trpc/server';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server } from '../src/app';
import { contextFactory } from '../src/context';
import { appRouter } from '../src/router';
import { registerTrpc } from '../src/trpc-http';
import { makeClient, signIn, startTestServer, tmpDataDir } from './helpers';

let server: Server;
let stock: FastifyInstance;
let stockUrl: string;
let dir: string;
let cookie: string;

beforeAll(async () => {
  dir = tmpDataDir();
  server = await startTestServer(dir);
  stock = Fastify();
  await stock.register(fastifyCookie);
  await stock.register(fastifyTRPCPlugin, { prefix: '/trpc', trpcOptions: { router: appRouter, createContext: contextFactory(server.services) } });
  stockUrl = await stock.listen({ port: 0, host: '127.0.0.1' });
  const c = makeClient(server.url);
  await signIn(c);
  cookie = [...c.jar].map(([k, v]) => `${k}=${v}`).join('; ');
});
afterAll(async () => {
  await stock?.close();
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const enc = (v: unknown) => encodeURIComponent(JSON.stringify(v));
const hash = 'ab'.repeat(32);

async function both(path: string, init: RequestInit = {}) {
  const ask = async (base: string) => {
    const res = await fetch(`${base}${path}`, { redirect: 'manual', ...init });
    const body = init.method === 'HEAD' ? '' : await res.text();
    // A verdict carries the time it was checked; nothing else in these answers changes between calls.
    return { status: res.status, type: res.headers.get('content-type'), vary: res.headers.get('vary'), body: body.replace(/"checked_at":"[^"]+"/g, '"checked_at":"…"') };
  };
  return { ours: await ask(server.url), stock: await ask(stockUrl) };
}

describe('GET queries answered without the adapter', () => {
  const cases: [string, string, boolean?][] = [
    ['a query without input', '/trpc/health'],
    ['a batch of one', `/trpc/health?batch=1&input=${enc({})}`],
    ['auth.me signed out', '/trpc/auth.me'],
    ['auth.me signed in', '/trpc/auth.me', true],
    ['a protected query signed out (401)', '/trpc/profile.get'],
    ['a protected query signed in', '/trpc/profile.get', true],
    ['a query with input', `/trpc/public.verifyByHash?input=${enc({ sha256: hash })}`],
    ['input the schema refuses (400, zod error)', `/trpc/public.verifyByHash?input=${enc({ sha256: 'xyz' })}`],
    ['NUL in the input', `/trpc/public.verifyByHash?input=${enc({ sha256: `${hash.slice(0, 63)}\u0000` })}`],
    ['input that is not JSON', '/trpc/public.verifyByHash?input=%7Bnot-json'],
    ['a batch mixing answers and refusals (207)', `/trpc/health,public.verifyByHash,profile.get?batch=1&input=${enc({ 1: { sha256: 'bad' } })}`],
    ['a batch whose input is not an object', `/trpc/health,health?batch=1&input=${enc([1, 2])}`],
    ['a signed-in batch', `/trpc/auth.me,profile.get,certificate.list?batch=1&input=${enc({ 2: {} })}`, true],
    ['an unknown procedure (adapter)', '/trpc/nope.nothing'],
    ['a batch with an unknown procedure (adapter)', `/trpc/health,nope?batch=1&input=${enc({})}`],
    ['a mutation by GET (adapter, 405)', `/trpc/auth.signOut`],
    ['a percent-encoded path', '/trpc/%68ealth'],
    ['a malformed path encoding (adapter)', '/trpc/%E0%A4%A'],
  ];
  for (const [name, path, signedIn] of cases) {
    it(name, async () => {
      const { ours, stock: theirs } = await both(path, signedIn ? { headers: { cookie } } : {});
      expect(ours).toEqual(theirs);
    });
  }

  it('the answers are JSON with the status tRPC gives', async () => {
    const { ours } = await both(`/trpc/health,profile.get?batch=1&input=${enc({})}`);
    expect(ours.status).toBe(207);
    expect(JSON.parse(ours.body)).toEqual([{ result: { data: { ok: true } } }, { error: expect.objectContaining({ data: expect.objectContaining({ code: 'UNAUTHORIZED', httpStatus: 401 }) }) }]);
  });

  it('HEAD, and a GET with a body type, go to the adapter as before', async () => {
    const head = await both('/trpc/health', { method: 'HEAD' });
    expect(head.ours.status).toBe(head.stock.status);
    const typed = await both('/trpc/health', { headers: { 'content-type': 'application/json' } });
    expect(typed.ours).toEqual(typed.stock);
  });

  it('a router with a transformer of its own: its answers and errors are transformed as the adapter does', async () => {
    // The server's router has none (its answers are written as they are); another router's are not.
    const tt = initTRPC.create({ transformer: { serialize: (v: unknown) => ({ wrapped: v }), deserialize: (v: unknown) => (v as { wrapped: unknown })?.wrapped } });
    const router = tt.router({
      hello: tt.procedure.query(() => ({ hi: 1 })),
      refuse: tt.procedure.query(() => {
        throw new TRPCError({ code: 'FORBIDDEN', message: 'no' });
      }),
    });
    const serve = async (direct: boolean) => {
      const app = Fastify();
      if (direct) await registerTrpc(app, '/trpc', { router });
      else await app.register(fastifyTRPCPlugin, { prefix: '/trpc', trpcOptions: { router } });
      return { app, base: await app.listen({ port: 0, host: '127.0.0.1' }) };
    };
    const ours = await serve(true);
    const theirs = await serve(false);
    try {
      for (const path of ['/trpc/hello', `/trpc/hello,refuse?batch=1&input=${enc({})}`, '/trpc/refuse']) {
        const [a, b] = await Promise.all([ours, theirs].map(async ({ base }) => {
          const res = await fetch(`${base}${path}`);
          return { status: res.status, body: (await res.text()).replace(/"stack":"[^"]*"/g, '') };
        }));
        expect(a, path).toEqual(b);
      }
      const hello = await (await fetch(`${ours.base}/trpc/hello`)).json();
      expect(hello).toEqual({ result: { data: { wrapped: { hi: 1 } } } });
    } finally {
      await ours.app.close();
      await theirs.app.close();
    }
  });

  it('is the path taken: a direct answer has a length, the adapter streams its Response', async () => {
    // Without the server's buffering hook (app.ts), the adapter's web Response goes out chunked.
    const bare = Fastify();
    await bare.register(fastifyCookie);
    await registerTrpc(bare, '/trpc', { router: appRouter, createContext: contextFactory(server.services) });
    const base = await bare.listen({ port: 0, host: '127.0.0.1' });
    try {
      const direct = await fetch(`${base}/trpc/health`);
      expect(direct.headers.get('content-length')).toBe(String((await direct.text()).length));
      const adapter = await fetch(`${base}/trpc/nope`);
      expect(adapter.status).toBe(404);
      expect(adapter.headers.get('transfer-encoding')).toBe('chunked');
    } finally {
      await bare.close();
    }
  });
});
