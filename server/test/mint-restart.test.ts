import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { fromHex } from '../../shared/program/codec';
import { prepareMint, submitMint, type MintContext } from '../src/services/mint';
import type { Server } from '../src/app';
import { makeClient, signIn, startTestServer, tmpDataDir } from './helpers';
import { addCertificate, holderBrowser, toB64, walletSign } from './mint-support/flow';

const dirs: string[] = [];
const servers: Server[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});
const start = async (dir: string) => {
  const s = await startTestServer(dir);
  servers.push(s);
  return s;
};
const crash = () => {
  throw new Error('simulated crash');
};

async function setup() {
  const dir = tmpDataDir();
  dirs.push(dir);
  const server = await start(dir);
  const b = await holderBrowser(server);
  const { cert } = await addCertificate(b);
  const user = await server.services.db.selectFrom('user').selectAll().where('wallet_address', '=', b.wallet.address).executeTakeFirstOrThrow();
  const ctx: MintContext = { ...server.services, permanentOrigin: server.url };
  const prepared = await prepareMint(ctx, user, cert.id);
  const signed = toB64(walletSign(prepared.transaction, b.holder));
  return { dir, server, b, cert, user, ctx, prepared, signed };
}

const stateOf = async (s: Server, certId: string, sha256: string) => ({
  row: await s.services.db.selectFrom('certificate').select(['nft_mint_address', 'mint_signature', 'arweave_url']).where('id', '=', certId).executeTakeFirstOrThrow(),
  attempts: await s.services.db.selectFrom('mint_attempt').select(['mint_address', 'status', 'signature']).where('certificate_id', '=', certId).execute(),
  chainMint: (await s.services.chain.readCertificate(fromHex(sha256)))?.nftMint?.toBase58() ?? null,
  minted: (await s.services.chain.readRegistry())!.mintedCount,
  mintTxs: (await s.services.db.selectFrom('chain_transaction').select('signature').where('kind', '=', 'mint_certificate').where('certificate_id', '=', certId).execute()).length,
});

