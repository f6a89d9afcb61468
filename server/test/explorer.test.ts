// The in-app explorer of the local chain (explorer.address, explorer.transaction): accounts decoded
// with the IDL and Token-2022's layouts, transactions with their instructions and events named; 404
// for what the chain does not know, 400 for what is not an address or a signature, never a 5xx.
import fs from 'node:fs';
import { Keypair } from '@solana/web3.js';
import bs58 from 'bs58';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IssuerStatus } from '../../shared/program/codec';
import { registryPda } from '../../shared/program/pda';
import type { Server } from '../src/app';
import { makeClient, startTestServer, tmpDataDir } from './helpers';
import { addCertificate, holderBrowser, toB64, walletSign, type Browser } from './mint-support/flow';

let server: Server;
let dir: string;
let holder: Browser;
let verified: Awaited<ReturnType<typeof addCertificate>>['cert'];
let mintAddress: string;
let mintSignature: string;
let issuer: Keypair;

beforeAll(async () => {
  dir = tmpDataDir();
  server = await startTestServer(dir);
  issuer = Keypair.generate();
  await server.services.chain.registerIssuer({ authority: issuer, name: 'Explorer Test College', uri: 'https://college.example' }, { kind: 'register_issuer' });
  await server.services.chain.setIssuerStatus({ authority: issuer.publicKey, status: IssuerStatus.Approved }, { kind: 'set_issuer_status' });
  holder = await holderBrowser(server as never);
  verified = (await addCertificate(holder, { title: 'Explorer Certificate' })).cert;
  const prepared = await holder.mint.prepare.mutate({ id: verified.id });
  const minted = await holder.mint.submit.mutate({ id: verified.id, signedTransaction: toB64(walletSign(prepared.transaction, holder.holder)) });
  mintAddress = minted.mint_address;
  mintSignature = minted.transaction_signature!;
}, 120_000);

