// Property-based fuzzing of every REST endpoint (ENDPOINTS) and plain HTTP route (issue 8): fuzzed
// path params, query strings, JSON and multipart bodies, garbage bodies and content types, with and
// without credentials. Never a 5xx or a hung request; errors in the documented shape with a status
// the endpoint documents; a refused call writes nothing. Seed: FC_SEED.
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restErrorCodes } from '../../shared/schemas/rest';
import { ENDPOINTS } from '../src/rest/endpoints';
import { createLocalPermanentStore } from '../src/services/permanent';
import { containsNul, FC_SEED, fcParams, garbageBody, nastyString, nastyValue, sometimes } from './fuzz-support/arbitraries';
import { buildForm, enc, expectNoWrite, expectPrototypeClean, fetchT, randomIp, settle, snap, startFuzzServer, type Actor, type Fixture } from './fuzz-support/harness';
import { makeInstitution, restSpecs, type RestSpec } from './fuzz-support/rest-specs';

const RUNS_PER_ENDPOINT = Number(process.env.FC_RUNS ?? 24);
const ENDPOINT_KEYS = ENDPOINTS.map((e) => `${e.method} ${e.path}`);
// Served outside the REST table; their path params are fuzzed the same way.
const PLAIN_ROUTES = ['GET /files/certificates/{id}', 'GET /files/photos/{userId}', 'GET /permanent/{id}', 'HEAD /permanent/{id}'];
/**
 * Registered routes fuzzed elsewhere or with nothing to fuzz: /trpc/:path (fuzz-trpc.test.ts), the
 * catch-all `*` and /api/v1/* 404s (the raw test below hits them), /healthz and /api/openapi.json (no
 * input), /rpc (the Solana JSON-RPC of the embedded chain: rpc.test.ts), /api/dev/accounts (the
 * development accounts: fuzz-dev-accounts.test.ts, on a server without TRUST_PROXY — behind the proxy this
 * suite's server sets, every answer would be the same refusal), and the built web app's files.
 */
const OUT_OF_SCOPE = /^(\/trpc\/:path|\/api\/dev\/accounts|\/?\*|\/|\/healthz|\/api\/openapi\.json|\/api\/v1\/\*|\/rpc|\/favicon\.svg|\/assets\/.*|\/[^/]+\.(png|svg|ico|webmanifest|txt|html|js|css))$/;
const CODE_BY_STATUS: Record<number, string> = { 400: 'bad_request', 401: 'unauthorized', 403: 'forbidden', 404: 'not_found', 409: 'conflict', 412: 'precondition_failed', 413: 'payload_too_large', 415: 'unsupported_media_type', 429: 'rate_limited' };

type AuthKind = 'none' | 'key' | 'token' | 'revoked' | 'unknown-key' | 'garbage' | 'basic' | 'cookie-only';

let f: Fixture;
let specs: Record<string, RestSpec>;
let connectToken: string;
let revokedKey: string;

async function connect(actor: Actor): Promise<string> {
  const post = (p: string, body: unknown) => fetchT(`${f.url}${p}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const { message } = (await (await post('/api/v1/auth/nonce', { wallet_address: actor.wallet.address })).json()) as { message: string };
  const r = (await (await post('/api/v1/auth/connect', { wallet_address: actor.wallet.address, message, signature: actor.wallet.sign(message) })).json()) as { token: string };
  return r.token;
}

beforeAll(async () => {
  f = await startFuzzServer();
  // A permanent copy to serve (minting needs a wallet-signed transaction; the store is what /permanent reads).
  const store = createLocalPermanentStore({ dir: path.join(f.server.services.config.dataDir, 'permanent'), publicBaseUrl: f.url });
  const { id: permanentId } = await store.put(new TextEncoder().encode('{"name":"fuzz"}'), 'application/json');
  // A is also an approved institution with a proven domain, and B asked it to confirm B's certificate:
  // the institution endpoints' happy paths are reachable with A's key.
  const institution = await makeInstitution(f);
  specs = restSpecs(f, permanentId, institution);
  connectToken = await connect(f.a);
  const k = await f.a.client.apiKeys.create.mutate({ name: 'revoked' });
  await f.a.client.apiKeys.revoke.mutate({ id: k.api_key.id });
  revokedKey = k.key;
}, 120_000);
afterAll(async () => {
  await f?.close();
});

const show = (v: unknown) => {
  try {
    return (JSON.stringify(v, (_k, x) => (x instanceof Uint8Array ? `<${x.length} bytes>` : x)) ?? String(v)).slice(0, 300);
  } catch {
    return String(v).slice(0, 300);
  }
};

function authHeaders(kind: AuthKind): Record<string, string> {
  switch (kind) {
    case 'none':
      return {};
    case 'key':
      return { authorization: `Bearer ${f.aKey.key}` };
    case 'token':
      return { authorization: `bearer  ${connectToken} ` };
    case 'revoked':
      return { authorization: `Bearer ${revokedKey}` };
    case 'unknown-key':
      return { authorization: `Bearer ${f.aKey.key.slice(0, -4)}AAAA` };
    case 'garbage':
      return { authorization: `Bearer ${'x'.repeat(300)}\u00e9` };
    case 'basic':
      return { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` };
    case 'cookie-only':
      return { cookie: f.a.cookie() };
  }
}

