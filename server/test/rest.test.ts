// REST API v1 over real HTTP: every endpoint's success and failures, every response validated
// against the served OpenAPI document (schema of that path, method and status).
import { createHash } from 'node:crypto';
import { issueCertificateIx } from '../../shared/program/instructions';
import { IssuerStatus } from '../../shared/program/codec';
import { Keypair, PublicKey, Transaction } from '@solana/web3.js';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogFromOpenApi } from '../../app/src/features/api-docs/openapi';
import { loadConfig } from '../src/config';
import { ENDPOINTS } from '../src/rest';
import { jsonSchema } from '../src/rest/openapi';
import fs from 'node:fs';
import type { Server } from '../src/app';
import { makeImage, makePdf, newWallet, startTestServer, tmpDataDir, waitFor } from './helpers';
import { OpenApiChecker, restUser } from './rest-support/server';

const RATE = 300;
const dir = tmpDataDir();
let server: Server;
let api: OpenApiChecker;
let alice: Awaited<ReturnType<typeof restUser>>;
let bob: Awaited<ReturnType<typeof restUser>>;
let aliceKey: string;
let bobKey: string;

const claims = { title: 'Certificate of Completion', institution_name: 'Harbor Institute', program_name: 'Marine Robotics', issue_date: '2025-03-03' };

function form(fields: Record<string, string | undefined>, file?: { bytes: Uint8Array; name: string; type?: string }) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) fd.set(k, v);
  if (file) fd.set('file', new File([file.bytes as BlobPart], file.name, { type: file.type ?? 'application/octet-stream' }));
  return fd;
}