afterAll(async () => {
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const anon = () => makeClient(server.url).client;
const value = (fields: { name: string; value: string }[], name: string) => fields.find((f) => f.name === name)?.value;

describe('explorer.address', () => {
  it('decodes a certificate record with the IDL and lists its transactions by instruction name', async () => {
    const a = await anon().explorer.address.query({ address: verified.record_address });
    expect(a.account).toMatchObject({ kind: 'certificate', type_name: 'Certificate', owner: server.services.chain.programId.toBase58(), owner_name: 'Attesta Certificates Program' });
    expect(value(a.account!.fields, 'holder')).toBe(holder.wallet.address);
    expect(value(a.account!.fields, 'status')).toBe('Verified'); // the IDL's variant name
    expect(value(a.account!.fields, 'nft_mint')).toBe(mintAddress);
    expect(a.account!.fields.find((f) => f.name === 'anchored_at')?.kind).toBe('time');
    const names = a.transactions.flatMap((t) => t.instructions);
    expect(names).toEqual(expect.arrayContaining(['anchor_certificate', 'record_verification', 'mint_certificate']));
    expect(a.certificate).toMatchObject({ id: verified.id, user_id: verified.user_id, role: 'record' });
    // Its file hash, for the page's link to the public verdict (the raw status and tier are no verdict).
    expect(a.record_sha256).toBe(verified.sha256);
  });

  it('finds a record\'s hash from its own instructions too (a record this server has no row of)', async () => {
    const row = await server.services.db.selectFrom('certificate').select(['id', 'record_address']).where('id', '=', verified.id).executeTakeFirstOrThrow();
    await server.services.db.updateTable('certificate').set({ record_address: Keypair.generate().publicKey.toBase58() }).where('id', '=', row.id).execute();
    try {
      expect((await anon().explorer.address.query({ address: row.record_address })).record_sha256).toBe(verified.sha256);
    } finally {
      await server.services.db.updateTable('certificate').set({ record_address: row.record_address }).where('id', '=', row.id).execute();
    }
    // Any other account has none.
    expect((await anon().explorer.address.query({ address: mintAddress })).record_sha256).toBeNull();
  });

  it('decodes the Token-2022 mint with its extensions and metadata', async () => {
    const a = await anon().explorer.address.query({ address: mintAddress });
    expect(a.account).toMatchObject({ kind: 'mint', type_name: 'Mint' });
    expect(value(a.account!.fields, 'supply')).toBe('1');
    expect(value(a.account!.fields, 'decimals')).toBe('0');
    expect(a.account!.extensions).toEqual(expect.arrayContaining(['NonTransferable', 'MetadataPointer', 'TokenMetadata']));
    expect(a.account!.metadata).toMatchObject({ symbol: 'ATST' });
    expect(a.certificate).toMatchObject({ id: verified.id, role: 'mint' });
  });

  it('decodes the registry and an issuer', async () => {
    const reg = await anon().explorer.address.query({ address: registryPda(server.services.chain.programId)[0].toBase58() });
    expect(reg.account).toMatchObject({ kind: 'registry', type_name: 'Registry' });
    expect(value(reg.account!.fields, 'admin')).toBeTruthy();
    const iss = await anon().explorer.address.query({ address: server.services.chain.issuerAddress(issuer.publicKey).toBase58() });
    expect(iss.account).toMatchObject({ kind: 'issuer' });
    expect(value(iss.account!.fields, 'name')).toBe('Explorer Test College');
    expect(value(iss.account!.fields, 'status')).toBe('Approved');
    expect(iss.transactions.flatMap((t) => t.instructions)).toEqual(expect.arrayContaining(['register_issuer', 'set_issuer_status']));
  });

  it('bounds the list and says when there is more', async () => {
    const a = await anon().explorer.address.query({ address: verified.record_address, limit: 1 });
    expect(a.transactions).toHaveLength(1);
    expect(a.has_more).toBe(true);
  });
});

describe('explorer.transaction', () => {
  it('names the mint transaction\'s instructions, accounts and events', async () => {
    const t = await anon().explorer.transaction.query({ signature: mintSignature });
    expect(t).toMatchObject({ signature: mintSignature, ok: true, chain: 'embedded', kind: expect.stringMatching(/mint/) });
    const ours = t.instructions.find((i) => i.name === 'mint_certificate')!;
    expect(ours.program_name).toBe('Attesta Certificates Program');
    expect(ours.accounts.map((x) => x.name)).toEqual(['certificate', 'registry', 'holder', 'mint', 'holder_token_account', 'token_program']);
    expect(value(ours.args, 'hash')).toBe(verified.sha256);
    expect(t.instructions.some((i) => i.program_name === 'Token-2022 Program' && i.name)).toBe(true);
    expect(t.events.map((e) => e.name)).toContain('CertificateMinted');
    expect(t.signers).toContain(holder.wallet.address);
    expect(t.logs.length).toBeGreaterThan(0);
  });

  it('decodes the anchor transaction with its arguments', async () => {
    const sig = (await server.services.db.selectFrom('chain_transaction').select('signature').where('certificate_id', '=', verified.id).where('kind', '=', 'anchor_certificate').executeTakeFirstOrThrow()).signature;
    const t = await anon().explorer.transaction.query({ signature: sig });
    const ix = t.instructions.find((i) => i.name === 'anchor_certificate')!;
    expect(value(ix.args, 'hash')).toBe(verified.sha256);
    expect(ix.accounts[0]).toMatchObject({ name: 'certificate', address: verified.record_address, writable: true });
    expect(t.events.map((e) => e.name)).toContain('CertificateAnchored');
  });
});

describe('unknown and garbage input', () => {
  async function status(path: string, input: unknown) {
    const url = new URL(`${server.url}/trpc/${path}`);
    url.searchParams.set('input', JSON.stringify(input));
    return (await fetch(url)).status;
  }

  it('is 404 for an address or signature the chain does not know, 400 for anything else, never 5xx', async () => {
    expect(await status('explorer.address', { address: Keypair.generate().publicKey.toBase58() })).toBe(404);
    expect(await status('explorer.transaction', { signature: bs58.encode(Keypair.generate().secretKey) })).toBe(404);
    for (const address of ['', 'x', '0OIl'.repeat(10), 'A'.repeat(45), ' ', '../../etc/passwd', bs58.encode(new Uint8Array(31).fill(9))]) {
      expect([400, 404], address).toContain(await status('explorer.address', { address }));
    }
    for (const signature of ['', 'z'.repeat(89), bs58.encode(new Uint8Array(32).fill(1)), '1'.repeat(64)]) {
      expect([400, 404], signature).toContain(await status('explorer.transaction', { signature }));
    }
    expect(await status('explorer.address', { address: verified.record_address, limit: 51 })).toBe(400);
    expect(await status('explorer.address', { address: verified.record_address, limit: 0 })).toBe(400);
  });
});
