// Security headers, CSRF protection of cookie-authenticated mutations, and no session fixation.
import fs from 'node:fs';
import http from 'node:http';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server } from '../src/app';
import { CSRF_MESSAGE, FILE_CSP, PAGE_CSP } from '../src/http/security';
import { certForm, makeClient, makePdf, newWallet, signIn, startTestServer, tmpDataDir } from './helpers';

let server: Server;
let dir: string;
let appDir: string;
beforeAll(async () => {
  dir = tmpDataDir();
  // A minimal built app, so the SPA routes (and their headers) exist without building the real one.
  appDir = tmpDataDir();
  fs.writeFileSync(`${appDir}/index.html`, '<!doctype html><html><body><div id="root"></div></body></html>');
  server = await startTestServer(dir, { APP_DIST_DIR: appDir, ATTESTA_PUBLIC_ORIGIN: 'https://attesta.example' });
});
afterAll(async () => {
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(appDir, { recursive: true, force: true });
});

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const sessionRows = () => server.services.db.selectFrom('session').selectAll().execute();

function post(c: ReturnType<typeof makeClient> | null, path: string, body: unknown, headers: Record<string, string> = {}) {
  const init = { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) };
  return c ? c.fetch(`${server.url}/trpc/${path}`, init) : fetch(`${server.url}/trpc/${path}`, init);
}

function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; headers: Headers }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        res.resume();
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) h.set(k, Array.isArray(v) ? v.join(', ') : v);
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: h }));
      })
      .on('error', reject);
  });
}

