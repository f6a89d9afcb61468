// Attack on the development wallet's named accounts (issue 14): GET /api/dev/accounts hands a browser the
// secret keys of this installation's demo holder, approved demo institution and an operator. The rule
// that must hold: no key anyone can derive, or fetch from elsewhere, holds rights on a chain others can
// reach. So the keys are random per installation (two data dirs differ), the route answers only a
// loopback TCP peer with no forwarding header and a loopback Host, never behind TRUST_PROXY, and does not
// exist on an RPC chain, where the "Operator" key is no operator.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Keypair, PublicKey } from '@solana/web3.js';
import bs58 from 'bs58';
import nacl from 'tweetnacl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CERTIFICATES_PROGRAM_ID } from '../../shared/program/ids';
import { IssuerStatus } from '../../shared/program/codec';
import type { Server } from '../src/app';
import { DEV_ACCOUNTS_PATH } from '../src/http/dev-accounts';
import { DEMO_KEYS_FILE, loadOrCreateDemoKeys } from '../src/services/demo/keys';
import { DEMO_ISSUER_DOMAIN, DEMO_USER_ID } from '../src/services/demo/seed';
import { makeClient, makePdf, signIn, startTestServer, tmpDataDir } from './helpers';
import { issueForm } from './institutions-support/world';

interface Account {
  id: string;
  label: string;
  address: string;
  secret_key: string;
}
interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: { accounts?: Account[]; error?: string };
}

const servers: Server[] = [];
const dirs: string[] = [];
const dir = () => {
  const d = tmpDataDir();
  dirs.push(d);
  return d;
};
async function start(d: string, env: Record<string, string> = {}) {
  const s = await startTestServer(d, { ATTESTA_DEMO_DATA: 'true', ATTESTA_WORKER: 'false', ...env });
  servers.push(s);
  return s;
}
afterAll(async () => {
  for (const s of servers.reverse()) await s.close();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** A raw GET (node:http: the Host header is ours to set), optionally to another address of the server. */
function get(server: Server, headers: Record<string, string> = {}, opts: { host?: string; path?: string } = {}): Promise<Reply> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: opts.host ?? url.hostname, port: url.port, path: opts.path ?? DEV_ACCOUNTS_PATH, method: 'GET', headers: { host: url.host, ...headers }, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => {
        try {
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) });
        } catch {
          reject(new Error(`not JSON (${res.statusCode}): ${text.slice(0, 200)}`));
        }
      });
    });
    req.on('error', reject);
    req.end();
  });
}

const walletOf = (secretKey: string) => {
  const kp = Keypair.fromSecretKey(bs58.decode(secretKey));
  return { address: kp.publicKey.toBase58(), secretKey: kp.secretKey, sign: (m: string) => bs58.encode(nacl.sign.detached(new TextEncoder().encode(m), kp.secretKey)) };
};

const expectRefused = (r: Reply, why: RegExp) => {
  expect(r.status, JSON.stringify(r.body)).toBe(403);
  expect(r.body.accounts).toBeUndefined();
  expect(r.body.error).toMatch(why);
  expect(r.headers['cache-control']).toBe('no-store');
};

