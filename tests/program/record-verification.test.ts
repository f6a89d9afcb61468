import { Keypair } from '@solana/web3.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { CertificateStatus, IssuerStatus, TrustTier } from '../../shared/program/codec';
import { ReasonCode } from '../../shared/program/reasons';
import { Attesta, withExtraAccounts, withoutSignature } from './support/attesta';
import { expectError, expectOk } from './support/expect';
import { givenAnchored, givenIssued, givenIssuer, givenRegistry, givenRequested, givenVerified, type GivenCertificate } from './support/given';
import { b58, plain } from './support/plain';
import { RUNTIMES } from './support/runtimes';

describe.each(RUNTIMES)('record_verification [$name]', ({ start }) => {
  let t: Attesta;
  beforeEach(async () => {
    t = await givenRegistry(await start());
  });
  const record = async (c: GivenCertificate, verified: boolean, reasonCode = 0, over: Partial<Parameters<Attesta['recordVerificationIx']>[0]> = {}, signer = t.verifier) =>
    t.send(await t.recordVerificationIx({ hash: c.hash, verifier: signer.publicKey, verified, reasonCode, ...over }), [signer]);

  it('verifies a pending certificate: platform_verified, stamped and counted', async () => {
    const c = await givenAnchored(t);
    await t.rt.setUnixTimestamp((await t.rt.now()) + 60n);
    const now = await t.rt.now();
    // When
    const res = await record(c, true);
    // Then
    expectOk(res);
    const s = await t.certificateState(c.hash);
    expect({ status: s.status, tier: s.tier, reason: s.reasonCode, verifier: b58(s.verifier), verifiedAt: s.verifiedAt }).toEqual({
      status: CertificateStatus.Verified,
      tier: TrustTier.PlatformVerified,
      reason: 0,
      verifier: t.verifier.publicKey.toBase58(),
      verifiedAt: now,
    });
    expect((await t.registryState()).verifiedCount).toBe(1n);
    expect(plain(t.events(res))).toEqual([
      {
        name: 'verificationRecorded',
        data: {
          certificate: c.certificate.toBase58(),
          hash: Array.from(c.hash),
          status: { verified: {} },
          tier: { platformVerified: {} },
          reasonCode: 0,
          verifier: t.verifier.publicKey.toBase58(),
        },
      },
    ]);
  });

  it('rejects with a reason, and a rejected certificate can be verified later (Try Again)', async () => {
    const c = await givenAnchored(t);
    // When rejected
    const rejected = await record(c, false, ReasonCode.ContentMismatch);
    // Then
    expectOk(rejected);
    expect(await t.certificateState(c.hash)).toMatchObject({ status: CertificateStatus.Rejected, tier: TrustTier.None, reasonCode: ReasonCode.ContentMismatch });
    expect((await t.registryState()).verifiedCount).toBe(0n);
    expect((plain(t.events(rejected)) as unknown[])[0]).toMatchObject({ data: { status: { rejected: {} }, tier: { none: {} }, reasonCode: ReasonCode.ContentMismatch } });
    // When verified after all
    expectOk(await record(c, true));
    expect(await t.certificateState(c.hash)).toMatchObject({ status: CertificateStatus.Verified, tier: TrustTier.PlatformVerified, reasonCode: 0 });
  });

  it('is platform_verified even when the holder asked an approved issuer; the request stays', async () => {
    const issuer = await givenIssuer(t);
    const c = await givenRequested(t, issuer);
    const res = await record(c, true);
    expectOk(res);
    const s = await t.certificateState(c.hash);
    expect({ status: s.status, tier: s.tier, issuer: b58(s.issuer) }).toEqual({
      status: CertificateStatus.Verified,
      tier: TrustTier.PlatformVerified,
      issuer: issuer.authority.publicKey.toBase58(),
    });
    expect((plain(t.events(res)) as unknown[])[0]).toMatchObject({ data: { tier: { platformVerified: {} } } });
    // The asked issuer may still confirm it later.
    expectOk(await t.send(await t.confirmCertificateIx({ hash: c.hash, authority: issuer.authority.publicKey }), [issuer.authority]));
    expect((await t.certificateState(c.hash)).tier).toBe(TrustTier.IssuerConfirmed);
  });

  it('is not blocked by an asked issuer that was suspended since', async () => {
    const issuer = await givenIssuer(t);
    const c = await givenRequested(t, issuer);
    expectOk(await t.send(await t.setIssuerStatusIx({ issuer: issuer.issuer, status: IssuerStatus.Suspended, admin: t.admin.publicKey }), [t.admin]));
    expectOk(await record(c, true));
    expect(await t.certificateState(c.hash)).toMatchObject({ status: CertificateStatus.Verified, tier: TrustTier.PlatformVerified });
  });

  it('still accepts a client that passes the former optional issuer account (trailing accounts are ignored)', async () => {
    const issuer = await givenIssuer(t);
    const asked = await givenRequested(t, issuer);
    const plainCert = await givenAnchored(t);
    // The Issuer PDA of certificate.issuer, as the former interface required…
    const withIssuer = withExtraAccounts(await t.recordVerificationIx({ hash: asked.hash, verifier: t.verifier.publicKey, verified: true }), {
      pubkey: issuer.issuer,
      isSigner: false,
      isWritable: false,
    });
    expectOk(await t.send(withIssuer, [t.verifier]));
    // …and the program id, Anchor's "none" for an omitted optional account.
    const withNone = withExtraAccounts(await t.recordVerificationIx({ hash: plainCert.hash, verifier: t.verifier.publicKey, verified: false, reasonCode: ReasonCode.Policy }), {
      pubkey: t.programId,
      isSigner: false,
      isWritable: false,
    });
    expectOk(await t.send(withNone, [t.verifier]));
    expect(await t.certificateState(asked.hash)).toMatchObject({ status: CertificateStatus.Verified, tier: TrustTier.PlatformVerified });
    expect(await t.certificateState(plainCert.hash)).toMatchObject({ status: CertificateStatus.Rejected, reasonCode: ReasonCode.Policy });
  });

  it('refuses a certificate an issuer issued (already verified): AlreadyVerified', async () => {
    const c = await givenIssued(t, await givenIssuer(t));
    expectError(await record(c, false, ReasonCode.ContentMismatch), 'AlreadyVerified');
    expect(await t.certificateState(c.hash)).toMatchObject({ status: CertificateStatus.Verified, tier: TrustTier.IssuerConfirmed });
  });

  it('refuses to verify twice: AlreadyVerified', async () => {
    const c = await givenVerified(t);
    expectError(await record(c, true), 'AlreadyVerified');
    expectError(await record(c, false, ReasonCode.Policy), 'AlreadyVerified');
    expect((await t.registryState()).verifiedCount).toBe(1n);
  });

  it('refuses a revoked certificate: CertificateRevoked', async () => {
    const c = await givenAnchored(t);
    expectOk(await t.send(await t.revokeCertificateIx({ hash: c.hash, authority: t.admin.publicKey, reasonCode: ReasonCode.RevokedFraud }), [t.admin]));
    expectError(await record(c, true), 'CertificateRevoked');
  });

  it('refuses an expired certificate (clock moved past expires_at): CertificateExpired', async () => {
    const now = await t.rt.now();
    const c = await givenAnchored(t, { expiresAt: now + 100n });
    // At expires_at it is not yet expired…
    await t.rt.setUnixTimestamp(now + 100n);
    expectOk(await record(c, false, ReasonCode.UnreadableDocument));
    // …one second later it is.
    await t.rt.setUnixTimestamp(now + 101n);
    expectError(await record(c, true), 'CertificateExpired');
  });

  it('refuses a rejection without a reason: InvalidReasonCode', async () => {
    const c = await givenAnchored(t);
    expectError(await record(c, false, ReasonCode.None), 'InvalidReasonCode');
  });

  it('refuses a signer that is not a verifier, even the holder or an issuer: NotAVerifier', async () => {
    const c = await givenAnchored(t);
    const issuer = await givenIssuer(t);
    expectError(await record(c, true, 0, {}, Keypair.generate()), 'NotAVerifier');
    expectError(await record(c, true, 0, {}, c.holder), 'NotAVerifier');
    expectError(await record(c, true, 0, {}, issuer.authority), 'NotAVerifier');
  });

  it('refuses a verifier key that did not sign: MissingSignature', async () => {
    const c = await givenAnchored(t);
    const ix = withoutSignature(await t.recordVerificationIx({ hash: c.hash, verifier: t.verifier.publicKey, verified: true }), t.verifier.publicKey);
    expectError(await t.send(ix, []), 'MissingSignature');
  });

  it('refuses the certificate account of another hash: InvalidPda', async () => {
    const c = await givenAnchored(t);
    const other = await givenAnchored(t);
    expectError(await record(c, true, 0, { certificate: other.certificate }), 'InvalidPda');
    expect((await t.certificateState(other.hash)).status).toBe(CertificateStatus.Pending);
  });

  it('refuses a Certificate-shaped account owned by another program: InvalidAccountOwner', async () => {
    const c = await givenAnchored(t);
    const acc = (await t.rt.getAccount(c.certificate))!;
    await t.rt.setAccount(c.certificate, { lamports: acc.lamports, data: acc.data, owner: Keypair.generate().publicKey });
    expectError(await record(c, true), 'InvalidAccountOwner');
  });
});
