// Sign-in is bound to this server (red-team item 4): the Sign-In-With-Solana message names
// ATTESTA_PUBLIC_ORIGIN or the server's own local address — never the Host a request claims — and
// sign-in checks domain, URI, chain, times and nonce as an EIP-4361 / SIWS verifier does, on tRPC and
// REST alike. Share links may use the address the user opened, but only when it is one of ours.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSignInMessage, parseSignInMessage, SIGN_IN_STATEMENT } from '../../shared/schemas/auth';
import type { Server } from '../src/app';
import { loadConfig } from '../src/config';
import { issueNonce, localHosts, signInChainId, signInDomainFor } from '../src/services/auth';
import { certForm, makeClient, makePdf, newWallet, signIn, startTestServer, tmpDataDir } from './helpers';
import { send, trpcMutation, trpcQuery, type RawReply } from './forged-host';

let local: Server; // no ATTESTA_PUBLIC_ORIGIN: `npm start` on a developer's machine, tests on random ports
let hosted: Server; // ATTESTA_PUBLIC_ORIGIN=https://attesta.example: a real deployment behind a proxy
const dirs: string[] = [];

beforeAll(async () => {
  const env = { ATTESTA_WORKER: 'false', SIGN_IN_RATE_LIMIT_PER_IP: '10000', SIGN_IN_RATE_LIMIT_PER_WALLET: '10000', API_RATE_LIMIT_PER_MIN: '10000' };
  dirs.push(tmpDataDir(), tmpDataDir());
  local = await startTestServer(dirs[0], env);
  hosted = await startTestServer(dirs[1], { ...env, ATTESTA_PUBLIC_ORIGIN: 'https://attesta.example' });
});
afterAll(async () => {
  await local?.close();
  await hosted?.close();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

const portOf = (s: Server) => new URL(s.url).port;
const count = async (s: Server, table: 'sign_in_nonce' | 'session' | 'user') =>
  Number((await s.services.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
const nonceRows = (s: Server) => s.services.db.selectFrom('sign_in_nonce').select(['message', 'used_at']).execute();
const trpcError = (r: RawReply) => ({ status: r.status, code: r.body?.error?.data?.code, message: r.body?.error?.message });

async function nonceTrpc(s: Server, address: string, host?: string) {
  return trpcMutation(s.url, 'auth.nonce', { address }, { host });
}

describe('the attack: a phishing site relays our sign-in through its own Host', () => {
  it('tRPC auth.nonce with Host evil.example: 400 saying to set ATTESTA_PUBLIC_ORIGIN, and no message naming it is stored', async () => {
    const w = newWallet();
    const before = await count(local, 'sign_in_nonce');
    const r = await nonceTrpc(local, w.address, 'evil.example');
    expect(trpcError(r)).toEqual({ status: 400, code: 'BAD_REQUEST', message: expect.stringContaining('set ATTESTA_PUBLIC_ORIGIN') });
    expect(r.body.error.message).toContain(`http://localhost:${portOf(local)}`);
    expect(JSON.stringify(r.body)).not.toContain('evil.example');
    expect(await count(local, 'sign_in_nonce')).toBe(before);
    expect((await nonceRows(local)).some((n) => n.message.includes('evil.example'))).toBe(false);
  });

  it('REST POST /api/v1/auth/nonce with Host evil.example: the same 400 in the REST error shape', async () => {
    const before = await count(local, 'sign_in_nonce');
    const r = await send(local.url, 'POST', '/api/v1/auth/nonce', { host: 'evil.example', body: { wallet_address: newWallet().address } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: { code: 'bad_request', message: expect.stringContaining('set ATTESTA_PUBLIC_ORIGIN') } });
    expect(await count(local, 'sign_in_nonce')).toBe(before);
  });

  it('other Hosts that are not this server are refused too: another port of localhost, a look-alike, no port', async () => {
    const p = Number(portOf(local));
    for (const host of [`localhost:${p + 1}`, `127.0.0.1:${p + 1}`, `localhost.evil.example:${p}`, `evil.example:${p}`, `127.0.0.1.evil.example:${p}`, 'localhost']) {
      const r = await nonceTrpc(local, newWallet().address, host);
      expect({ host, status: r.status }).toEqual({ host, status: 400 });
    }
  });

  it('a signed message naming another site opens no session, on tRPC or REST, and its nonce stays unused', async () => {
    // What the server issued before this fix to a request with Host evil.example.
    const w = newWallet();
    const { message } = await issueNonce(local.services.db, { address: w.address, domain: 'evil.example', uri: 'http://evil.example' });
    const signature = w.sign(message);
    const sessions = await count(local, 'session');
    const viaTrpc = await trpcMutation(local.url, 'auth.signIn', { address: w.address, message, signature });
    expect(trpcError(viaTrpc)).toEqual({ status: 401, code: 'UNAUTHORIZED', message: 'This sign-in message was made for another site. Please sign in again from this site.' });
    expect(viaTrpc.headers['set-cookie']).toBeUndefined();
    const viaRest = await send(local.url, 'POST', '/api/v1/auth/connect', { body: { wallet_address: w.address, message, signature } });
    expect(viaRest.status).toBe(401);
    expect(viaRest.body.error.message).toBe('This sign-in message was made for another site. Please sign in again from this site.');
    // Relaying with the forged Host does not help either.
    expect((await trpcMutation(local.url, 'auth.signIn', { address: w.address, message, signature }, { host: 'evil.example' })).status).toBe(401);
    expect(await count(local, 'session')).toBe(sessions);
    expect((await nonceRows(local)).find((n) => n.message === message)?.used_at).toBeNull();
  });

  it('our domain with a foreign URI, or a URI whose authority is not the domain, is refused', async () => {
    const host = new URL(local.url).host;
    for (const [domain, uri] of [
      [host, 'https://evil.example'],
      [host, `http://evil.example/${host}`],
      ['evil.example', local.url],
      [host, `http://user@${host}`],
    ]) {
      const w = newWallet();
      const { message } = await issueNonce(local.services.db, { address: w.address, domain, uri });
      const r = await trpcMutation(local.url, 'auth.signIn', { address: w.address, message, signature: w.sign(message) });
      expect({ domain, uri, status: r.status, message: r.body?.error?.message }).toEqual({
        domain,
        uri,
        status: 401,
        message: 'This sign-in message was made for another site. Please sign in again from this site.',
      });
    }
  });
});

describe('the message format (SIWS ABNF, EIP-4361 field order)', () => {
  const fields = {
    domain: 'attesta.example',
    address: newWallet().address,
    uri: 'https://attesta.example',
    chainId: 'devnet' as const,
    nonce: 'AbCdEfGh1234',
    issuedAt: '2026-01-01T00:00:00.000Z',
    expirationTime: '2026-01-01T00:05:00.000Z',
  };
  it('builds the standard layout and parses it back', () => {
    const m = buildSignInMessage(fields);
    expect(m).toBe(
      `attesta.example wants you to sign in with your Solana account:\n${fields.address}\n\nSign in to Attesta.\n\n` +
        'URI: https://attesta.example\nVersion: 1\nChain ID: devnet\nNonce: AbCdEfGh1234\nIssued At: 2026-01-01T00:00:00.000Z\nExpiration Time: 2026-01-01T00:05:00.000Z',
    );
    expect(parseSignInMessage(m)).toEqual({ ...fields, statement: SIGN_IN_STATEMENT, version: '1' });
    const noChain = buildSignInMessage({ ...fields, chainId: undefined });
    expect(noChain).not.toContain('Chain ID');
    expect(parseSignInMessage(noChain)?.chainId).toBeUndefined();
  });
  it('refuses what is not that shape: fields out of order or repeated, unknown chain or version, extra fields, a short nonce', () => {
    const m = buildSignInMessage(fields);
    for (const bad of [
      m.replace('Version: 1\nChain ID: devnet', 'Chain ID: devnet\nVersion: 1'),
      m.replace('Nonce: AbCdEfGh1234', 'Nonce: AbCdEfGh1234\nNonce: Other1234567'),
      m.replace('Chain ID: devnet', 'Chain ID: ethereum'),
      m.replace('Version: 1', 'Version: 2'),
      `${m}\nResources:\n- https://evil.example`,
      `${m}\nNot Before: 2026-01-01T00:00:00.000Z`,
      m.replace('Nonce: AbCdEfGh1234', 'Nonce: short'),
      m.replace('attesta.example wants', 'evil.example/path wants'),
      m.replace(/\nURI: .*/, ''),
    ]) {
      expect(parseSignInMessage(bad)).toBeNull();
    }
  });
});

describe('sign-in checks beyond the domain', () => {
  it('a message for another Solana network is refused (this server runs a local chain: Chain ID localnet)', async () => {
    expect(signInChainId(local.services.config)).toBe('localnet');
    const host = new URL(local.url).host;
    const w = newWallet();
    const { message } = await issueNonce(local.services.db, { address: w.address, domain: host, uri: `http://${host}`, chainId: 'mainnet' });
    const r = await trpcMutation(local.url, 'auth.signIn', { address: w.address, message, signature: w.sign(message) });
    expect(trpcError(r)).toEqual({ status: 401, code: 'UNAUTHORIZED', message: 'This sign-in message is for another Solana network. Please sign in again.' });
  });

  it('issued in the future, or expiring after the nonce lifetime, is refused; expired is refused as expired', async () => {
    const host = new URL(local.url).host;
    const at = (now: number) => async () => {
      const w = newWallet();
      const { message } = await issueNonce(local.services.db, { address: w.address, domain: host, uri: `http://${host}`, chainId: 'localnet', now });
      return trpcError(await trpcMutation(local.url, 'auth.signIn', { address: w.address, message, signature: w.sign(message) }));
    };
    expect((await at(Date.now() + 10 * 60_000)()).message).toBe('The times in this sign-in message are not valid. Please sign in again.');
    expect((await at(Date.now() - 6 * 60_000)()).message).toBe('This sign-in request has expired. Please try again.');
    // Hand-made times (a message the server never issued would fail the nonce check too; the times are checked first).
    const w = newWallet();
    const issued = await issueNonce(local.services.db, { address: w.address, domain: host, uri: `http://${host}`, chainId: 'localnet' });
    const stretched = issued.message.replace(/Expiration Time: .*/, `Expiration Time: ${new Date(Date.now() + 3600_000).toISOString()}`);
    expect(trpcError(await trpcMutation(local.url, 'auth.signIn', { address: w.address, message: stretched, signature: w.sign(stretched) })).message).toBe(
      'The times in this sign-in message are not valid. Please sign in again.',
    );
    // The genuine one still works: nothing above consumed its nonce.
    expect((await trpcMutation(local.url, 'auth.signIn', { address: w.address, message: issued.message, signature: w.sign(issued.message) })).status).toBe(200);
  });

  it('an unknown nonce in an otherwise valid message is refused', async () => {
    const host = new URL(local.url).host;
    const w = newWallet();
    const now = Date.now();
    const message = buildSignInMessage({
      domain: host,
      address: w.address,
      uri: `http://${host}`,
      chainId: 'localnet',
      nonce: 'NeverIssued12345',
      issuedAt: new Date(now).toISOString(),
      expirationTime: new Date(now + 60_000).toISOString(),
    });
    expect(trpcError(await trpcMutation(local.url, 'auth.signIn', { address: w.address, message, signature: w.sign(message) })).message).toBe(
      'This sign-in request is not known. Please try again.',
    );
  });
});

describe('what still works without ATTESTA_PUBLIC_ORIGIN (npm start, tests on random ports)', () => {
  it('localhost, 127.0.0.1 and [::1] on the server port: the message names the address the user opened, and sign-in works', async () => {
    const p = portOf(local);
    for (const host of [`localhost:${p}`, `127.0.0.1:${p}`, `LOCALHOST:${p}`, `[::1]:${p}`]) {
      const w = newWallet();
      const n = await nonceTrpc(local, w.address, host);
      expect(n.status).toBe(200);
      const { message } = n.body.result.data;
      const f = parseSignInMessage(message)!;
      expect(f).toMatchObject({ domain: host.toLowerCase(), uri: `http://${host.toLowerCase()}`, version: '1', chainId: 'localnet', statement: SIGN_IN_STATEMENT, address: w.address });
      const s = await trpcMutation(local.url, 'auth.signIn', { address: w.address, message, signature: w.sign(message) }, { host });
      expect(s.status).toBe(200);
      expect(s.headers['set-cookie']?.[0]).toMatch(/^attesta_session=/);
    }
  });

  it('the allowlist is the listen address and loopback names on the listen port', () => {
    const config = loadConfig({ PORT: '3000', HOST: '127.0.0.1' });
    expect(localHosts(config)).toEqual(['localhost:3000', '127.0.0.1:3000', '[::1]:3000']);
    expect(localHosts(loadConfig({ PORT: '8080', HOST: '192.168.1.5' }))).toEqual(['localhost:8080', '127.0.0.1:8080', '[::1]:8080', '192.168.1.5:8080']);
    // In-process callers (no request) get the listen origin.
    expect(signInDomainFor(config)).toEqual({ domain: 'localhost:3000', uri: 'http://localhost:3000' });
  });
});

describe('with ATTESTA_PUBLIC_ORIGIN', () => {
  it('every message names the public origin, whatever Host the request carries, and signing in works on tRPC and REST', async () => {
    for (const host of [new URL(hosted.url).host, 'evil.example', 'internal-upstream:3000']) {
      const w = newWallet();
      const n = await nonceTrpc(hosted, w.address, host);
      expect(n.status).toBe(200);
      const { message } = n.body.result.data;
      expect(message.split('\n')[0]).toBe('attesta.example wants you to sign in with your Solana account:');
      expect(parseSignInMessage(message)).toMatchObject({ domain: 'attesta.example', uri: 'https://attesta.example', chainId: 'localnet' });
      expect(message).not.toContain('evil.example');
      expect((await trpcMutation(hosted.url, 'auth.signIn', { address: w.address, message, signature: w.sign(message) })).status).toBe(200);
    }
    const w = newWallet();
    const n = await send(hosted.url, 'POST', '/api/v1/auth/nonce', { host: 'evil.example', body: { wallet_address: w.address } });
    expect(n.status).toBe(200);
    expect(n.body.message.split('\n')[0]).toBe('attesta.example wants you to sign in with your Solana account:');
    const c = await send(hosted.url, 'POST', '/api/v1/auth/connect', { body: { wallet_address: w.address, message: n.body.message, signature: w.sign(n.body.message) } });
    expect(c.status).toBe(200);
    expect(c.body.token).toBeTruthy();
  });

  it('a message naming the local address (issued before ATTESTA_PUBLIC_ORIGIN was set) is refused', async () => {
    const host = new URL(hosted.url).host;
    const w = newWallet();
    const { message } = await issueNonce(hosted.services.db, { address: w.address, domain: host, uri: `http://${host}`, chainId: 'localnet' });
    const r = await trpcMutation(hosted.url, 'auth.signIn', { address: w.address, message, signature: w.sign(message) });
    expect(trpcError(r).message).toBe('This sign-in message was made for another site. Please sign in again from this site.');
  });
});

describe('links in answers (share links): the address the user opened if it is ours, never a forged Host', () => {
  it('a forged Host gets links on the listen origin; our own Host keeps its address; ATTESTA_PUBLIC_ORIGIN wins', async () => {
    for (const srv of [local, hosted]) {
      const c = makeClient(srv.url);
      await signIn(c);
      const cert = await c.client.certificate.create.mutate(
        certForm(
          { title: 'Share Link Test', institution_name: 'Harbor Institute', program_name: 'Marine Robotics', issue_date: '2025-03-03' },
          { bytes: await makePdf(['Harbor Institute', 'Share Link Test']), name: 'c.pdf', type: 'application/pdf' },
        ),
      );
      const cookie = [...c.jar].map(([k, v]) => `${k}=${v}`).join('; ');
      const link = async (host?: string) => {
        const own = await trpcQuery(srv.url, 'certificate.byId', { id: cert.id }, { host, headers: { cookie } });
        const pub = await trpcQuery(srv.url, 'public.view', { userId: cert.user_id, certificateId: cert.id }, { host });
        expect(own.status).toBe(200);
        expect(pub.body.result.data.verification_url).toBe(own.body.result.data.verification_url);
        return own.body.result.data.verification_url as string;
      };
      const path = `/view/${cert.user_id}/${cert.id}`;
      const p = portOf(srv);
      if (srv === local) {
        expect(await link('evil.example')).toBe(`http://localhost:${p}${path}`);
        expect(await link()).toBe(`http://127.0.0.1:${p}${path}`);
        expect(await link(`localhost:${p}`)).toBe(`http://localhost:${p}${path}`);
      } else {
        for (const host of [undefined, 'evil.example']) expect(await link(host)).toBe(`https://attesta.example${path}`);
      }
    }
  });
});
