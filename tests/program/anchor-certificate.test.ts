import { Keypair, SystemProgram, TransactionInstruction } from '@solana/web3.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { CertificateStatus, TrustTier } from '../../shared/program/codec';
import { certificatePda } from '../../shared/program/pda';
import { TOKEN_2022_ID } from '../../shared/program/ids';
import { Attesta, aHash, withReadonly, withoutSignature } from './support/attesta';
import { expectError, expectOk } from './support/expect';
import { givenAnchored, givenRegistry } from './support/given';
import { b58, plain } from './support/plain';
import { RUNTIMES } from './support/runtimes';

describe.each(RUNTIMES)('anchor_certificate [$name]', ({ start }) => {
  let t: Attesta;
  let holder: Keypair;
  let hash: Uint8Array;
  beforeEach(async () => {
    t = await givenRegistry(await start());
    holder = Keypair.generate();
    hash = aHash();
  });
  const anchorIx = (over: Partial<Parameters<Attesta['anchorCertificateIx']>[0]> = {}) =>
    t.anchorCertificateIx({ hash, holder: holder.publicKey, verifier: t.verifier.publicKey, ...over });

  it('anchors a pending record for the holder at ["certificate", sha256]', async () => {
    const now = await t.rt.now();
    const expiresAt = now + 365n * 86_400n;
    // When
    const res = await t.send(await anchorIx({ expiresAt }), [t.verifier]);
    // Then
    expectOk(res);
    const c = await t.certificateState(hash);
    expect({ ...c, holder: b58(c.holder), issuer: b58(c.issuer), nftMint: b58(c.nftMint) }).toMatchObject({
      holder: holder.publicKey.toBase58(),
      issuer: null,
      nftMint: null,
      anchoredAt: now,
      verifiedAt: 0n,
      revokedAt: 0n,
      expiresAt,
      status: CertificateStatus.Pending,
      tier: TrustTier.None,
      reasonCode: 0,
      bump: certificatePda(hash, t.programId)[1],
    });
    expect((await t.registryState()).certificateCount).toBe(1n);
    expect(plain(t.events(res))).toEqual([
      {
        name: 'certificateAnchored',
        data: {
          certificate: t.certificatePda(hash).toBase58(),
          hash: Array.from(hash),
          holder: holder.publicKey.toBase58(),
          issuer: SystemProgram.programId.toBase58(), // zero key = no issuer
          expiresAt,
        },
      },
    ]);
  });

  it('lets the admin (verifier 0) anchor, with a separate payer', async () => {
    const payer = await t.funded();
    const res = await t.send(await anchorIx({ verifier: t.admin.publicKey, payer: payer.publicKey }), [t.admin, payer]);
    expectOk(res);
    expect(b58((await t.certificateState(hash)).holder)).toBe(holder.publicKey.toBase58());
  });

  it('refuses a second holder claiming the same hash: HashAlreadyAnchored', async () => {
    // Given the hash anchored for the first holder
    expectOk(await t.send(await anchorIx(), [t.verifier]));
    // When another holder claims it
    const res = await t.send(await anchorIx({ holder: Keypair.generate().publicKey }), [t.verifier]);
    // Then
    expectError(res, 'HashAlreadyAnchored');
    expect(b58((await t.certificateState(hash)).holder)).toBe(holder.publicKey.toBase58());
    expect((await t.registryState()).certificateCount).toBe(1n);
  });

  it('refuses a signer that is not a platform verifier: NotAVerifier', async () => {
    const stranger = Keypair.generate();
    expectError(await t.send(await anchorIx({ verifier: stranger.publicKey }), [stranger]), 'NotAVerifier');
    expect(await t.exists(t.certificatePda(hash))).toBe(false);
  });

  it('refuses a verifier key that did not sign: MissingSignature', async () => {
    const ix = withoutSignature(await anchorIx(), t.verifier.publicKey);
    expectError(await t.send(ix, []), 'MissingSignature');
  });

  it('refuses the certificate PDA of another hash: InvalidPda', async () => {
    const res = await t.send(await anchorIx({ certificate: t.certificatePda(aHash()) }), [t.verifier]);
    expectError(res, 'InvalidPda');
  });

  it('refuses an expiry in the past or now: InvalidExpiry', async () => {
    const now = await t.rt.now();
    expectError(await t.send(await anchorIx({ expiresAt: now - 1n }), [t.verifier]), 'InvalidExpiry');
    expectError(await t.send(await anchorIx({ expiresAt: now }), [t.verifier]), 'InvalidExpiry');
    expectError(await t.send(await anchorIx({ expiresAt: -1n }), [t.verifier]), 'InvalidExpiry');
    expectOk(await t.send(await anchorIx({ expiresAt: now + 1n }), [t.verifier]));
  });

  it('refuses a registry owned by another program: InvalidAccountOwner', async () => {
    const acc = (await t.rt.getAccount(t.registry))!;
    await t.rt.setAccount(t.registry, { lamports: acc.lamports, data: acc.data, owner: TOKEN_2022_ID });
    expectError(await t.send(await anchorIx(), [t.verifier]), 'InvalidAccountOwner');
  });

  it('refuses a forged registry listing the attacker as verifier: InvalidPda', async () => {
    const attacker = Keypair.generate();
    const data = Buffer.from((await t.rt.getAccount(t.registry))!.data);
    attacker.publicKey.toBuffer().copy(data, 40); // verifiers[0]
    const forged = Keypair.generate().publicKey;
    await t.rt.setAccount(forged, { lamports: 10_000_000, data, owner: t.programId });
    expectError(await t.send(await anchorIx({ verifier: attacker.publicKey, registry: forged }), [attacker]), 'InvalidPda');
  });

  it('refuses a read-only certificate account: AccountNotWritable', async () => {
    const ix = withReadonly(await anchorIx(), t.certificatePda(hash));
    expectError(await t.send(ix, [t.verifier]), 'AccountNotWritable');
  });

  it('refuses a truncated hash: InvalidInstructionData', async () => {
    const ix = await anchorIx();
    expectError(await t.send(new TransactionInstruction({ ...ix, data: ix.data.subarray(0, 8 + 20) }), [t.verifier]), 'InvalidInstructionData');
  });

  it('refuses trailing bytes after the arguments: InvalidInstructionData', async () => {
    const ix = await anchorIx();
    expectError(await t.send(new TransactionInstruction({ ...ix, data: Buffer.concat([ix.data, Buffer.from([0])]) }), [t.verifier]), 'InvalidInstructionData');
  });

  it('refuses too few accounts: NotEnoughAccounts', async () => {
    const ix = await anchorIx();
    expectError(await t.send(new TransactionInstruction({ ...ix, keys: ix.keys.slice(0, 4) }), [t.verifier]), 'NotEnoughAccounts');
  });

  it('still anchors when someone pre-funded the certificate address (no griefing by a transfer)', async () => {
    // Anyone who learns a hash could otherwise block its anchoring with a 1-lamport transfer.
    await t.rt.setAccount(t.certificatePda(hash), { lamports: 890_880, data: new Uint8Array(0), owner: SystemProgram.programId });
    expectOk(await t.send(await anchorIx(), [t.verifier]));
    expect(b58((await t.certificateState(hash)).holder)).toBe(holder.publicKey.toBase58());
  });

  it('counts every anchored certificate', async () => {
    await givenAnchored(t);
    await givenAnchored(t);
    expect((await t.registryState()).certificateCount).toBe(2n);
  });
});
