import { Keypair } from '@solana/web3.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { CertificateStatus, TrustTier } from '../../shared/program/codec';
import { ReasonCode, reasonName } from '../../shared/program/reasons';
import { Attesta, withoutSignature } from './support/attesta';
import { expectError, expectOk } from './support/expect';
import { givenAnchored, givenConfirmed, givenIssued, givenIssuer, givenRegistry, givenRequested, givenVerified, type GivenCertificate } from './support/given';
import { b58, plain } from './support/plain';
import { RUNTIMES } from './support/runtimes';

describe.each(RUNTIMES)('revoke_certificate [$name]', ({ start }) => {
  let t: Attesta;
  beforeEach(async () => {
    t = await givenRegistry(await start());
  });
  const revoke = async (c: GivenCertificate, by: Keypair, reasonCode: number = ReasonCode.RevokedFraud) =>
    t.send(await t.revokeCertificateIx({ hash: c.hash, authority: by.publicKey, reasonCode }), [by]);

  it('a verifier revokes a verified certificate; the record stays readable with its reason', async () => {
    const c = await givenVerified(t);
    const before = await t.certificateState(c.hash);
    await t.rt.setUnixTimestamp((await t.rt.now()) + 3600n);
    const now = await t.rt.now();
    // When
    const res = await revoke(c, t.verifier, ReasonCode.RevokedSuperseded);
    // Then
    expectOk(res);
    const s = await t.certificateState(c.hash);
    expect({ ...s, holder: b58(s.holder), verifier: b58(s.verifier), issuer: b58(s.issuer), nftMint: b58(s.nftMint) }).toEqual({
      ...before,
      holder: c.holder.publicKey.toBase58(),
      issuer: null,
      nftMint: null,
      status: CertificateStatus.Revoked,
      reasonCode: ReasonCode.RevokedSuperseded,
      verifier: t.verifier.publicKey.toBase58(),
      revokedAt: now,
      tier: TrustTier.PlatformVerified,
    });
    expect(reasonName(s.reasonCode)).toBe('revoked_superseded');
    expect((await t.registryState())).toMatchObject({ revokedCount: 1n, verifiedCount: 1n, certificateCount: 1n });
    expect(plain(t.events(res))).toEqual([
      {
        name: 'certificateRevoked',
        data: { certificate: c.certificate.toBase58(), hash: Array.from(c.hash), reasonCode: ReasonCode.RevokedSuperseded, authority: t.verifier.publicKey.toBase58() },
      },
    ]);
  });

  it('the admin revokes a pending certificate', async () => {
    const c = await givenAnchored(t);
    expectOk(await revoke(c, t.admin, ReasonCode.RevokedHolderRequest));
    expect(await t.certificateState(c.hash)).toMatchObject({ status: CertificateStatus.Revoked, reasonCode: ReasonCode.RevokedHolderRequest });
  });

  it('the issuer authority revokes a certificate it issued', async () => {
    const issuer = await givenIssuer(t);
    const c = await givenIssued(t, issuer);
    expectOk(await revoke(c, issuer.authority, ReasonCode.RevokedByIssuer));
    const s = await t.certificateState(c.hash);
    expect({ status: s.status, verifier: b58(s.verifier), issuer: b58(s.issuer) }).toEqual({
      status: CertificateStatus.Revoked,
      verifier: issuer.authority.publicKey.toBase58(),
      issuer: issuer.authority.publicKey.toBase58(),
    });
  });

  it('refuses a stranger, the holder, or another issuer: NotAuthorizedToRevoke', async () => {
    const issuer = await givenIssuer(t);
    const other = await givenIssuer(t);
    const c = await givenIssued(t, issuer);
    expectError(await revoke(c, Keypair.generate()), 'NotAuthorizedToRevoke');
    expectError(await revoke(c, c.holder), 'NotAuthorizedToRevoke');
    expectError(await revoke(c, other.authority), 'NotAuthorizedToRevoke');
    expect((await t.certificateState(c.hash)).status).toBe(CertificateStatus.Verified);
  });

  it('the issuer that confirmed a certificate revokes it; another approved issuer cannot: NotAuthorizedToRevoke', async () => {
    const a = await givenIssuer(t);
    const b = await givenIssuer(t);
    const c = await givenConfirmed(t, a);
    expectError(await revoke(c, b.authority), 'NotAuthorizedToRevoke');
    expect(await t.certificateState(c.hash)).toMatchObject({ status: CertificateStatus.Verified, tier: TrustTier.IssuerConfirmed });
    expectOk(await revoke(c, a.authority, ReasonCode.RevokedByIssuer));
    expect(await t.certificateState(c.hash)).toMatchObject({ status: CertificateStatus.Revoked, tier: TrustTier.IssuerConfirmed, reasonCode: ReasonCode.RevokedByIssuer });
  });

  it('an issuer the holder asked to confirm may revoke instead (it recognises a fraud)', async () => {
    const issuer = await givenIssuer(t);
    const c = await givenRequested(t, issuer, await givenVerified(t));
    const res = await revoke(c, issuer.authority, ReasonCode.RevokedFraud);
    expectOk(res);
    const s = await t.certificateState(c.hash);
    expect({ status: s.status, tier: s.tier, reason: s.reasonCode, verifier: b58(s.verifier), issuer: b58(s.issuer) }).toEqual({
      status: CertificateStatus.Revoked,
      tier: TrustTier.PlatformVerified,
      reason: ReasonCode.RevokedFraud,
      verifier: issuer.authority.publicKey.toBase58(),
      issuer: issuer.authority.publicKey.toBase58(),
    });
  });

  it('an issuer whose request was replaced by a later one no longer may: NotAuthorizedToRevoke', async () => {
    const first = await givenIssuer(t);
    const second = await givenIssuer(t);
    const c = await givenRequested(t, second, await givenRequested(t, first));
    expectError(await revoke(c, first.authority), 'NotAuthorizedToRevoke');
    expectOk(await revoke(c, second.authority));
  });

  it('an approved issuer nobody asked cannot revoke a platform-verified certificate: NotAuthorizedToRevoke', async () => {
    const c = await givenVerified(t);
    const issuer = await givenIssuer(t);
    expectError(await revoke(c, issuer.authority), 'NotAuthorizedToRevoke');
    expect((await t.certificateState(c.hash)).status).toBe(CertificateStatus.Verified);
  });

  it('refuses a verifier removed from the registry: NotAuthorizedToRevoke', async () => {
    const c = await givenVerified(t);
    expectOk(await t.send(await t.setVerifierIx({ admin: t.admin.publicKey, verifier: t.verifier.publicKey, enabled: false }), [t.admin]));
    expectError(await revoke(c, t.verifier), 'NotAuthorizedToRevoke');
  });

  it('refuses to revoke twice: AlreadyRevoked, and keeps the first revocation', async () => {
    const c = await givenVerified(t);
    expectOk(await revoke(c, t.verifier, ReasonCode.RevokedFraud));
    expectError(await revoke(c, t.admin, ReasonCode.RevokedSuperseded), 'AlreadyRevoked');
    expect(await t.certificateState(c.hash)).toMatchObject({ reasonCode: ReasonCode.RevokedFraud });
    expect((await t.registryState()).revokedCount).toBe(1n);
  });

  it('refuses a revocation without a reason: InvalidReasonCode', async () => {
    const c = await givenVerified(t);
    expectError(await revoke(c, t.admin, ReasonCode.None), 'InvalidReasonCode');
  });

  it('refuses an authority that did not sign: MissingSignature', async () => {
    const c = await givenVerified(t);
    const ix = withoutSignature(await t.revokeCertificateIx({ hash: c.hash, authority: t.admin.publicKey, reasonCode: ReasonCode.RevokedFraud }), t.admin.publicKey);
    expectError(await t.send(ix, []), 'MissingSignature');
  });

  it('refuses the certificate account of another hash: InvalidPda', async () => {
    const c = await givenVerified(t);
    const other = await givenVerified(t);
    const ix = await t.revokeCertificateIx({ hash: c.hash, authority: t.admin.publicKey, reasonCode: ReasonCode.RevokedFraud, certificate: other.certificate });
    expectError(await t.send(ix, [t.admin]), 'InvalidPda');
    expect((await t.certificateState(other.hash)).status).toBe(CertificateStatus.Verified);
  });

  it('revokes an expired certificate too (expiry does not protect a fraud)', async () => {
    const now = await t.rt.now();
    const c = await givenVerified(t, { expiresAt: now + 5n });
    await t.rt.setUnixTimestamp(now + 1000n);
    expectOk(await revoke(c, t.admin));
    expect((await t.certificateState(c.hash)).status).toBe(CertificateStatus.Revoked);
  });
});