function queryString(q: unknown, raw: string | undefined): string {
  const sp = new URLSearchParams();
  if (q && typeof q === 'object' && !Array.isArray(q)) {
    for (const [k, v] of Object.entries(q)) {
      if (Array.isArray(v)) for (const x of v) sp.append(k, typeof x === 'string' ? x : JSON.stringify(x) ?? '');
      else if (v !== undefined) sp.append(k, typeof v === 'string' ? v : JSON.stringify(v) ?? '');
    }
  }
  const s = sp.toString();
  return [s, raw].filter(Boolean).join('&');
}

/** The documented error shape: `{error: {code, message, fields?}}`, its code matching the status. */
function expectRestError(status: number, body: any, ctx: string) {
  expect(body?.error, `REST error shape: ${ctx}`).toBeTruthy();
  expect(restErrorCodes as readonly string[], ctx).toContain(body.error.code);
  expect(body.error.code, ctx).toBe(CODE_BY_STATUS[status]);
  expect(typeof body.error.message === 'string' && body.error.message.trim().length > 3, `a message that says what to fix: ${ctx}`).toBe(true);
  expect(body.error.message, ctx).not.toMatch(/internal|stack|at \w+ \(/i);
  if (body.error.fields !== undefined) for (const v of Object.values(body.error.fields)) expect(typeof v, ctx).toBe('string');
}

describe(`fuzz: every REST endpoint and plain HTTP route (seed ${FC_SEED})`, () => {
  it('has a fuzz spec for every ENDPOINTS entry and plain route (nothing skipped), and none for a missing one', () => {
    expect(ENDPOINT_KEYS.length).toBeGreaterThan(8);
    const all = [...ENDPOINT_KEYS, ...PLAIN_ROUTES];
    expect(all.filter((k) => !specs[k]), 'endpoints without a fuzz spec').toEqual([]);
    expect(Object.keys(specs).filter((k) => !all.includes(k)), 'specs of endpoints that no longer exist').toEqual([]);
    expect(ENDPOINTS.filter((e) => e.body?.contentType === 'multipart/form-data').every((e) => specs[`${e.method} ${e.path}`].multipart)).toBe(true);
  });

  it('every route the server registers is fuzzed (here or by fuzz-trpc) or named out of scope', () => {
    // fastify's route tree, one route per line with its parent's prefix by indentation.
    const tree = f.server.app.printRoutes({ commonPrefix: false });
    const stack: string[] = [];
    const routes: string[] = [];
    for (const line of tree.split('\n')) {
      const m = /^([\s│]*)[└├]── (.*?) \(([A-Z, ]+)\)$/.exec(line);
      if (!m) continue;
      const depth = m[1].length / 4;
      stack.length = depth;
      const full = (stack[depth - 1] ?? '') + (depth === 0 ? '' : m[2].startsWith('/') ? '' : '/') + m[2];
      stack[depth] = full === '/' ? '' : full;
      routes.push(`${full.startsWith('/') ? '' : '/'}${full}`.replace(/\/+/g, '/'));
    }
    expect(routes.length).toBeGreaterThan(10);
    const covered = new Set([...ENDPOINT_KEYS, ...PLAIN_ROUTES].map((k) => k.split(' ')[1].replace(/\{(\w+)\}/g, ':$1')));
    const missed = routes.filter((r) => !covered.has(r) && !OUT_OF_SCOPE.test(r));
    expect(missed, `routes no fuzz test covers (tree:\n${tree.slice(0, 1500)})`).toEqual([]);
  });

  for (const key of [...ENDPOINT_KEYS, ...PLAIN_ROUTES]) {
    const [method, path] = key.split(' ') as ['GET' | 'POST' | 'HEAD', string];
    const ep = ENDPOINTS.find((e) => `${e.method} ${e.path}` === key);
    it(`${key}: no 5xx, documented statuses and error shape, a refused call writes nothing`, async () => {
      const spec = specs[key];
      const paramNames = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const call = fc.record({
        params: fc.record(Object.fromEntries(paramNames.map((n) => [n, fc.oneof({ weight: 3, arbitrary: spec.params![n] }, { weight: 1, arbitrary: nastyString })]))) as fc.Arbitrary<Record<string, string>>,
        query: spec.query ?? fc.constant(undefined),
        rawQuery: sometimes(fc.oneof(nastyString.map((s) => `${enc(s)}=${enc(s)}`), fc.constantFrom('a=%ZZ', '__proto__[polluted]=yes', 'status=all&status=pending', 'search[]=x', 'constructor[prototype][polluted]=yes'))),
        body: spec.body ?? fc.option(nastyValue, { nil: undefined }),
        garbage: method === 'POST' ? sometimes(garbageBody) : fc.constant(undefined),
        auth: fc.constantFrom<AuthKind>('key', 'key', 'token', 'none', 'revoked', 'unknown-key', 'garbage', 'basic', 'cookie-only'),
      });
      let accepted = 0;
      await fc.assert(
        fc.asyncProperty(call, async (c: { params: Record<string, string>; query: unknown; rawQuery: string | undefined; body: unknown; garbage: { contentType: string | null; body: string | Uint8Array } | undefined; auth: AuthKind }) => {
          await settle(f);
          const headers: Record<string, string> = { 'x-forwarded-for': randomIp(), ...authHeaders(c.auth) };
          const url = `${f.url}${path.replace(/\{(\w+)\}/g, (_m, n: string) => enc(c.params[n]))}`;
          const qs = queryString(c.query, c.rawQuery);
          let body: BodyInit | undefined;
          if (method === 'POST') {
            if (c.garbage) {
              if (c.garbage.contentType) headers['content-type'] = c.garbage.contentType;
              body = c.garbage.body as BodyInit;
            } else if (spec.multipart && Array.isArray(c.body)) {
              body = await buildForm(f, c.body as never);
            } else if (c.body !== undefined) {
              headers['content-type'] = 'application/json';
              body = JSON.stringify(c.body);
            }
          }
          if (spec.prepare && !c.garbage && typeof body === 'string') body = JSON.stringify(await spec.prepare(c.body));
          const before = await snap(f);
          const res = await fetchT(`${url}${qs ? `?${qs}` : ''}`, { method, headers, body });
          const text = await res.text();
          const ctx = `${key} auth=${c.auth} params=${show(c.params)} query=${show(qs)} body=${show(c.garbage ?? c.body)} → ${res.status} ${text.slice(0, 300)}`;
          expect(res.status, ctx).toBeLessThan(500);
          let data: any;
          const json = ep ? true : res.status >= 400;
          if (method !== 'HEAD' && json && res.status !== 414 && res.status !== 431) expect(() => (data = JSON.parse(text)), `JSON body: ${ctx}`).not.toThrow();
          if (res.status === 414 || res.status === 431) {
            // URL or headers over Node's/fastify's limits: refused before routing, in fastify's error JSON.
            if (method !== 'HEAD') expect(String(JSON.parse(text).message ?? '').length, ctx).toBeGreaterThan(0);
          } else if (ep) {
            // 415: a body in a content type the API does not read (JSON or multipart only), on any POST.
            const sentType = headers['content-type'] ?? '';
            const foreign = method === 'POST' && !!c.garbage && !/^(application\/json|multipart\/form-data)\b/i.test(sentType);
            const documented = [...Object.keys(ep.responses).map(Number), ...ep.errors, 429, ...(foreign ? [415] : [])];
            expect(documented, `status documented for ${key}: ${ctx}`).toContain(res.status);
            if (res.status >= 400) expectRestError(res.status, data, ctx);
            if (ep.auth && !['key', 'token'].includes(c.auth)) expect(res.status, `no valid credential: ${ctx}`).toBe(401);
          } else {
            expect([200, 304, 404], ctx).toContain(res.status);
            if (res.status === 404 && method !== 'HEAD') expect(typeof data.error === 'string' && data.error.length > 0, ctx).toBe(true);
          }
          if (res.status >= 400) return expectNoWrite(f, before, ctx);
          accepted++;
          // (Unknown body keys are dropped by the schemas, so only the path params must be NUL-free.)
          expect(containsNul(c.params), `accepted an input with a NUL: ${ctx}`).toBe(false);
          if (key === 'POST /api/v1/auth/disconnect') connectToken = await connect(f.a); // it ended the token
          if (spec.accepted) await spec.accepted({ params: c.params, query: c.query, body: c.body }, res.status, data, res);
        }),
        {
          ...fcParams(RUNS_PER_ENDPOINT),
          examples: [
            [{ params: spec.example.params ?? {}, query: spec.example.query, rawQuery: undefined, body: spec.example.body, garbage: undefined, auth: key.endsWith('/disconnect') ? 'token' : 'key' }],
            // NUL in every path param: PostgreSQL text cannot hold one, so it must be refused before any query.
            [{ params: Object.fromEntries(paramNames.map((n) => [n, `${spec.example.params?.[n] ?? 'x'}\u0000`])), query: { search: 'a\u0000', download: '\u0000' }, rawQuery: undefined, body: undefined, garbage: undefined, auth: 'key' }],
          ],
        },
      );
      expectPrototypeClean();
      // Not only refusals: every route's happy path was reached at least once (mint's step 2 needs a wallet signature; step 1 is reachable).
      expect(accepted, `no fuzzed call to ${key} was accepted`).toBeGreaterThan(0);
    });
  }

  it('raw garbage on any /api path, method and content type is a 4xx in the error shape that writes nothing', async () => {
    const paths = [...new Set([...ENDPOINT_KEYS.map((k) => k.split(' ')[1]), '/api/v1/nope', '/api/v1/', '/api/v1/certificates/x/y', '/api/v1/verify/hash/'])];
    const call = fc.record({
      path: fc.constantFrom(...paths),
      param: nastyString,
      method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'),
      body: garbageBody,
      auth: fc.constantFrom<AuthKind>('none', 'key', 'token', 'garbage'),
    });
    await fc.assert(
      fc.asyncProperty(call, async (c) => {
        await settle(f);
        const headers: Record<string, string> = { 'x-forwarded-for': randomIp(), ...authHeaders(c.auth) };
        if (c.body.contentType) headers['content-type'] = c.body.contentType;
        const url = `${f.url}${c.path.replace(/\{(\w+)\}/g, () => enc(c.param))}`;
        const hasBody = !['GET', 'OPTIONS'].includes(c.method);
        const before = await snap(f);
        const res = await fetchT(url, { method: c.method, headers, body: hasBody ? (c.body.body as BodyInit) : undefined });
        const text = await res.text();
        const ctx = `${c.method} ${url.slice(f.url.length, f.url.length + 200)} auth=${c.auth} [${c.body.contentType}] ${show(c.body.body)} → ${res.status} ${text.slice(0, 300)}`;
        expect(res.status, ctx).toBeLessThan(500);
        if (res.status >= 400) {
          let data: any;
          expect(() => (data = JSON.parse(text)), `JSON body: ${ctx}`).not.toThrow();
          if ([414, 431].includes(res.status)) expect(String(data.message ?? '').length, ctx).toBeGreaterThan(0);
          else expectRestError(res.status, data, ctx);
          await expectNoWrite(f, before, ctx);
        }
      }),
      fcParams(Number(process.env.FC_RUNS_RAW ?? 120)),
    );
    expectPrototypeClean();
  });

  it('stays healthy afterwards: health ok, the API answers, and a normal create → verified works', async () => {
    const h = await fetchT(`${f.url}/healthz`);
    expect(h.status).toBe(200);
    await settle(f);
    const fd = await buildForm(f, [
      ['title', 'Bachelor of Science after-rest'],
      ['institution_name', 'Northwind University'],
      ['program_name', 'Computer Science'],
      ['issue_date', '2024-05-01'],
      ['file', { file: { kind: 'raw', bytes: await (await import('./helpers')).makePdf(['Northwind University', 'Bachelor of Science after-rest', 'Computer Science']) }, filename: 'c.pdf', type: 'application/pdf' }],
    ]);
    const res = await fetchT(`${f.url}/api/v1/certificates`, { method: 'POST', headers: { authorization: `Bearer ${f.aKey.key}` }, body: fd });
    expect(res.status, await res.clone().text()).toBe(201);
    const { id } = (await res.json()) as { id: string };
    await settle(f);
    const st = await fetchT(`${f.url}/api/v1/verify/status/${id}`, { headers: { authorization: `Bearer ${f.aKey.key}` } });
    expect(((await st.json()) as { status: string }).status).toBe('verified');
  });
});