const req = (path: string, init: RequestInit & { token?: string } = {}) => {
  const headers = new Headers(init.headers);
  if (init.token) headers.set('authorization', `Bearer ${init.token}`);
  return fetch(`${server.url}${path}`, { ...init, headers });
};
const postJson = (path: string, body: unknown, token?: string) => req(path, { method: 'POST', token, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

async function addCertificate(token: string, lines = [claims.institution_name, claims.title, claims.program_name]) {
  const pdf = await makePdf(lines);
  const res = await req('/api/v1/certificates', { method: 'POST', token, body: form(claims, { bytes: pdf, name: 'certificate.pdf', type: 'application/pdf' }) });
  const body = await api.check(res, '/api/v1/certificates', 'POST', 201);
  return { ...body, pdf, res } as { id: string; status: string; verification_url: string; pdf: Uint8Array; res: Response };
}

async function waitStatus(token: string, id: string, want: 'verified' | 'rejected') {
  return waitFor(
    async () => {
      const res = await req(`/api/v1/verify/status/${id}`, { token });
      const body = await api.check(res, '/api/v1/verify/status/{certificateId}', 'GET', 200);
      if (body.status !== 'pending' && body.status !== want) throw new Error(`ended ${body.status}`);
      return body.status === want ? body : null;
    },
    60_000,
    250,
  );
}

beforeAll(async () => {
  server = await startTestServer(dir, { API_RATE_LIMIT_PER_MIN: String(RATE) });
  const res = await fetch(`${server.url}/api/openapi.json`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  api = new OpenApiChecker(await res.json());
  [alice, bob] = await Promise.all([restUser(server.url), restUser(server.url)]);
  aliceKey = (await alice.keys.create.mutate({ name: 'alice ci' })).key;
  bobKey = (await bob.keys.create.mutate({ name: 'bob ci' })).key;
}, 120_000);

afterAll(async () => {
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1 with every endpoint, bearer security, the tags and the error shape', () => {
    const doc = api.doc;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.tags.map((t: { name: string }) => t.name)).toEqual(['Authentication', 'Profile', 'Certificates', 'Verification', 'NFT Minting', 'Institutions']);
    const ops = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([p, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`));
    expect(ops.sort()).toEqual(
      [
        'POST /api/v1/auth/nonce',
        'POST /api/v1/auth/connect',
        'POST /api/v1/auth/disconnect',
        'GET /api/v1/profile',
        'POST /api/v1/profile',
        'GET /api/v1/certificates',
        'POST /api/v1/certificates',
        'GET /api/v1/certificates/{id}',
        'POST /api/v1/verify/{certificateId}',
        'GET /api/v1/verify/status/{certificateId}',
        'GET /api/v1/verify/hash/{sha256}',
        'POST /api/v1/mint/{certificateId}',
        'GET /api/v1/issuer/certificates',
        'POST /api/v1/issuer/certificates',
        'GET /api/v1/issuer/requests',
        'POST /api/v1/issuer/requests/{id}/confirm',
        'POST /api/v1/issuer/requests/{id}/decline',
        'POST /api/v1/issuer/certificates/{id}/revoke',
        'POST /api/v1/issuer/transactions',
      ].sort(),
    );
    for (const ep of ENDPOINTS) {
      const op = doc.paths[ep.path][ep.method.toLowerCase()];
      // The document's schemas are the shared zod schemas, converted.
      for (const [status, r] of Object.entries(ep.responses)) expect(op.responses[status].content['application/json'].schema).toEqual(jsonSchema(r.schema, 'output'));
      if (ep.body) expect(op.requestBody.content[ep.body.contentType].schema).toEqual(jsonSchema(ep.body.schema, 'input'));
      for (const s of [...ep.errors, 500, ...(ep.method === 'POST' ? [413, 415] : [])]) expect(op.responses[String(s)].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
      if (ep.auth) {
        expect(op.security).toEqual([{ bearerAuth: [] }]);
        expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['401', '429']));
      } else expect(op.security).toEqual([]);
      for (const p of ep.path.match(/\{(\w+)\}/g) ?? []) expect(op.parameters.find((x: { name: string; in: string }) => x.in === 'path' && `{${x.name}}` === p)).toBeTruthy();
    }
    expect(doc.paths['/api/v1/certificates/{id}'].get.responses['404']).toBeTruthy();
    expect(doc.paths['/api/v1/certificates'].post.responses['429'].headers['Retry-After']).toBeTruthy();
    expect(doc.components.schemas.Error.required).toEqual(['error']);
  });

  it('renders on the /api page: one group per tag of the document, in its order; every endpoint under its tag with its fields', () => {
    const { groups, endpoints: eps } = catalogFromOpenApi(api.doc);
    const byPath = Object.fromEntries(eps.map((e) => [`${e.method} ${e.path}`, e]));
    expect(eps).toHaveLength(ENDPOINTS.length);
    // The groups are the document's tags (the server's endpoint table), with their descriptions.
    expect(groups.map((g) => g.label)).toEqual(['Authentication', 'Profile', 'Certificates', 'Verification', 'NFT Minting', 'Institutions']);
    expect(groups.map((g) => g.description)).toEqual(api.doc.tags.map((t: { description: string }) => t.description));
    for (const ep of ENDPOINTS) expect(byPath[`${ep.method} ${ep.path}`].category, ep.path).toBe(ep.tag);
    expect(byPath['POST /api/v1/auth/connect'].category).toBe('Authentication');
    expect(byPath['POST /api/v1/auth/connect'].body.map((f) => f.name)).toEqual(['wallet_address', 'signature', 'message']);
    expect(byPath['POST /api/v1/auth/connect'].response.map((f) => f.name)).toEqual(['token', 'expires_at', 'user']);
    expect(byPath['GET /api/v1/certificates'].category).toBe('Certificates');
    expect(byPath['POST /api/v1/certificates'].body.find((f) => f.name === 'file')).toMatchObject({ type: 'file', optional: false });
    expect(byPath['GET /api/v1/certificates/{id}'].response.find((f) => f.name === 'nft_mint_address')).toMatchObject({ optional: true });
    expect(byPath['GET /api/v1/verify/status/{certificateId}'].category).toBe('Verification');
    expect(byPath['POST /api/v1/verify/{certificateId}'].response.map((f) => f.name)).toEqual(['status', 'valid', 'tier', 'note', 'details', 'verification_logs']);
    expect(byPath['POST /api/v1/mint/{certificateId}'].category).toBe('NFT Minting');
    // The institutions' endpoints are their own group, not "Certificates".
    const institutions = eps.filter((e) => e.path.startsWith('/api/v1/issuer/'));
    expect(institutions.length).toBeGreaterThanOrEqual(7);
    expect(new Set(institutions.map((e) => e.category))).toEqual(new Set(['Institutions']));
    expect(eps.filter((e) => e.category === 'Certificates').every((e) => !e.path.startsWith('/api/v1/issuer/'))).toBe(true);
    // The page shows the first 2xx: the seed's mint response (step 2).
    expect(byPath['POST /api/v1/mint/{certificateId}'].response.map((f) => f.name)).toEqual(['mint_address', 'transaction_signature', 'arweave_url']);
  });

  it('the /api page groups a document without tags by path, and leaves out a declared tag with no endpoint', () => {
    const { groups, endpoints } = catalogFromOpenApi({
      tags: [{ name: 'Empty', description: 'nothing here' }, { name: 'Extra' }],
      paths: { '/api/v1/mint/{x}': { post: { summary: 'Mint' } }, '/api/v1/things': { get: { tags: ['Extra'] }, post: { tags: ['Other'] } }, '/elsewhere': { get: {} } },
    });
    expect(endpoints.map((e) => [e.method, e.path, e.category])).toEqual([
      ['POST', '/api/v1/mint/{x}', 'NFT Minting'],
      ['GET', '/api/v1/things', 'Extra'],
      ['POST', '/api/v1/things', 'Other'],
    ]);
    expect(groups.map((g) => g.id)).toEqual(['Extra', 'NFT Minting', 'Other']);
  });

  it('unknown /api paths answer 404 in the error shape', async () => {
    const res = await req('/api/v1/nope', { token: aliceKey });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: 'not_found', message: 'No endpoint GET /api/v1/nope' } });
  });
});

describe('authentication', () => {
  it('nonce → sign → connect gives a working token; disconnect revokes it', async () => {
    const w = newWallet();
    const nonce = await api.check(await postJson('/api/v1/auth/nonce', { wallet_address: w.address }), '/api/v1/auth/nonce', 'POST', 200);
    expect(nonce.message).toContain(w.address);
    const connected = await api.check(
      await postJson('/api/v1/auth/connect', { wallet_address: w.address, message: nonce.message, signature: w.sign(nonce.message) }),
      '/api/v1/auth/connect',
      'POST',
      200,
    );
    expect(connected.user.wallet_address).toBe(w.address);
    expect(Date.parse(connected.expires_at)).toBeGreaterThan(Date.now());
    // Secrets stored hashed: the session row holds sha256(token), never the token.
    const rows = await sql<{ token_hash: string }>`select token_hash from session`.execute(server.services.db);
    expect(rows.rows.map((r) => r.token_hash)).toContain(createHash('sha256').update(connected.token).digest('hex'));
    expect(JSON.stringify(rows.rows)).not.toContain(connected.token);

    const list = await api.check(await req('/api/v1/certificates', { token: connected.token }), '/api/v1/certificates', 'GET', 200);
    expect(list.certificates).toEqual([]);

    // The same message cannot be used twice.
    const replay = await api.check(
      await postJson('/api/v1/auth/connect', { wallet_address: w.address, message: nonce.message, signature: w.sign(nonce.message) }),
      '/api/v1/auth/connect',
      'POST',
      401,
    );
    expect(replay.error).toEqual({ code: 'unauthorized', message: 'This sign-in request was already used.' });

    expect(await api.check(await req('/api/v1/auth/disconnect', { method: 'POST', token: connected.token }), '/api/v1/auth/disconnect', 'POST', 200)).toEqual({ success: true });
    const after = await api.check(await req('/api/v1/certificates', { token: connected.token }), '/api/v1/certificates', 'GET', 401);
    expect(after.error).toEqual({ code: 'unauthorized', message: 'Invalid or expired token' });
  });

  it('connect refuses a wrong signature (401) and invalid fields (400 with field messages)', async () => {
    const w = newWallet();
    const other = newWallet();
    const { message } = await (await postJson('/api/v1/auth/nonce', { wallet_address: w.address })).json();
    const bad = await api.check(
      await postJson('/api/v1/auth/connect', { wallet_address: w.address, message, signature: other.sign(message) }),
      '/api/v1/auth/connect',
      'POST',
      401,
    );
    expect(bad.error.message).toBe('Signature does not match the address');

    const invalid = await api.check(await postJson('/api/v1/auth/connect', { wallet_address: 'nope', signature: '0OIl' }), '/api/v1/auth/connect', 'POST', 400);
    expect(invalid.error.code).toBe('bad_request');
    expect(invalid.error.fields).toEqual({
      wallet_address: 'Not a valid Solana address',
      signature: 'The signature must be base58',
      message: 'The signed message is required',
    });
    const nonce400 = await api.check(await postJson('/api/v1/auth/nonce', {}), '/api/v1/auth/nonce', 'POST', 400);
    expect(nonce400.error.fields).toEqual({ wallet_address: 'A wallet address is required' });
    const notJson = await api.check(
      await req('/api/v1/auth/nonce', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"wallet_address":' }),
      '/api/v1/auth/nonce',
      'POST',
      400,
    );
    expect(notJson.error.message).toBe('The request body is not valid JSON.');
    const text = await api.check(
      await req('/api/v1/auth/nonce', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' }),
      '/api/v1/auth/nonce',
      'POST',
      415,
    );
    expect(text.error.code).toBe('unsupported_media_type');
    const huge = await api.check(await postJson('/api/v1/auth/nonce', { wallet_address: 'x'.repeat(70_000) }), '/api/v1/auth/nonce', 'POST', 413);
    expect(huge.error.code).toBe('payload_too_large');
  });

  it('401 for a missing, invalid or revoked API key; disconnect does not end an API key', async () => {
    const missing = await api.check(await req('/api/v1/certificates'), '/api/v1/certificates', 'GET', 401);
    expect(missing.error.code).toBe('unauthorized');
    expect(missing.error.message).toMatch(/^Missing API key/);
    const basic = await api.check(await req('/api/v1/certificates', { headers: { authorization: 'Basic abc' } }), '/api/v1/certificates', 'GET', 401);
    expect(basic.error.message).toMatch(/^Missing API key/);

    const { key, api_key } = await alice.keys.create.mutate({ name: 'to revoke' });
    const forged = key.slice(0, -4) + (key.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    expect((await api.check(await req('/api/v1/certificates', { token: forged }), '/api/v1/certificates', 'GET', 401)).error).toEqual({ code: 'unauthorized', message: 'Invalid API key' });
    expect((await api.check(await req('/api/v1/certificates', { token: 'atst_nothing' }), '/api/v1/certificates', 'GET', 401)).error.message).toBe('Invalid API key');

    expect((await api.check(await req('/api/v1/auth/disconnect', { method: 'POST', token: key }), '/api/v1/auth/disconnect', 'POST', 400)).error.message).toMatch(/API keys are revoked on the profile page/);
    await api.check(await req('/api/v1/certificates', { token: key }), '/api/v1/certificates', 'GET', 200);

    await alice.keys.revoke.mutate({ id: api_key.id });
    for (const [path, method, docPath] of [
      ['/api/v1/profile', 'GET', '/api/v1/profile'],
      ['/api/v1/profile', 'POST', '/api/v1/profile'],
      ['/api/v1/certificates', 'GET', '/api/v1/certificates'],
      ['/api/v1/certificates/c_x', 'GET', '/api/v1/certificates/{id}'],
      ['/api/v1/verify/c_x', 'POST', '/api/v1/verify/{certificateId}'],
      ['/api/v1/verify/status/c_x', 'GET', '/api/v1/verify/status/{certificateId}'],
      ['/api/v1/mint/c_x', 'POST', '/api/v1/mint/{certificateId}'],
      ['/api/v1/auth/disconnect', 'POST', '/api/v1/auth/disconnect'],
    ] as const) {
      const body = await api.check(await req(path, { method, token: key }), docPath, method, 401);
      expect(body.error).toEqual({ code: 'unauthorized', message: 'This API key has been revoked' });
    }
    // A 401 on an upload is answered before the body is read.
    const up = await api.check(
      await req('/api/v1/certificates', { method: 'POST', token: key, body: form(claims, { bytes: await makePdf(['x']), name: 'a.pdf' }) }),
      '/api/v1/certificates',
      'POST',
      401,
    );
    expect(up.error.message).toBe('This API key has been revoked');
  });
});

describe('profile', () => {
  it('a REST-only holder reads the profile (no name yet), is told to set one before adding a certificate, sets it, and adds', async () => {
    const w = newWallet();
    const nonce = await (await postJson('/api/v1/auth/nonce', { wallet_address: w.address })).json();
    const { token } = await (await postJson('/api/v1/auth/connect', { wallet_address: w.address, message: nonce.message, signature: w.sign(nonce.message) })).json();
    const me = await api.check(await req('/api/v1/profile', { token }), '/api/v1/profile', 'GET', 200);
    expect(me).toEqual({ id: expect.any(String), wallet_address: w.address, full_name: '', email: null });

    const pdf = await makePdf([claims.institution_name, claims.title, claims.program_name]);
    const add = () => req('/api/v1/certificates', { method: 'POST', token, body: form(claims, { bytes: pdf, name: 'certificate.pdf', type: 'application/pdf' }) });
    const refused = await api.check(await add(), '/api/v1/certificates', 'POST', 412);
    expect(refused.error).toEqual({ code: 'precondition_failed', message: 'Add your full name on the Profile page before adding a certificate: the check looks for it in the document.' });

    // Bad input says what to fix and changes nothing.
    const blank = await api.check(await postJson('/api/v1/profile', { full_name: '   ' }, token), '/api/v1/profile', 'POST', 400);
    expect(blank.error).toMatchObject({ code: 'bad_request', fields: { full_name: 'Full name is required' } });
    const badEmail = await api.check(await postJson('/api/v1/profile', { full_name: 'Alex Tester', email: 'nope' }, token), '/api/v1/profile', 'POST', 400);
    expect(badEmail.error.fields).toEqual({ email: 'Please enter a valid email address' });
    expect((await api.check(await req('/api/v1/profile', { token }), '/api/v1/profile', 'GET', 200)).full_name).toBe('');

    const saved = await api.check(await postJson('/api/v1/profile', { full_name: ' Alex Tester ', email: ' Alex@Example.com ' }, token), '/api/v1/profile', 'POST', 200);
    expect(saved).toEqual({ id: me.id, wallet_address: w.address, full_name: 'Alex Tester', email: 'alex@example.com' });
    const added = await api.check(await add(), '/api/v1/certificates', 'POST', 201);
    expect((await waitStatus(token, added.id, 'verified')).status).toBe('verified');
  }, 60_000);
});

describe('API keys (tRPC, profile page)', () => {
  it('creates atst_<prefix8>_<secret> once, stores only its hash, lists without secrets, tracks last use, revokes', async () => {
    const created = await alice.keys.create.mutate({ name: '  Deploy bot  ' });
    expect(created.key).toMatch(/^atst_[a-z0-9]{8}_[A-Za-z0-9]{43}$/);
    expect(created.api_key).toMatchObject({ name: 'Deploy bot', prefix: created.key.slice(0, 13), last_used_at: null });

    const row = await sql<Record<string, string | null>>`select * from api_key where id = ${created.api_key.id}`.execute(server.services.db);
    expect(row.rows[0].key_hash).toBe(createHash('sha256').update(created.key).digest('hex'));
    expect(JSON.stringify(row.rows)).not.toContain(created.key.slice(14));

    let list = await alice.keys.list.query();
    expect(list.find((k) => k.id === created.api_key.id)).toEqual(created.api_key);
    expect(JSON.stringify(list)).not.toContain(created.key.slice(14));
    // Bob sees only his keys and cannot revoke Alice's (404, not 403).
    expect((await bob.keys.list.query()).map((k) => k.id)).not.toContain(created.api_key.id);
    await expect(bob.keys.revoke.mutate({ id: created.api_key.id })).rejects.toMatchObject({ data: { code: 'NOT_FOUND' } });

    await api.check(await req('/api/v1/certificates', { token: created.key }), '/api/v1/certificates', 'GET', 200);
    list = await alice.keys.list.query();
    const used = list.find((k) => k.id === created.api_key.id)!;
    expect(Date.now() - Date.parse(used.last_used_at!)).toBeLessThan(10_000);

    await alice.keys.revoke.mutate({ id: created.api_key.id });
    await alice.keys.revoke.mutate({ id: created.api_key.id }); // idempotent
    expect((await alice.keys.list.query()).map((k) => k.id)).not.toContain(created.api_key.id);
  });

  it('refuses a blank name and needs a session', async () => {
    await expect(alice.keys.create.mutate({ name: '   ' })).rejects.toMatchObject({ message: 'A name is required' });
    const anon = await restUser(server.url);
    await anon.fetch(`${server.url}/trpc/auth.signOut`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    await expect(anon.keys.list.query()).rejects.toMatchObject({ data: { code: 'UNAUTHORIZED' } });
  });
});

describe('certificates, verification and minting', () => {
  let verifiedId: string;
  let verifiedPdf: Uint8Array;

  it('adds a certificate (multipart, 201 + Location), lists it and reads it', async () => {
    const c = await addCertificate(aliceKey);
    expect(c.status).toBe('pending');
    expect(c.res.headers.get('location')).toBe(`/api/v1/certificates/${c.id}`);
    expect(c.verification_url).toMatch(new RegExp(`/view/${alice.user.id}/${c.id}$`));

    const list = await api.check(await req('/api/v1/certificates', { token: aliceKey }), '/api/v1/certificates', 'GET', 200);
    expect(list.certificates[0]).toEqual({ id: c.id, title: claims.title, institution_name: claims.institution_name, verification_status: expect.any(String), issue_date: claims.issue_date, valid: false, tier: 'none', note: null }); // pending: not valid to a verifier
    const filtered = await api.check(await req('/api/v1/certificates?status=rejected', { token: aliceKey }), '/api/v1/certificates', 'GET', 200);
    expect(filtered.certificates.map((x: { id: string }) => x.id)).not.toContain(c.id);
    const badQuery = await api.check(await req('/api/v1/certificates?status=lost', { token: aliceKey }), '/api/v1/certificates', 'GET', 400);
    expect(Object.keys(badQuery.error.fields)).toEqual(['status']);

    const one = await api.check(await req(`/api/v1/certificates/${c.id}`, { token: aliceKey }), '/api/v1/certificates/{id}', 'GET', 200);
    expect(one).toMatchObject({ id: c.id, ...claims, sha256: createHash('sha256').update(c.pdf).digest('hex') });
    expect(one).not.toHaveProperty('nft_mint_address');

    const done = await waitStatus(aliceKey, c.id, 'verified');
    expect(done.verification_logs.map((l: { verification_step: string }) => l.verification_step)).toEqual(expect.arrayContaining(['hash_verification', 'issuer_verification']));
    expect(Date.parse(done.last_checked)).toBeGreaterThan(0);
    verifiedId = c.id;
    verifiedPdf = c.pdf;
  });

  it('400 with field messages, 415 for a non-multipart body or an unsupported file, 413 when too large, 409 for a duplicate', async () => {
    const empty = await api.check(await req('/api/v1/certificates', { method: 'POST', token: aliceKey, body: form({ title: '  ' }) }), '/api/v1/certificates', 'POST', 400);
    expect(empty.error.fields).toEqual({
      title: 'Title is required',
      institution_name: 'Institution name is required',
      program_name: 'Program name is required',
      issue_date: 'Issue date is required',
      file: 'Certificate file is required',
    });
    const badDate = await api.check(
      await req('/api/v1/certificates', { method: 'POST', token: aliceKey, body: form({ ...claims, issue_date: '2025-02-30' }, { bytes: await makePdf(['x']), name: 'a.pdf' }) }),
      '/api/v1/certificates',
      'POST',
      400,
    );
    expect(badDate.error.fields).toEqual({ issue_date: 'Issue date must be a date (YYYY-MM-DD)' });

    const json = await api.check(await postJson('/api/v1/certificates', claims, aliceKey), '/api/v1/certificates', 'POST', 415);
    expect(json.error.code).toBe('unsupported_media_type');
    const text = await api.check(
      await req('/api/v1/certificates', { method: 'POST', token: aliceKey, body: form(claims, { bytes: new TextEncoder().encode('just text, not a certificate'), name: 'notes.txt', type: 'text/plain' }) }),
      '/api/v1/certificates',
      'POST',
      415,
    );
    expect(text.error.fields.file).toBe(text.error.message);
    const disguised = await api.check(
      await req('/api/v1/certificates', { method: 'POST', token: aliceKey, body: form(claims, { bytes: await makeImage('png'), name: 'scan.pdf' }) }),
      '/api/v1/certificates',
      'POST',
      400,
    );
    expect(disguised.error.fields.file).toMatch(/named \.pdf but its content is a PNG image/);

    const big = new Uint8Array(11 * 1024 * 1024);
    big.set(await makePdf(['big']));
    const large = await api.check(
      await req('/api/v1/certificates', { method: 'POST', token: aliceKey, body: form(claims, { bytes: big, name: 'big.pdf' }) }),
      '/api/v1/certificates',
      'POST',
      413,
    );
    expect(large.error.code).toBe('payload_too_large');

    const dup = await api.check(
      await req('/api/v1/certificates', { method: 'POST', token: aliceKey, body: form(claims, { bytes: verifiedPdf, name: 'again.pdf' }) }),
      '/api/v1/certificates',
      'POST',
      409,
    );
    expect(dup.error).toEqual({ code: 'conflict', message: 'You have already added this certificate file.' });
    const dupOther = await api.check(
      await req('/api/v1/certificates', { method: 'POST', token: bobKey, body: form(claims, { bytes: verifiedPdf, name: 'mine.pdf' }) }),
      '/api/v1/certificates',
      'POST',
      409,
    );
    expect(dupOther.error.message).toBe('This certificate file has already been registered by another wallet.');
  });

  it("another user's certificate is a 404 everywhere, the same as a missing one", async () => {
    for (const id of [verifiedId, 'c_doesnotexist']) {
      for (const [path, method, docPath] of [
        [`/api/v1/certificates/${id}`, 'GET', '/api/v1/certificates/{id}'],
        [`/api/v1/verify/${id}`, 'POST', '/api/v1/verify/{certificateId}'],
        [`/api/v1/verify/status/${id}`, 'GET', '/api/v1/verify/status/{certificateId}'],
        [`/api/v1/mint/${id}`, 'POST', '/api/v1/mint/{certificateId}'],
      ] as const) {
        const body = await api.check(await req(path, { method, token: bobKey }), docPath, method, 404);
        expect(body.error).toEqual({ code: 'not_found', message: 'Certificate not found' });
      }
    }
    const list = await api.check(await req('/api/v1/certificates', { token: bobKey }), '/api/v1/certificates', 'GET', 200);
    expect(list.certificates.map((c: { id: string }) => c.id)).not.toContain(verifiedId);
  });

  // The audit: GET /api/v1/certificates/{id} and /api/v1/verify/status/{id} answered "verified" with no
  // valid, tier or note for an expired certificate and for one whose institution is suspended.
  it('one certificate and its status say whether a verifier reads it as valid now: valid, tier and note (expired, suspended)', { timeout: 90_000 }, async () => {
    const both = async (id: string) => {
      const one = await api.check(await req(`/api/v1/certificates/${id}`, { token: aliceKey }), '/api/v1/certificates/{id}', 'GET', 200);
      const status = await api.check(await req(`/api/v1/verify/status/${id}`, { token: aliceKey }), '/api/v1/verify/status/{certificateId}', 'GET', 200);
      const pick = (b: { valid: boolean; tier: string; note: string | null }) => ({ valid: b.valid, tier: b.tier, note: b.note });
      expect(pick(status)).toEqual(pick(one));
      // The list says the same of it: a platform check is never a bare "valid" there either.
      const list = await api.check(await req('/api/v1/certificates', { token: aliceKey }), '/api/v1/certificates', 'GET', 200);
      expect(pick(list.certificates.find((c: { id: string }) => c.id === id))).toEqual(pick(one));
      return { ...one, status: status.status };
    };
    expect(await both(verifiedId)).toMatchObject({ verification_status: 'verified', valid: true, tier: 'platform_verified', note: `Checked by Attesta only, not confirmed by ${claims.institution_name}.` });

    // An institution of the claimed name issues two files to alice's wallet on chain (one expiring in
    // two seconds); alice adds them, and her rows take the records as they are: verified, issuer-confirmed.
    const chain = server.services.chain;
    const inst = Keypair.generate();
    await chain.registerIssuer({ authority: inst, name: claims.institution_name, uri: 'harbor-rest.example' }, { kind: 'register_issuer' });
    await chain.setIssuerStatus({ authority: inst.publicKey, status: IssuerStatus.Approved }, { kind: 'set_issuer_status' });
    const issued = async (expiresAt: bigint) => {
      const pdf = await makePdf([claims.institution_name, claims.title, claims.program_name]);
      const hash = createHash('sha256').update(pdf).digest();
      const holder = new PublicKey(alice.wallet.address);
      await chain.sendTransaction(new Transaction().add(issueCertificateIx(chain.programId, { hash, holder, authority: inst.publicKey, payer: chain.operator, expiresAt })), [inst], { kind: 'issue_certificate' });
      const res = await req('/api/v1/certificates', { method: 'POST', token: aliceKey, body: form(claims, { bytes: pdf, name: 'issued.pdf', type: 'application/pdf' }) });
      const { id } = await api.check(res, '/api/v1/certificates', 'POST', 201);
      await waitStatus(aliceKey, id, 'verified');
      return id as string;
    };
    const expiresAt = BigInt(Math.floor(Date.now() / 1000) + 2);
    const expiring = await issued(expiresAt);
    const lasting = await issued(0n);
    expect(await both(lasting)).toMatchObject({ verification_status: 'verified', valid: true, tier: 'issuer_confirmed' });
    await waitFor(async () => (await chain.now()) > expiresAt, 10_000, 200);
    const day = new Date(Number(expiresAt) * 1000).toLocaleDateString('en-US', { dateStyle: 'long', timeZone: 'UTC' });
    expect(await both(expiring)).toMatchObject({ verification_status: 'verified', valid: false, tier: 'issuer_confirmed', note: `Expired on ${day}.` });

    await chain.setIssuerStatus({ authority: inst.publicKey, status: IssuerStatus.Suspended }, { kind: 'set_issuer_status' });
    expect(await both(lasting)).toMatchObject({ verification_status: 'verified', valid: false, tier: 'issuer_confirmed', note: `${claims.institution_name}'s registration is suspended.` });

    // Documented: the fields and what they mean.
    for (const [path, status] of [['/api/v1/certificates/{id}', 'GET'], ['/api/v1/verify/status/{certificateId}', 'GET'], ['/api/v1/verify/{certificateId}', 'POST']] as const) {
      const props = api.doc.paths[path][status.toLowerCase()].responses['200'].content['application/json'].schema.properties;
      expect(props.valid.description).toMatch(/What a verifier reads now/);
      expect(Object.keys(props)).toEqual(expect.arrayContaining(['valid', 'tier', 'note']));
    }
  });

  it('POST /verify retries a rejected certificate and is a no-op for a verified one', async () => {
    const verified = await api.check(await req(`/api/v1/verify/${verifiedId}`, { method: 'POST', token: aliceKey }), '/api/v1/verify/{certificateId}', 'POST', 200);
    expect(verified.status).toBe('verified');
    expect(verified.details).toMatchObject({ tier: expect.any(String) });
    // It says what a verifier reads now, as the status endpoint does (not only the recorded status).
    const status = await api.check(await req(`/api/v1/verify/status/${verifiedId}`, { token: aliceKey }), '/api/v1/verify/status/{certificateId}', 'GET', 200);
    expect({ valid: verified.valid, tier: verified.tier, note: verified.note }).toEqual({ valid: status.valid, tier: status.tier, note: status.note });
    expect(typeof verified.valid).toBe('boolean');

    const r = await addCertificate(aliceKey, ['Lorem ipsum dolor', 'sit amet']);
    await waitStatus(aliceKey, r.id, 'rejected');
    const retry = await api.check(await req(`/api/v1/verify/${r.id}`, { method: 'POST', token: aliceKey }), '/api/v1/verify/{certificateId}', 'POST', 200);
    expect(['pending', 'rejected']).toContain(retry.status);
    expect(retry).toMatchObject({ valid: false, tier: 'none' });
    expect(Array.isArray(retry.verification_logs)).toBe(true);
    await waitStatus(aliceKey, r.id, 'rejected');

    // Minting needs a verified certificate.
    const notVerified = await api.check(await req(`/api/v1/mint/${r.id}`, { method: 'POST', token: aliceKey }), '/api/v1/mint/{certificateId}', 'POST', 400);
    expect(notVerified.error.message).toBe('Only verified certificates can be minted.');
  });

  it('mints in two steps (202 transaction to sign → 200 minted), then 409; a bad signed transaction is a 400', { timeout: 90_000 }, async () => {
    const holder = Keypair.fromSecretKey(alice.wallet.secretKey);
    const prepared = await api.check(await req(`/api/v1/mint/${verifiedId}`, { method: 'POST', token: aliceKey }), '/api/v1/mint/{certificateId}', 'POST', 202);
    expect(Date.parse(prepared.expires_at)).toBeGreaterThan(Date.now());

    const garbage = await api.check(await postJson(`/api/v1/mint/${verifiedId}`, { signed_transaction: 'AAAA' }, aliceKey), '/api/v1/mint/{certificateId}', 'POST', 400);
    expect(garbage.error.code).toBe('bad_request');
    const wrongType = await api.check(await postJson(`/api/v1/mint/${verifiedId}`, { signed_transaction: 5 }, aliceKey), '/api/v1/mint/{certificateId}', 'POST', 400);
    expect(wrongType.error.fields).toEqual({ signed_transaction: 'signed_transaction must be a base64 string' });

    const again = await api.check(await postJson(`/api/v1/mint/${verifiedId}`, {}, aliceKey), '/api/v1/mint/{certificateId}', 'POST', 202);
    const tx = Transaction.from(Buffer.from(again.transaction, 'base64'));
    tx.partialSign(holder);
    const signed = tx.serialize({ requireAllSignatures: false, verifySignatures: false }).toString('base64');
    const minted = await api.check(await postJson(`/api/v1/mint/${verifiedId}`, { signed_transaction: signed }, aliceKey), '/api/v1/mint/{certificateId}', 'POST', 200);
    expect(minted.mint_address).toBe(again.mint_address);
    expect(minted.transaction_signature).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
    expect(minted.arweave_url).toMatch(/^http/);

    const one = await api.check(await req(`/api/v1/certificates/${verifiedId}`, { token: aliceKey }), '/api/v1/certificates/{id}', 'GET', 200);
    expect(one).toMatchObject({ nft_mint_address: minted.mint_address, arweave_url: minted.arweave_url });
    const twice = await api.check(await req(`/api/v1/mint/${verifiedId}`, { method: 'POST', token: aliceKey }), '/api/v1/mint/{certificateId}', 'POST', 409);
    expect(twice.error).toEqual({ code: 'conflict', message: 'This certificate is already minted.' });
  });

  it('the public verify-by-hash route (no key) answers per the document', async () => {
    const sha = createHash('sha256').update(verifiedPdf).digest('hex');
    const v = await api.check(await req(`/api/v1/verify/hash/${sha}`), '/api/v1/verify/hash/{sha256}', 'GET', 200);
    // A platform-only check says so in `note`, naming the institution that did not confirm it.
    expect(v).toMatchObject({ valid: true, status: 'verified', sha256: sha, tier: 'platform_verified', note: `Checked by Attesta only, not confirmed by ${claims.institution_name}.`, reason: null, reason_text: null });
    const none = await api.check(await req(`/api/v1/verify/hash/${'0'.repeat(64)}`), '/api/v1/verify/hash/{sha256}', 'GET', 200);
    expect(none).toMatchObject({ status: 'not_found', note: null, reason_text: null });

    // A rejected certificate looked up by hash: its reason in words, not only its code.
    const r = await addCertificate(aliceKey, ['Lorem ipsum dolor', 'sit amet', 'consectetur']);
    await waitStatus(aliceKey, r.id, 'rejected');
    const rejectedSha = createHash('sha256').update(r.pdf).digest('hex');
    const rejected = await api.check(await req(`/api/v1/verify/hash/${rejectedSha}`), '/api/v1/verify/hash/{sha256}', 'GET', 200);
    expect(rejected).toMatchObject({ valid: false, status: 'rejected', reason_code: 2, reason: 'content_mismatch', reason_text: 'the document does not name what was claimed', note: null, certificate: null });

    // The document says what each tier means, and what reason_text is.
    const props = api.doc.paths['/api/v1/verify/hash/{sha256}'].get.responses['200'].content['application/json'].schema.properties;
    expect(props.tier.description).toMatch(/^platform_verified = checked by Attesta only \(file integrity; the document's text names the claimed title, institution, program and holder\), not confirmed by the institution; issuer_confirmed = the institution's own key signed the record; see issuer\.status and issuer\.domain_proven/);
    expect(props.reason_text).toMatchObject({ description: expect.stringMatching(/plain words/) });
    expect(props.note.description).toContain('Checked by Attesta only, not confirmed by <institution>.');
    const bad = await api.check(await req('/api/v1/verify/hash/xyz'), '/api/v1/verify/hash/{sha256}', 'GET', 400);
    expect(bad.error.message).toBe('A SHA-256 hash is 64 hexadecimal characters');
  });
});

describe('institutions (issue 14)', () => {
  it('an institution issues, confirms, declines and revokes with its API key; a holder’s key is refused', { timeout: 90_000 }, async () => {
    // An approved institution with a proven domain (the portal's own flow is in institutions.test.ts).
    const inst = await restUser(server.url);
    const instKp = Keypair.fromSecretKey(inst.wallet.secretKey);
    const chain = server.services.chain;
    await chain.registerIssuer({ authority: instKp, name: 'Harbor Institute', uri: 'harbor.example' }, { kind: 'register_issuer' });
    await chain.setIssuerStatus({ authority: instKp.publicKey, status: 1 }, { kind: 'set_issuer_status' });
    const now = new Date().toISOString();
    await server.services.db
      .insertInto('issuer_profile')
      .values({ authority: inst.wallet.address, domain: 'harbor.example', name: 'Harbor Institute', registered_at: now, proof_status: 'proven', proof_method: 'dns', proven_at: now, checked_at: now, findings: '[]' })
      .execute();
    const key = (await inst.keys.create.mutate({ name: 'registrar' })).key;
    const sign = (b64: string) => {
      const tx = Transaction.from(Buffer.from(b64, 'base64'));
      tx.partialSign(instKp);
      return tx.serialize({ requireAllSignatures: false, verifySignatures: false }).toString('base64');
    };
    const submit = async (prepared: { transaction: string }) =>
      api.check(await postJson('/api/v1/issuer/transactions', { signed_transaction: sign(prepared.transaction) }, key), '/api/v1/issuer/transactions', 'POST', 200);

    for (const [method, path] of [
      ['GET', '/api/v1/issuer/certificates'],
      ['POST', '/api/v1/issuer/certificates'],
      ['GET', '/api/v1/issuer/requests'],
      ['POST', '/api/v1/issuer/requests/q_x/confirm'],
      ['POST', '/api/v1/issuer/requests/q_x/decline'],
      ['POST', '/api/v1/issuer/certificates/c_x/revoke'],
      ['POST', '/api/v1/issuer/transactions'],
    ] as const) {
      await api.check(await req(path, { method }), path.replace('q_x', '{id}').replace('c_x', '{id}'), method, 401);
    }
    // A holder's key: not an institution.
    const holderList = await api.check(await req('/api/v1/issuer/certificates', { token: bobKey }), '/api/v1/issuer/certificates', 'GET', 403);
    expect(holderList.error.message).toMatch(/not a registered institution/);

    // Issue to Bob (step 1: 202 with the transaction; step 2: the signed transaction).
    const pdf = await makePdf(['Harbor Institute', 'Diploma in Navigation', 'Navigation']);
    const fd = form({ title: 'Diploma in Navigation', program_name: 'Navigation', issue_date: '2025-06-01', holder_wallet: 'not-a-wallet' }, { bytes: pdf, name: 'd.pdf', type: 'application/pdf' });
    const bad = await api.check(await req('/api/v1/issuer/certificates', { method: 'POST', token: key, body: fd }), '/api/v1/issuer/certificates', 'POST', 400);
    expect(bad.error.message).toMatch(/not a valid Solana address/);
    fd.set('holder_wallet', bob.wallet.address);
    const prepared = await api.check(await req('/api/v1/issuer/certificates', { method: 'POST', token: key, body: fd }), '/api/v1/issuer/certificates', 'POST', 202);
    const issued = await submit(prepared);
    expect(issued.kind).toBe('issue_certificate');
    const issuedId = issued.result.certificate_id as string;
    const bobView = await api.check(await req(`/api/v1/certificates/${issuedId}`, { token: bobKey }), '/api/v1/certificates/{id}', 'GET', 200);
    expect(bobView).toMatchObject({ title: 'Diploma in Navigation', institution_name: 'Harbor Institute', verification_status: 'verified' });
    const list = await api.check(await req('/api/v1/issuer/certificates?search=navigation', { token: key }), '/api/v1/issuer/certificates', 'GET', 200);
    expect(list.certificates.map((c: { id: string }) => c.id)).toEqual([issuedId]);
    expect(list.counts).toMatchObject({ total: 1, verified: 1 });

    // Bob asks the institution to confirm two of his own certificates: it confirms one, declines the other.
    const ask = async (title: string, matching = true) => {
      const p = await makePdf(matching ? ['Harbor Institute', title, 'Marine Robotics'] : ['Lorem ipsum', 'dolor sit amet']);
      const c = await api.check(await req('/api/v1/certificates', { method: 'POST', token: bobKey, body: form({ ...claims, title }, { bytes: p, name: 'c.pdf', type: 'application/pdf' }) }), '/api/v1/certificates', 'POST', 201);
      const bobClient = bob.client;
      const asked = await bobClient.certificate.requestConfirmation.mutate({ id: c.id, issuer: inst.wallet.address, consent: true });
      const tx = Transaction.from(Buffer.from(asked.transaction, 'base64'));
      tx.partialSign(Keypair.fromSecretKey(bob.wallet.secretKey));
      await bobClient.certificate.submitConfirmationRequest.mutate({ signedTransaction: tx.serialize({ requireAllSignatures: false, verifySignatures: false }).toString('base64') });
      return c.id as string;
    };
    const toConfirm = await ask('Certificate in Sonar');
    const toDecline = await ask('Certificate in Diving', false); // its text names nothing: never public
    const queue = await api.check(await req('/api/v1/issuer/requests', { token: key }), '/api/v1/issuer/requests', 'GET', 200);
    const reqOf = (id: string) => queue.requests.find((r: { certificate_id: string }) => r.certificate_id === id).id as string;
    expect(queue.requests).toHaveLength(2);
    // The file of an open request, with the institution's key (not with another key, nor without one).
    const fileUrl = queue.requests.find((r: { certificate_id: string }) => r.certificate_id === toDecline).file_url as string;
    expect((await req(new URL(fileUrl).pathname, { token: key })).status).toBe(200);
    expect((await req(new URL(fileUrl).pathname, { token: aliceKey })).status).toBe(404);
    expect((await req(new URL(fileUrl).pathname)).status).toBe(404);
    const otherKey = await api.check(await postJson(`/api/v1/issuer/requests/${reqOf(toConfirm)}/confirm`, {}, aliceKey), '/api/v1/issuer/requests/{id}/confirm', 'POST', 403);
    expect(otherKey.error.code).toBe('forbidden');
    const confirm = await api.check(await postJson(`/api/v1/issuer/requests/${reqOf(toConfirm)}/confirm`, {}, key), '/api/v1/issuer/requests/{id}/confirm', 'POST', 202);
    expect((await submit(confirm)).kind).toBe('confirm_certificate');
    const confirmed = await api.check(await req(`/api/v1/certificates/${toConfirm}`, { token: bobKey }), '/api/v1/certificates/{id}', 'GET', 200);
    expect(confirmed.verification_status).toBe('verified');
    const declined = await api.check(await postJson(`/api/v1/issuer/requests/${reqOf(toDecline)}/decline`, { reason: 'Not in our records.' }, key), '/api/v1/issuer/requests/{id}/decline', 'POST', 200);
    expect(declined).toEqual({ request_id: reqOf(toDecline), status: 'declined' });
    await api.check(await postJson(`/api/v1/issuer/requests/${reqOf(toDecline)}/decline`, { reason: 'again' }, key), '/api/v1/issuer/requests/{id}/decline', 'POST', 409);

    // Revoke what it issued; not what it did not.
    await api.check(await postJson(`/api/v1/issuer/certificates/${toDecline}/revoke`, { reason: 'revoked_fraud' }, key), '/api/v1/issuer/certificates/{id}/revoke', 'POST', 400);
    const notMine = await addCertificate(aliceKey);
    await api.check(await postJson(`/api/v1/issuer/certificates/${notMine.id}/revoke`, { reason: 'revoked_by_issuer' }, key), '/api/v1/issuer/certificates/{id}/revoke', 'POST', 404);
    const revoke = await api.check(await postJson(`/api/v1/issuer/certificates/${issuedId}/revoke`, { reason: 'revoked_by_issuer', note: 'Issued in error.' }, key), '/api/v1/issuer/certificates/{id}/revoke', 'POST', 202);
    expect((await submit(revoke)).kind).toBe('revoke_certificate');
    const revoked = await api.check(await req(`/api/v1/certificates/${issuedId}`, { token: bobKey }), '/api/v1/certificates/{id}', 'GET', 200);
    expect(revoked.verification_status).toBe('revoked');
    const replay = await api.check(await postJson('/api/v1/issuer/transactions', { signed_transaction: sign(revoke.transaction) }, key), '/api/v1/issuer/transactions', 'POST', 200);
    expect(replay.result).toBeNull(); // already finished: answered, not sent again
  });
});

describe('rate limit', () => {
  it(`allows ${RATE}/min per key, then 429 with Retry-After; other keys are unaffected`, async () => {
    const { key } = await alice.keys.create.mutate({ name: 'burst' });
    let okCount = 0;
    let limited: Response | null = null;
    // Refill during the burst (RATE/60 per second) lets a few more through; the first 429 must come after RATE.
    while (!limited && okCount < RATE + 100) {
      const batch = await Promise.all(Array.from({ length: 25 }, () => req('/api/v1/certificates', { token: key })));
      for (const r of batch) {
        if (r.status === 200) {
          okCount++;
          expect(Number(r.headers.get('x-ratelimit-limit'))).toBe(RATE);
          await r.body?.cancel();
        } else if (!limited) limited = r;
        else await r.body?.cancel();
      }
    }
    expect(okCount).toBeGreaterThanOrEqual(RATE);
    expect(limited).not.toBeNull();
    const body = await api.check(limited!, '/api/v1/certificates', 'GET', 429);
    expect(body.error.code).toBe('rate_limited');
    expect(body.error.message).toMatch(/^Too many requests\. Try again in \d+ seconds\.$/);
    expect(Number(limited!.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    // Per key: Bob's key still works.
    await api.check(await req('/api/v1/certificates', { token: bobKey }), '/api/v1/certificates', 'GET', 200);
  });
});

describe('configuration', () => {
  it('API_RATE_LIMIT_PER_MIN must be a positive integer (the start fails, naming it)', async () => {
    for (const bad of ['abc', '0', '1.5']) {
      expect(() => loadConfig({ API_RATE_LIMIT_PER_MIN: bad })).toThrow(/API_RATE_LIMIT_PER_MIN must be a positive integer/);
    }
    expect(api.doc.info.description).toContain(`${RATE} requests per minute`);
  });
});

describe('coverage', () => {
  it('every documented success response and the 401 of every authenticated endpoint were exercised', () => {
    const missing: string[] = [];
    for (const ep of ENDPOINTS) {
      for (const s of Object.keys(ep.responses)) if (!api.seen.has(`${ep.method} ${ep.path} ${s}`)) missing.push(`${ep.method} ${ep.path} ${s}`);
      if (ep.auth && !api.seen.has(`${ep.method} ${ep.path} 401`)) missing.push(`${ep.method} ${ep.path} 401`);
    }
    expect(missing).toEqual([]);
  });
});