describe('development accounts on the embedded chain, to a browser on this machine', () => {
  let s: Server;
  let d: string;
  beforeAll(async () => {
    d = dir();
    s = await start(d);
  }, 60_000);

  it('serves Holder (the demo holder), Institution (the approved demo institution) and Operator, not cached', async () => {
    const r = await get(s);
    expect(r.status).toBe(200);
    expect(r.headers['cache-control']).toBe('no-store');
    const accounts = r.body.accounts!;
    expect(accounts.map((a) => [a.id, a.label])).toEqual([
      ['holder', 'Holder'],
      ['institution', 'Institution'],
      ['operator', 'Operator'],
    ]);
    const keys = loadOrCreateDemoKeys(d);
    expect(accounts.map((a) => a.address)).toEqual([keys.holder, keys.issuer, keys.operator].map((k) => k.publicKey.toBase58()));
    for (const a of accounts) expect(walletOf(a.secret_key).address).toBe(a.address);
    expect(fs.statSync(path.join(d, DEMO_KEYS_FILE)).mode & 0o777).toBe(0o600);
    // The operator account is none of the server's own keys.
    expect(keys.operator.publicKey.equals(s.services.chain.operator)).toBe(false);
  });

  it('each account signs in with its role: the demo holder with cert-1..3, an approved institution (domain not proven, said so), an operator', async () => {
    const [holder, institution, operator] = (await get(s)).body.accounts!;
    const h = makeClient(s.url);
    const { user } = await signIn(h, walletOf(holder.secret_key));
    expect(user.id).toBe(DEMO_USER_ID);
    expect((await h.client.certificate.list.query({})).map((c) => c.id).sort()).toEqual(['cert-1', 'cert-2', 'cert-3']);

    const i = makeClient(s.url);
    await signIn(i, walletOf(institution.secret_key));
    const me = await i.client.issuer.me.query();
    expect(me).toMatchObject({ status: 'approved', domain: DEMO_ISSUER_DOMAIN, proof: { status: 'unproven', method: null, proven_at: null } });
    // The local demo institution may try issuing without a proof (its records say the domain is not proven).
    expect(me).toMatchObject({ demo: true, may_act: true });
    const prepared = await i.client.issuer.issue.mutate(issueForm({ title: 'Certificate of Attendance', program_name: 'Trying Attesta', issue_date: '2025-02-02', holder_wallet: holder.address }, await makePdf(['Attesta Demo University', 'Certificate of Attendance', 'Trying Attesta'], { holder: 'Alex Demo' })));
    expect(prepared.transaction).toEqual(expect.any(String));
    expect((await i.client.auth.me.query())?.roles).toMatchObject({ operator: false, issuer: { status: 'approved' } });

    const o = makeClient(s.url);
    await signIn(o, walletOf(operator.secret_key));
    expect((await o.client.auth.me.query())?.roles).toMatchObject({ operator: true, issuer: null });
    const issuers = await o.client.operator.issuers.query({ status: 'approved' });
    expect(issuers.find((x) => x.authority === institution.address)?.proof.status).toBe('unproven');
    // The console says what the institution's own portal says: the demo institution, which may act here.
    expect(issuers.find((x) => x.authority === institution.address)).toMatchObject({ demo: true, may_act: true });
    // The audit log says the seed approved it without a proof.
    const audit = await o.client.operator.audit.query({});
    const seeded = audit.entries.find((e) => e.action === 'platform.demo_approve');
    expect(seeded?.target).toBe(institution.address);
    expect(String(seeded?.details?.note)).toMatch(/without a domain proof/);
  });

  it('the public verdict of cert-1 names the demo domain as not proven', async () => {
    const v = await makeClient(s.url).client.public.verifyById.query({ certificateId: 'cert-1' });
    expect(v.tier).toBe('issuer_confirmed');
    expect(v.issuer).toMatchObject({ domain: DEMO_ISSUER_DOMAIN, domain_proven: false });
    expect(v.note).toMatch(/domain demo\.attesta\.example is not proven/);
  });

  it('a forwarded request is refused, whatever it claims: X-Forwarded-For 127.0.0.1, Forwarded, X-Real-IP, Via', async () => {
    for (const h of <Record<string, string>[]>[{ 'x-forwarded-for': '127.0.0.1' }, { 'x-forwarded-for': '203.0.113.9' }, { forwarded: 'for=127.0.0.1' }, { 'x-real-ip': '127.0.0.1' }, { via: '1.1 proxy' }, { 'x-forwarded-host': 'localhost' }]) {
      expectRefused(await get(s, h), /not through a proxy/);
    }
  });

  it('a page that rebinds its domain to 127.0.0.1 (its own Host), or another site (Origin), is refused', async () => {
    const port = new URL(s.url).port;
    for (const host of ['attacker.example', `attacker.example:${port}`, `192.0.2.7:${port}`, `localhost.attacker.example:${port}`]) {
      expectRefused(await get(s, { host }), /loopback address/);
    }
    expectRefused(await get(s, { origin: 'http://attacker.example' }), /another site/);
    expectRefused(await get(s, { 'sec-fetch-site': 'cross-site' }), /another site/);
    // The app's own origin is fine.
    expect((await get(s, { origin: `http://localhost:${port}`, 'sec-fetch-site': 'same-origin' })).status).toBe(200);
  });

  it('two installations have different keys', async () => {
    const other = await start(dir());
    const a = (await get(s)).body.accounts!;
    const b = (await get(other)).body.accounts!;
    for (let k = 0; k < 3; k++) expect(a[k].address).not.toBe(b[k].address);
    // Each operator account is an operator only on its own installation.
    const c = makeClient(other.url);
    await signIn(c, walletOf(a[2].secret_key));
    expect((await c.client.auth.me.query())?.roles.operator).toBe(false);
    await expect(c.client.operator.issuers.query({})).rejects.toMatchObject({ data: { code: 'FORBIDDEN' } });
  });
});

