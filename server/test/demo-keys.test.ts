// Demo keys are made per installation and kept secret: nobody can derive the demo institution's or
// the demo holder's key from the source and use it on a server whose chain they can reach.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Keypair } from '@solana/web3.js';
import bs58 from 'bs58';
import nacl from 'tweetnacl';
import { IssuerStatus } from '../../shared/program/codec';
import type { Server } from '../src/app';
import { DEMO_KEYS_FILE, loadOrCreateDemoKeys } from '../src/services/demo/keys';
import { DEMO_USER_ID } from '../src/services/demo/seed';
import { makeClient, signIn, startTestServer, tmpDataDir } from './helpers';

const derivable = (label: string) => Keypair.fromSeed(createHash('sha256').update(`attesta-demo:${label}`).digest());
const walletOf = (kp: Keypair) => ({
  address: kp.publicKey.toBase58(),
  secretKey: kp.secretKey,
  sign: (msg: string) => bs58.encode(nacl.sign.detached(new TextEncoder().encode(msg), kp.secretKey)),
});

const servers: Server[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});
async function start(dir: string, env: Record<string, string> = {}) {
  const s = await startTestServer(dir, { ATTESTA_DEMO_DATA: 'true', ATTESTA_WORKER: 'false', ...env });
  servers.push(s);
  return s;
}

describe('demo keys', () => {
  it('are random per installation, stored with mode 600, and none is the derivable key', async () => {
    const a = tmpDataDir();
    const b = tmpDataDir();
    const sa = await start(a);
    await start(b);
    const ka = loadOrCreateDemoKeys(a);
    const kb = loadOrCreateDemoKeys(b);
    expect(ka.holder.publicKey.equals(kb.holder.publicKey)).toBe(false);
    expect(ka.issuer.publicKey.equals(kb.issuer.publicKey)).toBe(false);
    for (const k of [ka.holder, ka.issuer]) {
      expect(k.publicKey.equals(derivable('holder').publicKey)).toBe(false);
      expect(k.publicKey.equals(derivable('issuer').publicKey)).toBe(false);
    }
    expect(fs.statSync(path.join(a, DEMO_KEYS_FILE)).mode & 0o777).toBe(0o600);
    // The seeded institution is this installation's key, approved; the derivable one has no account.
    const chain = sa.services.chain;
    expect((await chain.readIssuer(ka.issuer.publicKey))?.status).toBe(IssuerStatus.Approved);
    expect(await chain.readIssuer(derivable('issuer').publicKey)).toBeNull();
    const demoUser = await sa.services.db.selectFrom('user').selectAll().where('id', '=', DEMO_USER_ID).executeTakeFirstOrThrow();
    expect(demoUser.wallet_address).toBe(ka.holder.publicKey.toBase58());
  });

  it('the derivable demo holder key signs in as a stranger with no certificates', async () => {
    const s = await start(tmpDataDir());
    const c = makeClient(s.url);
    const { user } = await signIn(c, walletOf(derivable('holder')));
    expect(user.id).not.toBe(DEMO_USER_ID);
    expect(await c.client.certificate.list.query({})).toEqual([]);
    await expect(c.client.certificate.byId.query({ id: 'cert-1' })).rejects.toMatchObject({ data: { code: 'NOT_FOUND' } });
  });

  it('a data dir seeded with the old derivable keys is retired at start: institution suspended, demo user moved to the new key', async () => {
    const dir = tmpDataDir();
    // The state an older release left: the derivable institution approved on chain, the demo user on the derivable wallet.
    const old = await start(dir, { ATTESTA_DEMO_DATA: 'false' });
    const legacyIssuer = derivable('issuer');
    await old.services.chain.registerIssuer({ authority: legacyIssuer, name: 'Attesta Demo University', uri: 'https://demo.attesta.example' }, { kind: 'register_issuer' });
    await old.services.chain.setIssuerStatus({ authority: legacyIssuer.publicKey, status: IssuerStatus.Approved }, { kind: 'set_issuer_status' });
    const now = new Date().toISOString();
    await old.services.db
      .insertInto('user')
      .values({ id: DEMO_USER_ID, wallet_address: derivable('holder').publicKey.toBase58(), full_name: 'Alex Demo', email: null, profile_image_key: null, profile_image_url: null, created_at: now, updated_at: now })
      .execute();
    const legacyClient = makeClient(old.url);
    const before = await signIn(legacyClient, walletOf(derivable('holder')));
    expect(before.user.id).toBe(DEMO_USER_ID); // the hole, as it was
    await old.close();
    servers.splice(servers.indexOf(old), 1);

    const s = await start(dir);
    expect((await s.services.chain.readIssuer(legacyIssuer.publicKey))?.status).toBe(IssuerStatus.Suspended);
    const keys = loadOrCreateDemoKeys(dir);
    const demoUser = await s.services.db.selectFrom('user').selectAll().where('id', '=', DEMO_USER_ID).executeTakeFirstOrThrow();
    expect(demoUser.wallet_address).toBe(keys.holder.publicKey.toBase58());
    // The old session is gone and the derivable key is now a stranger.
    const stale = makeClient(s.url);
    for (const [k, v] of legacyClient.jar) stale.jar.set(k, v);
    await expect(stale.client.auth.me.query()).resolves.toBeNull();
    const { user } = await signIn(makeClient(s.url), walletOf(derivable('holder')));
    expect(user.id).not.toBe(DEMO_USER_ID);
  });
});