describe('mint recovery', () => {
  it('a crash after the chain accepted the mint and before the DB write ends minted once after a restart', { timeout: 120_000 }, async () => {
    const { dir, server, b, cert, user, ctx, prepared, signed } = await setup();
    await expect(submitMint(ctx, user, { id: cert.id, signedTransaction: signed }, { afterSend: crash })).rejects.toThrow('simulated crash');
    const crashed = await stateOf(server, cert.id, cert.sha256);
    expect(crashed.chainMint).toBe(prepared.mint_address); // on chain…
    expect(crashed.row.nft_mint_address).toBeNull(); // …but not recorded
    expect(crashed.attempts.map((a) => a.status)).toEqual(['submitted']);
    await server.close();

    const again = await start(dir); // reconcile-on-start
    expect(again.startup.reconciledMints).toMatchObject({ checked: 1, minted: 1, errors: [] });
    const after = await stateOf(again, cert.id, cert.sha256);
    expect(after.row).toMatchObject({ nft_mint_address: prepared.mint_address, mint_signature: crashed.attempts[0].signature });
    expect(after.row.arweave_url).toMatch(/\/permanent\/[0-9a-f]{64}$/);
    expect(after.attempts.map((a) => a.status)).toEqual(['minted']);
    expect(after.minted).toBe(1n);
    expect(after.mintTxs).toBe(1);

    // The same browser after the restart: minted once, a retry returns the same NFT.
    const c = makeClient(again.url);
    for (const [k, v] of b.jar) c.jar.set(k, v);
    const m = c.client.mint;
    await expect(m.prepare.mutate({ id: cert.id })).rejects.toThrow('This certificate is already minted.');
    expect(await m.submit.mutate({ id: cert.id, signedTransaction: signed })).toMatchObject({ mint_address: prepared.mint_address, transaction_signature: crashed.attempts[0].signature });
    expect((await stateOf(again, cert.id, cert.sha256)).minted).toBe(1n);
  });

  it('without a restart, the next prepare or submit reconciles from the chain', { timeout: 120_000 }, async () => {
    const { server, cert, user, ctx, prepared, signed } = await setup();
    await expect(submitMint(ctx, user, { id: cert.id, signedTransaction: signed }, { afterSend: crash })).rejects.toThrow('simulated crash');
    await expect(prepareMint(ctx, user, cert.id)).rejects.toThrow('This certificate is already minted.');
    const s = await stateOf(server, cert.id, cert.sha256);
    expect(s.row.nft_mint_address).toBe(prepared.mint_address);
    expect(s.attempts.map((a) => a.status)).toEqual(['minted']);
    expect(await submitMint(ctx, user, { id: cert.id, signedTransaction: signed })).toMatchObject({ mint_address: prepared.mint_address });
    expect((await stateOf(server, cert.id, cert.sha256)).minted).toBe(1n);
  });

  it('a crash after claiming the attempt and before sending: the restart sends the signed transaction once', { timeout: 120_000 }, async () => {
    const { dir, server, cert, user, ctx, prepared, signed } = await setup();
    await expect(submitMint(ctx, user, { id: cert.id, signedTransaction: signed }, { beforeSend: crash })).rejects.toThrow('simulated crash');
    const crashed = await stateOf(server, cert.id, cert.sha256);
    expect(crashed).toMatchObject({ chainMint: null, minted: 0n });
    expect(crashed.attempts.map((a) => a.status)).toEqual(['submitted']);
    await server.close();

    const again = await start(dir);
    expect(again.startup.reconciledMints).toMatchObject({ checked: 1, minted: 1 });
    const after = await stateOf(again, cert.id, cert.sha256);
    expect(after).toMatchObject({ chainMint: prepared.mint_address, minted: 1n, mintTxs: 1 });
    expect(after.row.nft_mint_address).toBe(prepared.mint_address);
  });

  it('without a restart, a new prepare first finishes the attempt in flight instead of starting a second mint', { timeout: 120_000 }, async () => {
    const { server, cert, user, ctx, prepared, signed } = await setup();
    await expect(submitMint(ctx, user, { id: cert.id, signedTransaction: signed }, { beforeSend: crash })).rejects.toThrow('simulated crash');
    await expect(prepareMint(ctx, user, cert.id)).rejects.toThrow('This certificate is already minted.');
    expect(await stateOf(server, cert.id, cert.sha256)).toMatchObject({ chainMint: prepared.mint_address, minted: 1n, mintTxs: 1, attempts: [{ status: 'minted' }] });
  });

  it('without a restart, resubmitting the same transaction finishes a stale claim', { timeout: 120_000 }, async () => {
    const { server, cert, user, ctx, prepared, signed } = await setup();
    await expect(submitMint(ctx, user, { id: cert.id, signedTransaction: signed }, { beforeSend: crash })).rejects.toThrow('simulated crash');
    // The claim is older than any send can take: no other request is working on it.
    await server.services.db.updateTable('mint_attempt').set({ updated_at: new Date(Date.now() - 60_000).toISOString() }).where('certificate_id', '=', cert.id).execute();
    const t0 = Date.now();
    expect(await submitMint(ctx, user, { id: cert.id, signedTransaction: signed })).toMatchObject({ mint_address: prepared.mint_address });
    expect(Date.now() - t0).toBeLessThan(4_000);
    expect(await stateOf(server, cert.id, cert.sha256)).toMatchObject({ chainMint: prepared.mint_address, minted: 1n, mintTxs: 1 });
  });

  it('an in-flight attempt whose blockhash expired is closed on restart, and a new mint works', { timeout: 120_000 }, async () => {
    const { dir, server, b, cert, user, ctx, signed } = await setup();
    await expect(submitMint(ctx, user, { id: cert.id, signedTransaction: signed }, { beforeSend: crash })).rejects.toThrow('simulated crash');
    await server.services.db.updateTable('mint_attempt').set({ expires_at: Date.now() - 1 }).where('certificate_id', '=', cert.id).execute();
    await server.close();

    const again = await start(dir);
    expect(again.startup.reconciledMints).toMatchObject({ checked: 1, minted: 0, closed: 1 });
    const closed = await stateOf(again, cert.id, cert.sha256);
    expect(closed).toMatchObject({ chainMint: null, minted: 0n });
    expect(closed.attempts.map((a) => a.status)).toEqual(['expired']);

    const c = makeClient(again.url);
    await signIn(c, b.wallet);
    const m = c.client.mint;
    const next = await m.prepare.mutate({ id: cert.id });
    expect((await m.submit.mutate({ id: cert.id, signedTransaction: toB64(walletSign(next.transaction, b.holder)) })).mint_address).toBe(next.mint_address);
    expect((await stateOf(again, cert.id, cert.sha256)).minted).toBe(1n);
  });
});
