import { Keypair, PublicKey, SystemProgram, Transaction } from '@solana/web3.js';
import {
  ExtensionType,
  TOKEN_PROGRAM_ID,
  createAssociatedTokenAccountIdempotentInstruction,
  createInitializeMetadataPointerInstruction,
  createInitializeMintInstruction,
  createMintToInstruction,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
  getExtensionData,
  getExtensionTypes,
  getMetadataPointerState,
  getMintLen,
  unpackAccount,
  unpackMint,
} from '@solana/spl-token';
import { unpack as unpackTokenMetadata } from '@solana/spl-token-metadata';
import { beforeEach, describe, expect, it } from 'vitest';
import { CertificateStatus, toHex } from '../../shared/program/codec';
import { CERTIFICATE_SYMBOL, TOKEN_2022_ID } from '../../shared/program/ids';
import { defaultRentExemptLamports, fitsInOneTransaction, soulboundMintTransactionSize } from '../../shared/program/mint';
import { ReasonCode } from '../../shared/program/reasons';
import { Attesta, withAccount, withoutSignature } from './support/attesta';
import { expectError, expectOk, expectProgramFailure } from './support/expect';
import { aMintTx, givenAnchored, givenIssuer, givenMinted, givenRegistry, givenVerified, type GivenCertificate, type MintTx } from './support/given';
import { b58, plain } from './support/plain';
import { RUNTIMES } from './support/runtimes';

// Token-2022's NonTransferable error (TokenError::NonTransferable = 37).
const TRANSFER_DISABLED = 0x25;

