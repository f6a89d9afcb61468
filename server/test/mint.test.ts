import fs from 'node:fs';
import { Keypair, PublicKey, SystemProgram, Transaction } from '@solana/web3.js';
import { createAssociatedTokenAccountIdempotentInstruction, createTransferCheckedInstruction, getAssociatedTokenAddressSync } from '@solana/spl-token';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASSOCIATED_TOKEN_ID, TOKEN_2022_ID } from '../../shared/program/ids';
import { fromHex } from '../../shared/program/codec';
import { ChainError } from '../src/services/chain';
import { revokeCertificateIx } from '../../shared/program/instructions';
import { readCertificateNft } from '../src/services/mint';
import { closeOcr, recognizeText } from '../src/services/ocr';
import type { Server } from '../src/app';
import { makeClient, startTestServer, tmpDataDir } from './helpers';
import { addCertificate, holderBrowser, toB64, walletSign, type Browser } from './mint-support/flow';

const HOLDER_NAME = 'Ada Lovelace';
let server: Server;
let alice: Browser;
const dirs: string[] = [];

beforeAll(async () => {
  const dir = tmpDataDir();
  dirs.push(dir);
  server = await startTestServer(dir);
  alice = await holderBrowser(server, HOLDER_NAME);
}, 60_000);
afterAll(async () => {
  await closeOcr();
  await server?.close();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

const mintedCount = async () => (await server.services.chain.readRegistry())!.mintedCount;
const attempts = (certId: string) => server.services.db.selectFrom('mint_attempt').selectAll().where('certificate_id', '=', certId).orderBy('created_at').execute();

describe('mint through the holder wallet', () => {
  it('mints a verified certificate as a soulbound Token-2022 NFT with a permanent copy', { timeout: 90_000 }, async () => {
    const longTitle = 'Advanced Certificate of Professional Achievement in Marine Robotics';
    const { cert, pdf } = await addCertificate(alice, { title: longTitle });
    const before = await mintedCount();

    const prepared = await alice.mint.prepare.mutate({ id: cert.id });
    expect(Date.parse(prepared.expires_at)).toBeGreaterThan(Date.now());
    const tx = Transaction.from(Buffer.from(prepared.transaction, 'base64'));
    expect(tx.feePayer!.equals(server.services.chain.operator)).toBe(true);
    const sig = (k: PublicKey) => tx.signatures.find((s) => s.publicKey.equals(k))?.signature;
    expect(sig(server.services.chain.operator)).toBeTruthy();
    expect(sig(new PublicKey(prepared.mint_address))).toBeTruthy();
    expect(sig(alice.holder.publicKey)).toBeNull(); // the wallet signs next
    expect(tx.serialize({ requireAllSignatures: false }).length).toBeLessThanOrEqual(1232);

    const signed = walletSign(prepared.transaction, alice.holder);
    const res = await alice.mint.submit.mutate({ id: cert.id, signedTransaction: toB64(signed) });
    expect(res.mint_address).toBe(prepared.mint_address);
    expect(res.transaction_signature).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
    // Permanent links name the server's listen origin (localhost for HOST 127.0.0.1), not the address this client used.
    const permanentBase = `http://localhost:${new URL(server.url).port}`;
    expect(res.arweave_url).toMatch(new RegExp(`^${permanentBase}/permanent/[0-9a-f]{64}$`));
    // The embedded chain: the app's own explorer, on the origin the user opened.
    expect(res.explorer_address_url).toBe(`${server.url}/explorer/address/${res.mint_address}`);
    expect(res.explorer_tx_url).toBe(`${server.url}/explorer/tx/${res.transaction_signature}`);

    // The DB row, the chain record and the registry agree.
    const row = await alice.client.certificate.byId.query({ id: cert.id });
    expect(row).toMatchObject({ nft_mint_address: res.mint_address, arweave_url: res.arweave_url });
    const hash = fromHex(cert.sha256);
    const record = await server.services.chain.readCertificate(hash);
    expect(record!.nftMint!.toBase58()).toBe(res.mint_address);
    expect(await mintedCount()).toBe(before + 1n);
    const chainTx = await server.services.db.selectFrom('chain_transaction').selectAll().where('signature', '=', res.transaction_signature!).executeTakeFirstOrThrow();
    expect(chainTx).toMatchObject({ kind: 'mint_certificate', certificate_id: cert.id, status: 'success' });

    // The NFT: Token-2022, NonTransferable, metadata on the mint naming the hash and the record.
    const nft = await readCertificateNft(server.services.chain, { mint: new PublicKey(res.mint_address), holder: alice.holder.publicKey, hash, record: new PublicKey(cert.record_address) });
    expect(nft.extensions).toEqual(expect.arrayContaining(['NonTransferable', 'MetadataPointer', 'TokenMetadata']));
    expect(nft).toMatchObject({ symbol: 'ATST', sha256: cert.sha256, record: cert.record_address, supply: 1n });
    expect(Array.from(nft.name).length).toBeLessThanOrEqual(32);
    expect(nft.name.endsWith('…')).toBe(true);
    expect(longTitle.startsWith(nft.name.slice(0, -1))).toBe(true);

    // Permanent copies: the PDF byte for byte, and the metadata JSON the NFT's uri points at.
    const pdfRes = await fetch(res.arweave_url!);
    expect(pdfRes.status).toBe(200);
    expect(pdfRes.headers.get('content-type')).toBe('application/pdf');
    expect(pdfRes.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(Buffer.from(await pdfRes.arrayBuffer()).equals(Buffer.from(pdf))).toBe(true);
    const metaRes = await fetch(nft.uri);
    expect(metaRes.headers.get('content-type')).toMatch(/^application\/json/);
    const meta = await metaRes.json();
    const verifyUrl = `${permanentBase}/view/${cert.user_id}/${cert.id}`;
    expect(row.verification_url).toBe(`${server.url}/view/${cert.user_id}/${cert.id}`); // the share link: the address the user is on
    expect(nft.uri).toMatch(new RegExp(`^${permanentBase}/permanent/[0-9a-f]{64}$`));
    expect(meta).toMatchObject({ name: longTitle, symbol: 'ATST', external_url: verifyUrl, properties: { category: 'image' } });
    expect(meta.description).toEqual(expect.stringContaining('Checked by Attesta only (the file\'s text names its title, program, institution and holder; the issue date is the holder\'s own entry), not confirmed by Harbor Institute.'));
    expect(meta.description).not.toMatch(/Confirmed by|own key/);
    const attr = Object.fromEntries(meta.attributes.map((a: { trait_type: string; value: string }) => [a.trait_type, a.value]));
    expect(attr).toMatchObject({
      Institution: 'Harbor Institute',
      Program: 'Marine Robotics',
      'Issue Date': '2025-03-03',
      'SHA-256': cert.sha256,
      'Record Address': cert.record_address,
      'Verification URL': verifyUrl,
      'Trust Tier': 'Checked by Attesta only',
    });
    // No institution signed it: no signer, domain or proof named.
    for (const signer of ['Signed By', 'Issuer Domain', 'Domain Proven']) expect(attr[signer]).toBeUndefined();

    // The picture wallets show: a PNG badge in the permanent store, listed first among the files.
    expect(meta.image).toMatch(new RegExp(`^${permanentBase}/permanent/[0-9a-f]{64}$`));
    expect(meta.properties.files).toEqual([
      { uri: meta.image, type: 'image/png' },
      { uri: res.arweave_url, type: 'application/pdf' },
    ]);
    const imageRes = await fetch(meta.image);
    expect(imageRes.status).toBe(200);
    expect(imageRes.headers.get('content-type')).toBe('image/png');
    expect(imageRes.headers.get('access-control-allow-origin')).toBe('*');
    const image = new Uint8Array(await imageRes.arrayBuffer());
    expect(await sharp(image).metadata()).toMatchObject({ format: 'png', width: 1000, height: 1000 });
    // Nothing about the holder in the JSON or the picture: no name, no wallet (the title is the certificate's own claim).
    const metaText = JSON.stringify(meta);
    for (const personal of [HOLDER_NAME, alice.holder.publicKey.toBase58()]) expect(metaText).not.toContain(personal);
    const { text } = await recognizeText(image, { timeoutMs: 60_000 });
    expect(text).toMatch(/Harbor Institute/);
    expect(text).toMatch(/Checked by Attesta only/);
    expect(text).not.toMatch(/Ada|Lovelace|Marine|Advanced Certificate/i);
    expect(text).not.toContain(alice.holder.publicKey.toBase58().slice(0, 8));

    // Soulbound: the holder's own transfer is refused by Token-2022.
    const other = Keypair.generate().publicKey;
    const mint = new PublicKey(res.mint_address);
    const from = getAssociatedTokenAddressSync(mint, alice.holder.publicKey, false, TOKEN_2022_ID, ASSOCIATED_TOKEN_ID);
    const to = getAssociatedTokenAddressSync(mint, other, false, TOKEN_2022_ID, ASSOCIATED_TOKEN_ID);
    const transfer = new Transaction().add(
      createAssociatedTokenAccountIdempotentInstruction(server.services.chain.operator, to, other, mint, TOKEN_2022_ID, ASSOCIATED_TOKEN_ID),
      createTransferCheckedInstruction(from, mint, to, alice.holder.publicKey, 1, 0, [], TOKEN_2022_ID),
    );
    const err = await server.services.chain.sendTransaction(transfer, [alice.holder], { kind: 'test_transfer' }).then(
      () => null,
      (e) => e,
    );
    expect(err).toBeInstanceOf(ChainError);
    expect((err as ChainError).logs.join('\n')).toMatch(/Transfer is disabled for this mint/);
    expect((await readCertificateNft(server.services.chain, { mint, holder: alice.holder.publicKey, hash, record: new PublicKey(cert.record_address) })).supply).toBe(1n);

    // Minted once: a second prepare is refused, a repeated submit returns the same mint.
    await expect(alice.mint.prepare.mutate({ id: cert.id })).rejects.toThrow('This certificate is already minted.');
    const again = await alice.mint.submit.mutate({ id: cert.id, signedTransaction: toB64(signed) });
    expect(again.mint_address).toBe(res.mint_address);
    expect(await mintedCount()).toBe(before + 1n);
    expect((await attempts(cert.id)).map((a) => a.status)).toEqual(['minted']);
    expect((await alice.mint.links.query({ id: cert.id })).explorer_address_url).toBe(res.explorer_address_url);
  });

  it('refuses rejected, pending, foreign and unknown certificates with a clear reason', { timeout: 90_000 }, async () => {
    const { cert: rejected } = await addCertificate(alice, { matching: false });
    await expect(alice.mint.prepare.mutate({ id: rejected.id })).rejects.toThrow('Only verified certificates can be minted.');

    const bob = await holderBrowser(server);
    const { cert: bobs } = await addCertificate(bob);
    const foreign = await alice.mint.prepare.mutate({ id: bobs.id }).catch((e) => e);
    expect(foreign.data?.code).toBe('NOT_FOUND');
    await expect(alice.mint.prepare.mutate({ id: 'no-such-id' })).rejects.toThrow('Certificate not found');

    // Someone else cannot submit the holder's signed transaction for them; the holder still can.
    const prepared = await bob.mint.prepare.mutate({ id: bobs.id });
    const signedByBob = toB64(walletSign(prepared.transaction, bob.holder));
    const byAlice = await alice.mint.submit.mutate({ id: bobs.id, signedTransaction: signedByBob }).catch((e) => e);
    expect(byAlice.data?.code).toBe('NOT_FOUND');
    expect((await bob.mint.submit.mutate({ id: bobs.id, signedTransaction: signedByBob })).mint_address).toBe(prepared.mint_address);

    // Not signed in.
    const anon = makeClient(server.url).client.mint;
    await expect(anon.prepare.mutate({ id: bobs.id })).rejects.toMatchObject({ data: { code: 'UNAUTHORIZED' } });
  });

  it('refuses a pending certificate', { timeout: 60_000 }, async () => {
    // A second server over its own data dir with the worker off keeps the certificate pending.
    const dir = tmpDataDir();
    dirs.push(dir);
    const s2 = await startTestServer(dir, { ATTESTA_WORKER: 'false' });
    try {
      const b = await holderBrowser(s2);
      const { cert } = await addCertificate(b, { wait: false });
      expect((await b.client.certificate.byId.query({ id: cert.id })).verification_status).toBe('pending');
      await expect(b.mint.prepare.mutate({ id: cert.id })).rejects.toThrow('Only verified certificates can be minted.');
    } finally {
      await s2.close();
    }
  });

  it('refuses tampered transactions and then mints the genuine one once', { timeout: 90_000 }, async () => {
    const { cert } = await addCertificate(alice);
    const before = await mintedCount();
    const prepared = await alice.mint.prepare.mutate({ id: cert.id });
    const operator = server.services.chain.operator;
    const submit = (tx: Transaction | string) => alice.mint.submit.mutate({ id: cert.id, signedTransaction: typeof tx === 'string' ? tx : toB64(tx) });
    const fresh = () => Transaction.from(Buffer.from(prepared.transaction, 'base64'));
    const mismatch = 'The signed transaction does not match the prepared mint. Please try again.';

    // A changed instruction (the on-chain name), signed by the holder.
    const changed = fresh();
    const initMetadata = changed.instructions[4];
    initMetadata.data = Buffer.from(initMetadata.data.toString('latin1').replace('Certificate', 'Certifikate'), 'latin1');
    changed.partialSign(alice.holder);
    await expect(submit(changed)).rejects.toThrow(mismatch);

    // An extra instruction draining the fee payer.
    const extra = fresh();
    extra.add(SystemProgram.transfer({ fromPubkey: operator, toPubkey: alice.holder.publicKey, lamports: 5_000_000_000 }));
    extra.partialSign(alice.holder);
    await expect(submit(extra)).rejects.toThrow(mismatch);

    // A different fee payer.
    const payer = fresh();
    payer.feePayer = alice.holder.publicKey;
    payer.partialSign(alice.holder);
    await expect(submit(payer)).rejects.toThrow(mismatch);

    // Unsigned by the holder; a forged holder signature; a broken operator signature.
    await expect(submit(prepared.transaction)).rejects.toThrow('The transaction is not signed by your wallet.');
    const forged = fresh();
    forged.addSignature(alice.holder.publicKey, Buffer.from(Keypair.generate().secretKey.subarray(0, 64)));
    await expect(submit(forged)).rejects.toThrow('The transaction is not signed by your wallet.');
    const badOperator = walletSign(prepared.transaction, alice.holder);
    const opSig = Buffer.from(badOperator.signatures[0].signature!);
    opSig[0] ^= 1;
    badOperator.addSignature(operator, opSig);
    await expect(submit(badOperator)).rejects.toThrow('The transaction signatures are not valid.');
    await expect(submit('not base64 !!')).rejects.toThrow('The signed transaction could not be read.');

    expect(await mintedCount()).toBe(before); // nothing reached the chain
    expect((await attempts(cert.id)).map((a) => a.status)).toEqual(['prepared']);

    const ok = await submit(walletSign(prepared.transaction, alice.holder));
    expect(ok.mint_address).toBe(prepared.mint_address);
    expect(await mintedCount()).toBe(before + 1n);
  });

  it('two concurrent mints of one certificate give one NFT', { timeout: 90_000 }, async () => {
    const { cert } = await addCertificate(alice);
    const before = await mintedCount();
    const [p1, p2] = await Promise.all([alice.mint.prepare.mutate({ id: cert.id }), alice.mint.prepare.mutate({ id: cert.id })]);
    expect(p1.mint_address).not.toBe(p2.mint_address);
    const s1 = toB64(walletSign(p1.transaction, alice.holder));
    const s2 = toB64(walletSign(p2.transaction, alice.holder));
    // Two different prepared transactions and the same one twice, all at once.
    const results = await Promise.allSettled([
      alice.mint.submit.mutate({ id: cert.id, signedTransaction: s1 }),
      alice.mint.submit.mutate({ id: cert.id, signedTransaction: s2 }),
      alice.mint.submit.mutate({ id: cert.id, signedTransaction: s1 }),
    ]);
    const ok = results.filter((r) => r.status === 'fulfilled').map((r) => (r as PromiseFulfilledResult<{ mint_address: string }>).value.mint_address);
    expect(ok.length).toBeGreaterThan(0);
    for (const r of results) if (r.status === 'rejected') expect(String(r.reason)).toMatch(/already (being )?minted/);
    expect(new Set(ok).size).toBe(1);
    const winner = ok[0];
    const loser = winner === p1.mint_address ? p2.mint_address : p1.mint_address;
    expect(await mintedCount()).toBe(before + 1n);
    expect((await server.services.chain.readCertificate(fromHex(cert.sha256)))!.nftMint!.toBase58()).toBe(winner);
    expect(await server.services.chain.getAccountInfo(new PublicKey(loser))).toBeNull(); // no second mint exists
    expect((await alice.client.certificate.byId.query({ id: cert.id })).nft_mint_address).toBe(winner);
    const st = Object.fromEntries((await attempts(cert.id)).map((a) => [a.mint_address, a.status]));
    expect(st).toEqual({ [winner]: 'minted', [loser]: 'superseded' });
    // The DB guard itself: a second recorded (or in-flight) attempt for the certificate is impossible.
    const setLoser = (status: 'minted' | 'submitted') => server.services.db.updateTable('mint_attempt').set({ status }).where('mint_address', '=', loser).execute();
    await expect(setLoser('minted')).rejects.toThrow(/UNIQUE constraint failed|duplicate key value violates unique constraint/);
    await server.services.db.updateTable('mint_attempt').set({ status: 'submitted' }).where('mint_address', '=', winner).execute();
    await expect(setLoser('submitted')).rejects.toThrow(/UNIQUE constraint failed|duplicate key value violates unique constraint/);
    await server.services.db.updateTable('mint_attempt').set({ status: 'minted' }).where('mint_address', '=', winner).execute();
    // The loser's transaction, sent later, is answered with the winner's mint.
    expect((await alice.mint.submit.mutate({ id: cert.id, signedTransaction: winner === p1.mint_address ? s2 : s1 })).mint_address).toBe(winner);
  });

  it('a mint the chain refuses (revoked after prepare) fails cleanly and mints nothing', { timeout: 60_000 }, async () => {
    const { cert } = await addCertificate(alice);
    const before = await mintedCount();
    const prepared = await alice.mint.prepare.mutate({ id: cert.id });
    const chain = server.services.chain;
    await chain.sendTransaction(new Transaction().add(revokeCertificateIx(chain.programId, { hash: fromHex(cert.sha256), authority: chain.operator, reasonCode: 11 })), [], { kind: 'test_revoke' });
    const err = await alice.mint.submit.mutate({ id: cert.id, signedTransaction: toB64(walletSign(prepared.transaction, alice.holder)) }).catch((e) => e);
    expect(err.data?.code).toBe('BAD_REQUEST');
    expect(err.message).toBe('Only verified certificates can be minted.'); // the program's NotVerified
    expect(await mintedCount()).toBe(before);
    expect(await chain.getAccountInfo(new PublicKey(prepared.mint_address))).toBeNull(); // the whole transaction rolled back
    const [a] = await attempts(cert.id);
    expect(a).toMatchObject({ status: 'failed' });
    expect(a.error).toMatch(/Only verified certificates can be minted/);
    expect((await alice.client.certificate.byId.query({ id: cert.id })).nft_mint_address).toBeNull();
    await expect(alice.mint.prepare.mutate({ id: cert.id })).rejects.toThrow('This certificate has been revoked and cannot be minted.');
  });

  it('refuses an expired mint request', { timeout: 60_000 }, async () => {
    const { cert } = await addCertificate(alice);
    const prepared = await alice.mint.prepare.mutate({ id: cert.id });
    await server.services.db.updateTable('mint_attempt').set({ expires_at: Date.now() - 1 }).where('mint_address', '=', prepared.mint_address).execute();
    await expect(alice.mint.submit.mutate({ id: cert.id, signedTransaction: toB64(walletSign(prepared.transaction, alice.holder)) })).rejects.toThrow(
      'This mint request has expired. Please try again.',
    );
    // A new request works.
    const next = await alice.mint.prepare.mutate({ id: cert.id });
    expect((await alice.mint.submit.mutate({ id: cert.id, signedTransaction: toB64(walletSign(next.transaction, alice.holder)) })).mint_address).toBe(next.mint_address);
  });
});