// The audit: the seed wrote "Document checks ✓ The document names the claimed title, institution and
// program, and the holder, Alex Demo" and content_checked true without reading any document, while the
// public view said the holder's name was not checked. The demo records say what really happened: the
// verification's own checks read cert-1 and cert-3, and their logs and details are what those checks found.
describe('demo data', () => {
  it('is read by the real checks: its logs and details are what they found, and its public verdict agrees', async () => {
    const s = await start(tmpDataDir());
    const { db } = s.services;
    const logs = async (id: string) =>
      Object.fromEntries(
        (await db.selectFrom('verification_log').select(['verification_step', 'status', 'details']).where('certificate_id', '=', id).execute()).map((l) => [l.verification_step, { status: l.status, ...JSON.parse(l.details) }]),
      );
    const details = async (id: string) => JSON.parse((await db.selectFrom('certificate').select('verification_details').where('id', '=', id).executeTakeFirstOrThrow()).verification_details ?? 'null');

    // cert-1: the document check read it and found every claim and the holder's name in its text.
    const one = await logs('cert-1');
    expect(one.document_checks).toMatchObject({
      status: 'success',
      message: 'The document names the claimed title, institution and program, and the holder, Alex Demo.',
      text_matches: { title: true, institution: true, program: true, holder: true },
      text_source: 'pdf',
      holder_name: 'Alex Demo',
      tamper_signals: [],
    });
    expect(one.hash_verification).toMatchObject({ status: 'success', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(one.issuer_verification).toMatchObject({ status: 'success', message: "Signed on chain with the approved institution Attesta Demo University's own key, but its domain demo.attesta.example is not proven." });
    expect(await details('cert-1')).toMatchObject({ content_checked: true, holder_name: 'Alex Demo', tamper_signals: [] });
    // The public verdict names the holder as the check found them (the page: "name found in the document").
    const v = await makeClient(s.url).client.public.verifyById.query({ certificateId: 'cert-1' });
    expect(v.certificate?.verification_details?.holder_name).toBe('Alex Demo');

    // cert-3: rejected for what its check found: the program printed is another one, quoted.
    const three = await logs('cert-3');
    expect(three.document_checks).toMatchObject({ status: 'failed', text_matches: { title: true, institution: true, program: false, holder: true } });
    expect(three.document_checks.message).toMatch(/^The document names “[^”]+”; you claimed the program “Advanced Data Analytics”\. /);
    expect(three.chain_record).toMatchObject({ status: 'success', signature: expect.any(String) });
    expect(await details('cert-3')).toMatchObject({ reason: three.document_checks.message, reason_name: 'content_mismatch', step: 'document_checks' });

    // cert-2: never checked, and says nothing of a check.
    expect(await logs('cert-2')).toEqual({});
    expect(await details('cert-2')).toBeNull();
  });
});