describe.each(RUNTIMES)('mint_certificate [$name]', ({ start }) => {
  let t: Attesta;
  beforeEach(async () => {
    t = await givenRegistry(await start());
  });
  const sendMint = (tx: MintTx) => t.rt.send(tx.instructions, tx.signers);
  /** Our instruction must be the one that fails, not a token step before it. */
  const expectMintError = (res: Awaited<ReturnType<typeof sendMint>>, tx: MintTx, name: string) => {
    expectError(res, name);
    expect(res.instructionIndex).toBe(tx.programIndex);
  };

  describe('a verified certificate minted with shared/program\'s builder', () => {
    let c: GivenCertificate;
    let tx: MintTx;
    let res: Awaited<ReturnType<typeof sendMint>>;
    beforeEach(async () => {
      c = await givenVerified(t);
      tx = aMintTx(t, c, { title: 'BSc Computer Science', uri: 'https://attesta.example/c/1' });
      res = await sendMint(tx);
    });

    it('records the mint on the certificate, counts it and emits CertificateMinted', async () => {
      expectOk(res);
      const s = await t.certificateState(c.hash);
      expect({ nftMint: b58(s.nftMint), status: s.status }).toEqual({ nftMint: tx.mint.publicKey.toBase58(), status: CertificateStatus.Verified });
      expect((await t.registryState()).mintedCount).toBe(1n);
      expect(plain(t.events(res))).toEqual([
        {
          name: 'certificateMinted',
          data: { certificate: c.certificate.toBase58(), hash: Array.from(c.hash), mint: tx.mint.publicKey.toBase58(), holder: c.holder.publicKey.toBase58() },
        },
      ]);
    });

    it('is a Token-2022 mint: supply 1, decimals 0, no mint or freeze authority, NonTransferable + MetadataPointer(self) + TokenMetadata', async () => {
      expectOk(res);
      const info = (await t.rt.getAccount(tx.mint.publicKey))!;
      expect(info.owner.equals(TOKEN_2022_ID)).toBe(true);
      const mint = unpackMint(tx.mint.publicKey, info, TOKEN_2022_ID);
      expect({ supply: mint.supply, decimals: mint.decimals, mintAuthority: mint.mintAuthority, freezeAuthority: mint.freezeAuthority }).toEqual({
        supply: 1n,
        decimals: 0,
        mintAuthority: null,
        freezeAuthority: null,
      });
      expect(getExtensionTypes(mint.tlvData).sort()).toEqual(
        [ExtensionType.NonTransferable, ExtensionType.MetadataPointer, ExtensionType.TokenMetadata].sort(),
      );
      const pointer = getMetadataPointerState(mint)!;
      expect({ authority: pointer.authority, metadataAddress: b58(pointer.metadataAddress) }).toEqual({ authority: null, metadataAddress: tx.mint.publicKey.toBase58() });
      const metadata = unpackTokenMetadata(getExtensionData(ExtensionType.TokenMetadata, mint.tlvData)!);
      expect(plain(metadata)).toEqual({
        updateAuthority: undefined,
        mint: tx.mint.publicKey.toBase58(),
        name: 'BSc Computer Science',
        symbol: CERTIFICATE_SYMBOL,
        uri: 'https://attesta.example/c/1',
        additionalMetadata: [
          ['sha256', toHex(c.hash)],
          ['record', c.certificate.toBase58()],
        ],
      });
      // Rent-exempt for its final size (metadata TLV included).
      expect(BigInt(info.lamports) >= (await t.rt.minimumBalanceForRentExemption(info.data.length))).toBe(true);
    });

    it('gives the holder\'s associated token account exactly 1, non-transferable', async () => {
      expectOk(res);
      const account = unpackAccount(tx.holderTokenAccount, (await t.rt.getAccount(tx.holderTokenAccount))!, TOKEN_2022_ID);
      expect({ amount: account.amount, owner: b58(account.owner), mint: b58(account.mint) }).toEqual({
        amount: 1n,
        owner: c.holder.publicKey.toBase58(),
        mint: tx.mint.publicKey.toBase58(),
      });
      expect(getExtensionTypes(account.tlvData)).toContain(ExtensionType.NonTransferableAccount);
    });

    it('cannot be transferred: Token-2022 refuses with "Transfer is disabled for this mint"', async () => {
      expectOk(res);
      const friend = Keypair.generate().publicKey;
      const friendAta = getAssociatedTokenAddressSync(tx.mint.publicKey, friend, false, TOKEN_2022_ID);
      const transfer = await t.rt.send(
        [
          createAssociatedTokenAccountIdempotentInstruction(t.rt.payer.publicKey, friendAta, friend, tx.mint.publicKey, TOKEN_2022_ID),
          createTransferCheckedInstruction(tx.holderTokenAccount, tx.mint.publicKey, friendAta, c.holder.publicKey, 1, 0, [], TOKEN_2022_ID),
        ],
        [c.holder],
      );
      expectProgramFailure(transfer, TRANSFER_DISABLED, 'Transfer is disabled for this mint');
      const still = unpackAccount(tx.holderTokenAccount, (await t.rt.getAccount(tx.holderTokenAccount))!, TOKEN_2022_ID);
      expect(still.amount).toBe(1n);
    });

    it('refuses a second mint transaction: AlreadyMinted', async () => {
      expectOk(res);
      const again = aMintTx(t, c);
      expectMintError(await sendMint(again), again, 'AlreadyMinted');
      expect(b58((await t.certificateState(c.hash)).nftMint)).toBe(tx.mint.publicKey.toBase58());
      expect((await t.registryState()).mintedCount).toBe(1n);
    });
  });

  it('refuses a pending certificate: NotVerified', async () => {
    const c = await givenAnchored(t);
    const tx = aMintTx(t, c);
    expectMintError(await sendMint(tx), tx, 'NotVerified');
    expect(await t.exists(tx.mint.publicKey)).toBe(false); // the whole transaction rolled back
  });

  it('refuses a rejected certificate: NotVerified', async () => {
    const c = await givenAnchored(t);
    expectOk(await t.send(await t.recordVerificationIx({ hash: c.hash, verifier: t.verifier.publicKey, verified: false, reasonCode: ReasonCode.HashMismatch }), [t.verifier]));
    const tx = aMintTx(t, c);
    expectMintError(await sendMint(tx), tx, 'NotVerified');
  });

  it('refuses a revoked certificate: NotVerified', async () => {
    const c = await givenVerified(t);
    expectOk(await t.send(await t.revokeCertificateIx({ hash: c.hash, authority: t.admin.publicKey, reasonCode: ReasonCode.RevokedFraud }), [t.admin]));
    const tx = aMintTx(t, c);
    expectMintError(await sendMint(tx), tx, 'NotVerified');
  });

  it('refuses an expired certificate: CertificateExpired', async () => {
    const now = await t.rt.now();
    const c = await givenVerified(t, { expiresAt: now + 10n });
    await t.rt.setUnixTimestamp(now + 11n);
    const tx = aMintTx(t, c);
    expectMintError(await sendMint(tx), tx, 'CertificateExpired');
  });

  it('refuses someone other than the holder: NotHolder', async () => {
    const c = await givenVerified(t);
    const tx = aMintTx(t, c, { holder: Keypair.generate() });
    expectMintError(await sendMint(tx), tx, 'NotHolder');
  });

  it('refuses a holder who did not sign: MissingSignature', async () => {
    const c = await givenVerified(t);
    const tx = aMintTx(t, c);
    tx.instructions[tx.programIndex] = withoutSignature(tx.instructions[tx.programIndex], c.holder.publicKey);
    tx.signers = [tx.mint];
    expectMintError(await sendMint(tx), tx, 'MissingSignature');
  });

  it('refuses a mint that still has a mint authority: MintAuthorityNotRevoked', async () => {
    const c = await givenVerified(t);
    const tx = aMintTx(t, c, { omit: ['dropMintAuthority'] });
    expectMintError(await sendMint(tx), tx, 'MintAuthorityNotRevoked');
  });

  it('refuses a mint with a freeze authority: MintAuthorityNotRevoked', async () => {
    const c = await givenVerified(t);
    const mint = Keypair.generate();
    const tx = aMintTx(t, c, { mint, replace: { initMint: createInitializeMintInstruction(mint.publicKey, 0, t.rt.payer.publicKey, t.rt.payer.publicKey, TOKEN_2022_ID) } });
    expectMintError(await sendMint(tx), tx, 'MintAuthorityNotRevoked');
  });

  it('refuses a supply of 2: InvalidSupply', async () => {
    const c = await givenVerified(t);
    const mint = Keypair.generate();
    const ata = getAssociatedTokenAddressSync(mint.publicKey, c.holder.publicKey, false, TOKEN_2022_ID);
    const tx = aMintTx(t, c, { mint, replace: { mintOne: createMintToInstruction(mint.publicKey, ata, t.rt.payer.publicKey, 2, [], TOKEN_2022_ID) } });
    expectMintError(await sendMint(tx), tx, 'InvalidSupply');
  });

  it('refuses a mint with decimals: InvalidSupply', async () => {
    const c = await givenVerified(t);
    const mint = Keypair.generate();
    const tx = aMintTx(t, c, { mint, replace: { initMint: createInitializeMintInstruction(mint.publicKey, 2, t.rt.payer.publicKey, null, TOKEN_2022_ID) } });
    expectMintError(await sendMint(tx), tx, 'InvalidSupply');
  });

  it('refuses a transferable mint (no NonTransferable extension): MintNotNonTransferable', async () => {
    const c = await givenVerified(t);
    const mint = Keypair.generate();
    const createMintAccount = SystemProgram.createAccount({
      fromPubkey: t.rt.payer.publicKey,
      newAccountPubkey: mint.publicKey,
      space: getMintLen([ExtensionType.MetadataPointer]),
      lamports: defaultRentExemptLamports(1_000),
      programId: TOKEN_2022_ID,
    });
    const tx = aMintTx(t, c, { mint, replace: { createMintAccount }, omit: ['initNonTransferable'] });
    expectMintError(await sendMint(tx), tx, 'MintNotNonTransferable');
  });

  it('refuses metadata naming another certificate: MetadataMismatch', async () => {
    const c = await givenVerified(t);
    const other = await givenVerified(t);
    const tx = aMintTx(t, c, { metadataHash: other.hash });
    expectMintError(await sendMint(tx), tx, 'MetadataMismatch');
  });

  it('refuses metadata without the `record` field: MetadataMismatch', async () => {
    const c = await givenVerified(t);
    const tx = aMintTx(t, c, { omit: ['setFieldRecord'] });
    expectMintError(await sendMint(tx), tx, 'MetadataMismatch');
  });

  it('refuses metadata that can still be updated: MetadataMismatch', async () => {
    const c = await givenVerified(t);
    const tx = aMintTx(t, c, { omit: ['dropUpdateAuthority'] });
    expectMintError(await sendMint(tx), tx, 'MetadataMismatch');
  });

  it('refuses a metadata pointer that has an authority: MetadataMismatch', async () => {
    const c = await givenVerified(t);
    const mint = Keypair.generate();
    const initMetadataPointer = createInitializeMetadataPointerInstruction(mint.publicKey, t.rt.payer.publicKey, mint.publicKey, TOKEN_2022_ID);
    const tx = aMintTx(t, c, { mint, replace: { initMetadataPointer } });
    expectMintError(await sendMint(tx), tx, 'MetadataMismatch');
  });

  it('refuses a token account that is not the holder\'s: InvalidTokenAccount', async () => {
    const c = await givenVerified(t);
    const mint = Keypair.generate();
    const stranger = Keypair.generate().publicKey;
    const strangerAta = getAssociatedTokenAddressSync(mint.publicKey, stranger, false, TOKEN_2022_ID);
    // Short title and link: this transaction carries one more instruction than the real one.
    const built = aMintTx(t, c, { mint, title: 'T', uri: 'u' });
    const ours = withAccount(built.instructions[built.programIndex], 4, strangerAta);
    const tx = aMintTx(t, c, {
      mint,
      title: 'T',
      uri: 'u',
      replace: { mintCertificate: [createAssociatedTokenAccountIdempotentInstruction(t.rt.payer.publicKey, strangerAta, stranger, mint.publicKey, TOKEN_2022_ID), ours] },
    });
    expectMintError(await sendMint(tx), tx, 'InvalidTokenAccount');
  });

  it.each([
    ['a system account', 'system'],
    ['a Token-2022 token account', 'tokenAccount'],
  ] as const)('refuses %s as the mint: InvalidMint', async (_, kind) => {
    const c = await givenVerified(t);
    const tx = aMintTx(t, c);
    const fake = kind === 'system' ? (await t.funded(1)).publicKey : tx.holderTokenAccount;
    tx.instructions[tx.programIndex] = withAccount(tx.instructions[tx.programIndex], 3, fake);
    expectMintError(await sendMint(tx), tx, 'InvalidMint');
  });

  it('refuses the certificate passed again as the mint (a duplicated program account): InvalidPda', async () => {
    const c = await givenVerified(t);
    const tx = aMintTx(t, c);
    tx.instructions[tx.programIndex] = withAccount(tx.instructions[tx.programIndex], 3, c.certificate);
    expectMintError(await sendMint(tx), tx, 'InvalidPda');
  });

  it('refuses the legacy token program: InvalidProgramId', async () => {
    const c = await givenVerified(t);
    const tx = aMintTx(t, c);
    tx.instructions[tx.programIndex] = withAccount(tx.instructions[tx.programIndex], 5, TOKEN_PROGRAM_ID);
    expectMintError(await sendMint(tx), tx, 'InvalidProgramId');
  });

  it('refuses the certificate account of another hash: InvalidPda', async () => {
    const c = await givenVerified(t);
    const other = await givenVerified(t);
    const tx = aMintTx(t, c);
    tx.instructions[tx.programIndex] = withAccount(tx.instructions[tx.programIndex], 0, other.certificate);
    expectMintError(await sendMint(tx), tx, 'InvalidPda');
  });

  it('a minted certificate stays minted when revoked (the record keeps its mint)', async () => {
    const m = await givenMinted(t);
    expectOk(await t.send(await t.revokeCertificateIx({ hash: m.hash, authority: t.verifier.publicKey, reasonCode: ReasonCode.RevokedSuperseded }), [t.verifier]));
    const s = await t.certificateState(m.hash);
    expect({ status: s.status, nftMint: b58(s.nftMint) }).toEqual({ status: CertificateStatus.Revoked, nftMint: m.mint.publicKey.toBase58() });
  });

  it('a record minted by one wallet and then superseded by an issuer: mint cleared, only the new holder can mint', async () => {
    const m = await givenMinted(t);
    const issuer = await givenIssuer(t);
    const rightful = Keypair.generate();
    expectOk(await t.send(await t.issueCertificateIx({ hash: m.hash, holder: rightful.publicKey, authority: issuer.authority.publicKey }), [issuer.authority]));
    const s = await t.certificateState(m.hash);
    expect({ holder: b58(s.holder), nftMint: b58(s.nftMint) }).toEqual({ holder: rightful.publicKey.toBase58(), nftMint: null });
    // The earlier claimant can no longer mint…
    const again = aMintTx(t, m);
    expectMintError(await sendMint(again), again, 'NotHolder');
    // …the rightful holder can, and the record names the new mint.
    const tx = aMintTx(t, { ...m, holder: rightful });
    const res = await sendMint(tx);
    expectOk(res);
    expect(b58((await t.certificateState(m.hash)).nftMint)).toBe(tx.mint.publicKey.toBase58());
    expect((await t.registryState()).mintedCount).toBe(2n);
    expect((plain(t.events(res)) as unknown[])[0]).toMatchObject({ name: 'certificateMinted', data: { holder: rightful.publicKey.toBase58(), mint: tx.mint.publicKey.toBase58() } });
  });

  it('the builder predicts the serialized size; a realistic title and link fit in one packet', async () => {
    const c = await givenVerified(t);
    const title = 'Master of Science in Data Engineering';
    const uri = `https://attesta.app/v/${c.certificate.toBase58()}`;
    const tx = aMintTx(t, c, { title, uri });
    const params = { payer: t.rt.payer.publicKey, holder: c.holder.publicKey, mint: tx.mint.publicKey, hash: c.hash, title, uri, programId: t.programId };
    const real = new Transaction({ feePayer: t.rt.payer.publicKey, recentBlockhash: PublicKey.default.toBase58() }).add(...tx.instructions);
    real.sign(t.rt.payer, ...tx.signers);
    expect(soulboundMintTransactionSize(params)).toBe(real.serialize().length);
    expect(fitsInOneTransaction(params)).toBe(true);
    expectOk(await sendMint(tx));
    // A long title no longer fits: the caller must shorten it before building.
    expect(fitsInOneTransaction({ ...params, title: title.repeat(4) })).toBe(false);
  });
});