const common = (h: Headers) => {
  expect(h.get('x-content-type-options')).toBe('nosniff');
  expect(h.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  expect(h.get('cross-origin-opener-policy')).toBe('same-origin');
  expect(h.get('permissions-policy')).toMatch(/camera=\(\)/);
};

describe('security headers', () => {

  it('the SPA pages carry the strict CSP and may not be framed', async () => {
    for (const p of ['/', '/verification', '/login', '/view/u_x/c_y']) {
      const res = await fetch(`${server.url}${p}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/text\/html/);
      const csp = res.headers.get('content-security-policy')!;
      expect(csp).toBe(PAGE_CSP);
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe/);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      common(res.headers);
    }
  });

  it('API, tRPC, REST, RPC and 404 responses carry headers too; /files may be framed by our own pages', async () => {
    for (const [p, init] of [
      ['/healthz', {}],
      ['/trpc/health', {}],
      ['/api/v1/nope', {}],
      ['/rpc', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getHealth' }) }],
    ] as const) {
      const res = await fetch(`${server.url}${p}`, init as RequestInit);
      expect(res.headers.get('content-security-policy'), p).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers.get('x-frame-options'), p).toBe('DENY');
      common(res.headers);
    }
    const file = await fetch(`${server.url}/files/certificates/c_missing`);
    expect(file.headers.get('content-security-policy')).toBe(FILE_CSP);
    expect(file.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    common(file.headers);
  });
});

describe('revalidated and HEAD pages (a browser reload, a link previewer)', () => {
  it('a 304 for a cached page carries no CSP, so the page keeps its own (the resource CSP once blanked every reload)', async () => {
    for (const p of ['/', '/dashboard', '/view/u_x/c_y']) {
      const first = await fetch(`${server.url}${p}`);
      expect(first.headers.get('content-security-policy'), p).toBe(PAGE_CSP);
      expect(first.headers.get('cache-control'), p).toBe('no-cache');
      const etag = first.headers.get('etag');
      const lastModified = first.headers.get('last-modified');
      expect(etag ?? lastModified, p).toBeTruthy();
      // node:http, as a browser revalidates (fetch adds `cache-control: no-cache` to conditional requests).
      const again = await rawGet(`${server.url}${p}`, etag ? { 'if-none-match': etag } : { 'if-modified-since': lastModified! });
      expect(again.status, p).toBe(304);
      expect(again.headers.get('content-security-policy'), p).toBeNull();
      expect(again.headers.get('x-frame-options'), p).toBeNull();
      common(again.headers);
    }
  });

  it('HEAD on an app route answers like GET, without a body', async () => {
    for (const p of ['/dashboard', '/certificates/c_1', '/view/u_x/c_y', '/']) {
      const res = await fetch(`${server.url}${p}`, { method: 'HEAD' });
      expect(res.status, p).toBe(200);
      expect(res.headers.get('content-type'), p).toMatch(/text\/html/);
      expect(res.headers.get('content-security-policy'), p).toBe(PAGE_CSP);
      expect(await res.text(), p).toBe('');
    }
    // The API stays JSON (no page under /api/v1 or /trpc).
    expect((await fetch(`${server.url}/api/v1/nope`, { method: 'HEAD' })).status).toBe(404);
  });

  it('a path that is no page of the app gets the app (its not-found page) with status 404; a missing asset is a plain 404', async () => {
    for (const p of ['/nonexistent-page', '/certificates/c_1/extra', '/view/u_x', '/dashboardx', '/privacy-policy/x']) {
      const res = await fetch(`${server.url}${p}`);
      expect(res.status, p).toBe(404);
      expect(res.headers.get('content-type'), p).toMatch(/text\/html/);
      expect(res.headers.get('content-security-policy'), p).toBe(PAGE_CSP);
      expect(await res.text(), p).toContain('<div id="root">');
    }
    // Every page of the app (shared/app-routes.ts), with and without a query or a trailing slash, is 200.
    for (const p of ['/', '/login', '/verification?id=cert-1', '/explorer/tx/5abc', '/terms-of-service', '/certificates/create', '/certificates/c_1/', '/operator', '/api']) {
      expect((await fetch(`${server.url}${p}`)).status, p).toBe(200);
    }
    // An asset the build no longer has (an old page asking for a replaced chunk): not the app's page,
    // which the browser would refuse as a script and show a blank page.
    const asset = await fetch(`${server.url}/assets/index-gone.js`);
    expect(asset.status).toBe(404);
    expect(asset.headers.get('content-type')).toMatch(/application\/json/);
    expect((await fetch(`${server.url}/assets/index-gone.js`, { method: 'HEAD' })).status).toBe(404);
  });
});

describe('CSRF: cookie-authenticated mutations must come from our origin', () => {
  it('refuses a cross-site mutation with the session cookie (403, nothing written); the same from our origin works', async () => {
    const c = makeClient(server.url);
    const { user } = await signIn(c);
    const nameOf = async () => (await server.services.db.selectFrom('user').select('full_name').where('id', '=', user.id).executeTakeFirstOrThrow()).full_name;
    const before = await nameOf();

    const crossSite: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
      { 'sec-fetch-site': 'same-site', origin: 'https://sub.attesta.example' },
      { 'sec-fetch-site': 'cross-site' },
    ];
    for (const headers of crossSite) {
      const res = await post(c, 'profile.update', { full_name: 'Pwned' }, headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      const body = (await res.json()) as { error: { message: string; data: { code: string } } };
      expect(body.error.message).toBe(CSRF_MESSAGE);
      expect(body.error.data.code).toBe('FORBIDDEN');
    }
    // A cross-site upload is refused before its body is read.
    const up = await c.fetch(`${server.url}/trpc/certificate.create`, { method: 'POST', headers: { origin: 'https://evil.example' }, body: certForm({}, { bytes: await makePdf(['x']), name: 'x.pdf' }) });
    expect(up.status).toBe(403);
    expect(await nameOf()).toBe(before);
    expect(await server.services.db.selectFrom('certificate').selectAll().where('user_id', '=', user.id).execute()).toHaveLength(0);
    // Sign-out cross-site is refused too: the session survives.
    expect((await post(c, 'auth.signOut', {}, { origin: 'https://evil.example' })).status).toBe(403);
    expect(await c.client.auth.me.query()).not.toBeNull();

    // Our own origins: the request's own (Host) and ATTESTA_PUBLIC_ORIGIN; the browser's same-origin verdict.
    const ours: [Record<string, string>, string][] = [
      [{ origin: server.url }, 'A'],
      [{ origin: 'https://attesta.example' }, 'B'],
      [{ 'sec-fetch-site': 'same-origin', origin: server.url }, 'C'],
      [{ 'sec-fetch-site': 'same-origin' }, 'D'],
      [{}, 'E'], // not a browser (no Origin, no Sec-Fetch-*): cannot carry a victim's cookie
    ];
    for (const [headers, name] of ours) {
      const res = await post(c, 'profile.update', { full_name: name }, headers);
      expect(res.status, JSON.stringify(headers)).toBe(200);
      expect(await nameOf()).toBe(name);
    }
  });

  it('requests without a session cookie are not affected (public mutations, REST, RPC)', async () => {
    const w = newWallet();
    const res = await post(null, 'auth.nonce', { address: w.address }, { origin: 'https://evil.example' });
    expect(res.status).toBe(200);
    const rpc = await fetch(`${server.url}/rpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://explorer.solana.com' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getHealth' }),
    });
    expect(rpc.status).toBe(200);
    expect(rpc.headers.get('access-control-allow-origin')).toBeTruthy();
  });

  it('a cross-site GET query cannot read data: no CORS grant on /trpc', async () => {
    const c = makeClient(server.url);
    await signIn(c);
    const res = await c.fetch(`${server.url}/trpc/auth.me`, { headers: { origin: 'https://evil.example' } });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    const pre = await fetch(`${server.url}/trpc/profile.update`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('no session fixation', () => {
  it('a client-supplied session id is never adopted: it is ignored, cleared, and sign-in issues a new one', async () => {
    const c = makeClient(server.url);
    const planted = 'AttackerChosenSessionId1234567890abcdefghijk';
    c.jar.set('attesta_session', planted);
    const me = await c.fetch(`${server.url}/trpc/auth.me`);
    expect(((await me.json()) as { result: { data: unknown } }).result.data).toBeNull();
    expect(me.headers.getSetCookie().some((s) => /^attesta_session=;/.test(s) && /Expires=Thu, 01 Jan 1970/i.test(s))).toBe(true);
    expect(c.jar.has('attesta_session')).toBe(false);

    c.jar.set('attesta_session', planted);
    const w = newWallet();
    const { message } = await c.client.auth.nonce.mutate({ address: w.address });
    const res = await post(c, 'auth.signIn', { address: w.address, message, signature: w.sign(message) });
    expect(res.status).toBe(200);
    const issued = c.jar.get('attesta_session')!;
    expect(issued).not.toBe(planted);
    const rows = await sessionRows();
    expect(rows.some((r) => r.token_hash === sha(planted))).toBe(false);
    expect(rows.some((r) => r.token_hash === sha(issued))).toBe(true);
    expect((await c.client.auth.me.query())?.wallet_address).toBe(w.address);
    // The planted id, used by the attacker, is not signed in.
    const attacker = makeClient(server.url);
    attacker.jar.set('attesta_session', planted);
    expect(await attacker.client.auth.me.query()).toBeNull();
  });

  it('signing in while holding a session rotates it: the old token is invalid afterwards', async () => {
    const c = makeClient(server.url);
    const w = newWallet();
    await signIn(c, w);
    const old = c.jar.get('attesta_session')!;
    await signIn(c, w);
    const fresh = c.jar.get('attesta_session')!;
    expect(fresh).not.toBe(old);
    const hashes = (await sessionRows()).map((r) => r.token_hash);
    expect(hashes).not.toContain(sha(old));
    expect(hashes).toContain(sha(fresh));
    expect((await c.client.auth.me.query())?.wallet_address).toBe(w.address);
    const stale = makeClient(server.url);
    stale.jar.set('attesta_session', old);
    expect(await stale.client.auth.me.query()).toBeNull();
    // Switching to another wallet also drops the previous session.
    await signIn(c, newWallet());
    expect((await sessionRows()).map((r) => r.token_hash)).not.toContain(sha(fresh));
  });

  it("signing in removes the wallet's expired sessions; its live sessions elsewhere stay", async () => {
    const w = newWallet();
    const [laptop, phone, tablet] = [makeClient(server.url), makeClient(server.url), makeClient(server.url)];
    await signIn(laptop, w);
    await signIn(phone, w);
    const db = server.services.db;
    await db.updateTable('session').set({ expires_at: Date.now() - 1000 }).where('token_hash', '=', sha(laptop.jar.get('attesta_session')!)).execute();
    await signIn(tablet, w);
    const hashes = (await sessionRows()).map((r) => r.token_hash);
    expect(hashes).not.toContain(sha(laptop.jar.get('attesta_session')!));
    expect(hashes).toContain(sha(phone.jar.get('attesta_session')!));
    expect(hashes).toContain(sha(tablet.jar.get('attesta_session')!));
    expect((await phone.client.auth.me.query())?.wallet_address).toBe(w.address);
  });
});