describe('the keys file of an earlier release', () => {
  it('gains an operator key; the demo holder and institution keys stay as they were (mode 600)', () => {
    const d = dir();
    const file = path.join(d, DEMO_KEYS_FILE);
    const issuer = Keypair.generate();
    const holder = Keypair.generate();
    fs.writeFileSync(file, JSON.stringify({ issuer: Array.from(issuer.secretKey), holder: Array.from(holder.secretKey) }), { mode: 0o600 });
    const keys = loadOrCreateDemoKeys(d);
    expect(keys.issuer.publicKey.equals(issuer.publicKey)).toBe(true);
    expect(keys.holder.publicKey.equals(holder.publicKey)).toBe(true);
    expect(loadOrCreateDemoKeys(d).operator.publicKey.equals(keys.operator.publicKey)).toBe(true);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(d)).toEqual([DEMO_KEYS_FILE]);
  });
});

describe('development accounts refused elsewhere', () => {
  it('behind TRUST_PROXY: refused even from loopback with no header, and with a forged X-Forwarded-For', async () => {
    const s = await start(dir(), { TRUST_PROXY: 'true' });
    expectRefused(await get(s), /TRUST_PROXY/);
    expectRefused(await get(s, { 'x-forwarded-for': '127.0.0.1' }), /TRUST_PROXY/);
    const list = await start(dir(), { TRUST_PROXY: 'loopback' });
    expectRefused(await get(list, { 'x-forwarded-for': '127.0.0.1' }), /TRUST_PROXY/);
  });

  it('published under a public origin (ATTESTA_PUBLIC_ORIGIN): refused', async () => {
    const s = await start(dir(), { ATTESTA_PUBLIC_ORIGIN: 'https://attesta.example' });
    expectRefused(await get(s), /published as https:\/\/attesta\.example/);
  });

  const lan = Object.values(os.networkInterfaces())
    .flat()
    .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
  it.skipIf(!lan)('a client on a non-loopback interface (server bound to 0.0.0.0) is refused, even with Host: localhost', async () => {
    const s = await start(dir(), { HOST: '0.0.0.0' });
    const port = new URL(s.url).port;
    expectRefused(await get(s, { host: `localhost:${port}` }, { host: lan }), /browser on this machine/);
    expect((await get(s, { host: `localhost:${port}` }, { host: '127.0.0.1' })).status).toBe(200);
  });

  it('ATTESTA_DEV_ACCOUNTS=false: no route, and the operator key is nobody', async () => {
    const d = dir();
    const s = await start(d, { ATTESTA_DEV_ACCOUNTS: 'false' });
    const r = await get(s);
    expect(r.status).toBe(404);
    const c = makeClient(s.url);
    await signIn(c, walletOf(bs58.encode(loadOrCreateDemoKeys(d).operator.secretKey)));
    expect((await c.client.auth.me.query())?.roles.operator).toBe(false);
    // Nor may the demo institution act without a domain proof: the rule holds for every institution.
    const i = makeClient(s.url);
    await signIn(i, walletOf(bs58.encode(loadOrCreateDemoKeys(d).issuer.secretKey)));
    expect(await i.client.issuer.me.query()).toMatchObject({ status: 'approved', demo: false, may_act: false });
    const form = issueForm({ title: 'Certificate of Attendance', program_name: 'Trying Attesta', issue_date: '2025-02-02', holder_wallet: loadOrCreateDemoKeys(d).holder.publicKey.toBase58() }, await makePdf(['Certificate of Attendance']));
    await expect(i.client.issuer.issue.mutate(form)).rejects.toThrow(/Prove the institution’s domain demo\.attesta\.example first/);
  });

  it('on an RPC chain the route does not exist and the installation\'s "Operator" key is no operator', async () => {
    const dirA = dir();
    const a = await start(dirA);
    const dirB = dir();
    // B even holds A's keys file: on an RPC chain nothing in it grants a role.
    fs.copyFileSync(path.join(dirA, DEMO_KEYS_FILE), path.join(dirB, DEMO_KEYS_FILE));
    const b = await start(dirB, { SOLANA_RPC_URL: `${a.url}/rpc`, CERTIFICATES_PROGRAM_ID: CERTIFICATES_PROGRAM_ID.toBase58(), OPERATOR_KEYPAIR_PATH: path.join(dirA, 'operator.json') });
    expect(b.services.chain.mode).toBe('rpc');
    expect(b.services.devAccounts).toBeNull();
    const r = await get(b);
    expect(r.status).toBe(404);
    expect(r.body.accounts).toBeUndefined();
    const keys = loadOrCreateDemoKeys(dirB);
    const c = makeClient(b.url);
    await signIn(c, walletOf(bs58.encode(keys.operator.secretKey)));
    expect((await c.client.auth.me.query())?.roles.operator).toBe(false);
    await expect(c.client.operator.issuers.query({})).rejects.toMatchObject({ data: { code: 'FORBIDDEN' } });
    // The demo institution is A's (approved on the shared chain), but B seeded no demo data of its own.
    expect((await b.services.chain.readIssuer(new PublicKey(keys.issuer.publicKey)))?.status).toBe(IssuerStatus.Approved);
  }, 60_000);
});
