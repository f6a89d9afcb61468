// What a mint makes permanent never comes from the request (red-team item 4): a forged Host once put
// http://evil.example/permanent/… into an immutable NFT's metadata. The NFT's uri, the metadata JSON's
// links and the permanent copy's URL name ATTESTA_PUBLIC_ORIGIN, or on a local chain the server's own
// listen origin; on a real cluster without ATTESTA_PUBLIC_ORIGIN minting is refused, and start-up says so.
import fs from 'node:fs';
import { PublicKey } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Config } from '../src/config';
import { createContextInner } from '../src/context';
import { appRouter } from '../src/router';
import { mintOriginProblem, permanentOrigin, readCertificateNft, reconcileMints, warnMintOrigin } from '../src/services/mint';
import { fromHex } from '../../shared/program/codec';
import type { Server } from '../src/app';
import { startTestServer, tmpDataDir } from './helpers';
import { send, trpcMutation } from './forged-host';
import { addCertificate, holderBrowser, toB64, walletSign, type Browser } from './mint-support/flow';

let server: Server;
let alice: Browser;
let permanentBase: string;
const dirs: string[] = [];

beforeAll(async () => {
  const dir = tmpDataDir();
  dirs.push(dir);
  server = await startTestServer(dir);
  alice = await holderBrowser(server);
  permanentBase = `http://localhost:${new URL(server.url).port}`;
}, 60_000);
afterAll(async () => {
  await server?.close();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

const cookieOf = (b: Browser) => [...b.jar].map(([k, v]) => `${k}=${v}`).join('; ');
const userOf = async (b: Browser) => server.services.db.selectFrom('user').selectAll().where('wallet_address', '=', b.wallet.address).executeTakeFirstOrThrow();
const attemptsOf = (certId: string) => server.services.db.selectFrom('mint_attempt').selectAll().where('certificate_id', '=', certId).execute();
const allRows = async () => ({
  attempts: await server.services.db.selectFrom('mint_attempt').selectAll().execute(),
  copies: await server.services.db.selectFrom('permanent_copy').selectAll().execute(),
});
/** A caller whose server runs with `config` (the rest of the services unchanged), signed in as `b`. */
async function callerWith(config: Config, b: Browser) {
  return appRouter.createCaller(await createContextInner({ ...server.services, config, session: { user: await userOf(b), tokenHash: 'test' } }));
}
const realCluster = (over: Partial<Config> = {}): Config => ({
  ...server.services.config,
  chain: { mode: 'rpc', rpcUrl: 'https://api.devnet.solana.com', programId: null },
  publicOrigin: null,
  ...over,
});

describe('a forged Host never reaches the NFT', () => {
  it('tRPC mint.prepare with Host evil.example: the transaction, the metadata JSON, the permanent copy and the minted NFT name the listen origin', { timeout: 90_000 }, async () => {
    const { cert } = await addCertificate(alice, { title: 'Forged Host Certificate' });
    const r = await trpcMutation(server.url, 'mint.prepare', { id: cert.id }, { host: 'evil.example', headers: { cookie: cookieOf(alice) } });
    expect(r.status).toBe(200);
    const prepared = r.body.result.data as { transaction: string; mint_address: string };
    const txBytes = Buffer.from(prepared.transaction, 'base64');
    expect(txBytes.includes('evil.example')).toBe(false);
    expect(txBytes.includes(`${permanentBase}/permanent/`)).toBe(true);

    const [attempt] = await attemptsOf(cert.id);
    expect(attempt.metadata_url).toMatch(new RegExp(`^${permanentBase}/permanent/[0-9a-f]{64}$`));
    expect(attempt.pdf_url).toMatch(new RegExp(`^${permanentBase}/permanent/[0-9a-f]{64}$`));
    const metaText = await (await fetch(attempt.metadata_url)).text();
    expect(metaText).not.toContain('evil.example');
    const meta = JSON.parse(metaText);
    const verifyUrl = `${permanentBase}/view/${cert.user_id}/${cert.id}`;
    expect(meta.external_url).toBe(verifyUrl);
    expect(meta.attributes).toContainEqual({ trait_type: 'Verification URL', value: verifyUrl });
    expect(meta.properties.files).toEqual([
      { uri: meta.image, type: 'image/png' },
      { uri: attempt.pdf_url, type: 'application/pdf' },
    ]);
    expect(meta.image).toMatch(new RegExp(`^${permanentBase}/permanent/[0-9a-f]{64}$`));

    // The holder signs and submits (any Host): the NFT on chain and the certificate row agree.
    const res = await alice.mint.submit.mutate({ id: cert.id, signedTransaction: toB64(walletSign(prepared.transaction, alice.holder)) });
    expect(res.arweave_url).toBe(attempt.pdf_url);
    const nft = await readCertificateNft(server.services.chain, {
      mint: new PublicKey(res.mint_address),
      holder: alice.holder.publicKey,
      hash: fromHex(cert.sha256),
      record: new PublicKey(cert.record_address),
    });
    expect(nft.uri).toBe(attempt.metadata_url);
    const { attempts, copies } = await allRows();
    expect(JSON.stringify({ attempts, copies })).not.toContain('evil.example');
  });

  it('REST POST /api/v1/mint/{id} with Host evil.example: the same', { timeout: 90_000 }, async () => {
    const { cert } = await addCertificate(alice, { title: 'Forged Host via REST' });
    // A REST client connects its wallet (connect token), then mints with a forged Host.
    const n = await send(server.url, 'POST', '/api/v1/auth/nonce', { body: { wallet_address: alice.wallet.address } });
    const c = await send(server.url, 'POST', '/api/v1/auth/connect', { body: { wallet_address: alice.wallet.address, message: n.body.message, signature: alice.wallet.sign(n.body.message) } });
    expect(c.status).toBe(200);
    const r = await send(server.url, 'POST', `/api/v1/mint/${cert.id}`, { host: 'evil.example', body: {}, headers: { authorization: `Bearer ${c.body.token}` } });
    expect(r.status).toBe(202);
    const txBytes = Buffer.from(r.body.transaction, 'base64');
    expect(txBytes.includes('evil.example')).toBe(false);
    expect(txBytes.includes(`${permanentBase}/permanent/`)).toBe(true);
    const [attempt] = await attemptsOf(cert.id);
    expect(attempt.metadata_url.startsWith(`${permanentBase}/permanent/`)).toBe(true);
  });
});

describe('which origin is permanent', () => {
  it('ATTESTA_PUBLIC_ORIGIN when set (the metadata names it, whatever the request)', { timeout: 90_000 }, async () => {
    const { cert } = await addCertificate(alice, { title: 'Public Origin Certificate' });
    const config: Config = { ...server.services.config, publicOrigin: 'https://attesta.example' };
    const prepared = await (await callerWith(config, alice)).mint.prepare({ id: cert.id });
    expect(Buffer.from(prepared.transaction, 'base64').includes('https://attesta.example/permanent/')).toBe(true);
    const [attempt] = await attemptsOf(cert.id);
    expect(attempt.metadata_url).toMatch(/^https:\/\/attesta\.example\/permanent\/[0-9a-f]{64}$/);
    expect(attempt.pdf_url).toMatch(/^https:\/\/attesta\.example\/permanent\/[0-9a-f]{64}$/);
  });

  it('the listen origin on the embedded chain and a local validator; refused on a real cluster without ATTESTA_PUBLIC_ORIGIN', () => {
    const base = server.services.config;
    expect(permanentOrigin({ ...base, host: '127.0.0.1', port: 3000 })).toBe('http://localhost:3000');
    expect(permanentOrigin({ ...base, host: '0.0.0.0', port: 3000 })).toBe('http://localhost:3000');
    expect(permanentOrigin({ ...base, host: '192.168.1.5', port: 8080 })).toBe('http://192.168.1.5:8080');
    expect(permanentOrigin({ ...base, port: 3000, chain: { mode: 'rpc', rpcUrl: 'http://127.0.0.1:8899', programId: null } })).toBe('http://localhost:3000');
    expect(permanentOrigin({ ...realCluster(), publicOrigin: 'https://attesta.example' })).toBe('https://attesta.example');
    expect(() => permanentOrigin(realCluster())).toThrow(/set ATTESTA_PUBLIC_ORIGIN/i);
    expect(mintOriginProblem({ ...base, chain: { mode: 'rpc', rpcUrl: 'https://mainnet.helius-rpc.com/?api-key=x', programId: null }, publicOrigin: null })).toMatch(
      /^Minting is disabled: ATTESTA_PUBLIC_ORIGIN is not set\./,
    );
  });

  it('a real cluster without ATTESTA_PUBLIC_ORIGIN: mint.prepare is refused with the reason, and nothing is stored', { timeout: 90_000 }, async () => {
    const { cert } = await addCertificate(alice, { title: 'Real Cluster Certificate' });
    const before = await allRows();
    const err = await (await callerWith(realCluster(), alice)).mint.prepare({ id: cert.id }).then(
      () => null,
      (e) => e,
    );
    expect(err).toMatchObject({ code: 'PRECONDITION_FAILED' });
    expect(err.message).toBe(
      'Minting is disabled: ATTESTA_PUBLIC_ORIGIN is not set. An NFT names its certificate page and permanent copy forever, so on a real Solana cluster the server must know its public URL. Set ATTESTA_PUBLIC_ORIGIN (for example https://attesta.example) and restart the server.',
    );
    expect(await allRows()).toEqual(before);
  });

  it('start-up warns once when minting will be refused, and not otherwise', async () => {
    const warn = vi.fn();
    const config = realCluster();
    warnMintOrigin(config, warn);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toMatch(/^Warning: Minting is disabled: ATTESTA_PUBLIC_ORIGIN is not set\./);
    const quiet = vi.fn();
    warnMintOrigin(server.services.config, quiet);
    warnMintOrigin({ ...realCluster(), publicOrigin: 'https://attesta.example' }, quiet);
    expect(quiet).not.toHaveBeenCalled();
    // The server's start-up step (reconcileMints) is where it is said.
    const spy = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      await reconcileMints({ ...server.services, config: realCluster() });
      expect(spy.mock.calls.filter((c) => /ATTESTA_PUBLIC_ORIGIN is not set/.test(String(c[0])))).toHaveLength(1);
    } finally {
      spy.mockRestore();
    }
  });
});
