import { Keypair } from '@solana/web3.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { CertificateStatus, IssuerStatus, TrustTier } from '../../shared/program/codec';
import { ReasonCode } from '../../shared/program/reasons';
import { Attesta, aHash, withAccountsTruncated, withReadonly, withoutSignature } from './support/attesta';
import { expectError, expectOk } from './support/expect';
import {
  givenAnchored,
  givenConfirmed,
  givenIssued,
  givenIssuer,
  givenRegistry,
  givenRequested,
  givenVerified,
  type GivenCertificate,
  type GivenIssuer,
} from './support/given';
import { b58, plain } from './support/plain';
import { RUNTIMES } from './support/runtimes';

describe.each(RUNTIMES)('confirm_certificate [$name]', ({ start }) => {
  let t: Attesta;
  let issuer: GivenIssuer;
  beforeEach(async () => {
    t = await givenRegistry(await start());
    issuer = await givenIssuer(t);
  });
  const confirm = async (hash: Uint8Array, by: GivenIssuer = issuer) =>
    t.send(await t.confirmCertificateIx({ hash, authority: by.authority.publicKey }), [by.authority]);
  const reject = async (c: GivenCertificate) =>
    expectOk(await t.send(await t.recordVerificationIx({ hash: c.hash, verifier: t.verifier.publicKey, verified: false, reasonCode: ReasonCode.ContentMismatch }), [t.verifier]));

  it('confirms a pending certificate whose holder asked this issuer: verified, issuer_confirmed, counted', async () => {
    const c = await givenRequested(t, issuer);
    await t.rt.setUnixTimestamp((await t.rt.now()) + 60n);
    const now = await t.rt.now();
    // When
    const res = await confirm(c.hash);
    // Then
    expectOk(res);
    const s = await t.certificateState(c.hash);
    expect({ issuer: b58(s.issuer), verifier: b58(s.verifier), status: s.status, tier: s.tier, reason: s.reasonCode, verifiedAt: s.verifiedAt }).toEqual({
      issuer: issuer.authority.publicKey.toBase58(),
      verifier: issuer.authority.publicKey.toBase58(),
      status: CertificateStatus.Verified,
      tier: TrustTier.IssuerConfirmed,
      reason: 0,
      verifiedAt: now,
    });
    expect((await t.registryState()).verifiedCount).toBe(1n);
    expect(plain(t.events(res))).toEqual([
      { name: 'certificateConfirmed', data: { certificate: c.certificate.toBase58(), hash: Array.from(c.hash), issuer: issuer.authority.publicKey.toBase58() } },
    ]);
  });

  it('upgrades a platform-verified certificate without counting it twice', async () => {
    const c = await givenRequested(t, issuer, await givenVerified(t));
    expect((await t.registryState()).verifiedCount).toBe(1n);
    expectOk(await confirm(c.hash));
    expect(await t.certificateState(c.hash)).toMatchObject({ status: CertificateStatus.Verified, tier: TrustTier.IssuerConfirmed });
    expect((await t.registryState()).verifiedCount).toBe(1n);
  });

  it('overrides a platform rejection: the institution\'s word', async () => {
    const c = await givenAnchored(t);
    await reject(c);
    await givenRequested(t, issuer, c);
    expectOk(await confirm(c.hash));
    expect(await t.certificateState(c.hash)).toMatchObject({ status: CertificateStatus.Verified, tier: TrustTier.IssuerConfirmed, reasonCode: 0 });
    expect((await t.registryState()).verifiedCount).toBe(1n);
  });

  it('refuses an issuer the holder did not ask: ConfirmationNotRequested', async () => {
    // Never asked anyone…
    const notAsked = await givenVerified(t);
    expectError(await confirm(notAsked.hash), 'ConfirmationNotRequested');
    // …or asked another institution.
    const other = await givenIssuer(t);
    const askedOther = await givenRequested(t, other);
    expectError(await confirm(askedOther.hash), 'ConfirmationNotRequested');
    expect(await t.certificateState(notAsked.hash)).toMatchObject({ issuer: null, tier: TrustTier.PlatformVerified });
    expect(await t.certificateState(askedOther.hash)).toMatchObject({ status: CertificateStatus.Pending, tier: TrustTier.None });
    expect(b58((await t.certificateState(askedOther.hash)).issuer)).toBe(other.authority.publicKey.toBase58());
  });

  it('refuses a certificate already confirmed or issued by an issuer: AlreadyConfirmed', async () => {
    const confirmed = await givenConfirmed(t, issuer);
    const issued = await givenIssued(t, issuer);
    const other = await givenIssuer(t);
    expectError(await confirm(confirmed.hash), 'AlreadyConfirmed');
    expectError(await confirm(issued.hash), 'AlreadyConfirmed');
    // Checked before the request: another issuer gets AlreadyConfirmed too.
    expectError(await confirm(issued.hash, other), 'AlreadyConfirmed');
    expect((await t.registryState()).verifiedCount).toBe(2n);
  });

  it('refuses a revoked certificate even when asked: InvalidCertificateStatus', async () => {
    const c = await givenRequested(t, issuer);
    expectOk(await t.send(await t.revokeCertificateIx({ hash: c.hash, authority: t.admin.publicKey, reasonCode: ReasonCode.RevokedFraud }), [t.admin]));
    expectError(await confirm(c.hash), 'InvalidCertificateStatus');
    // Status comes before the request: an issuer nobody asked gets the same error.
    expectError(await confirm(c.hash, await givenIssuer(t)), 'InvalidCertificateStatus');
  });

  it('refuses an expired certificate (not at expires_at, one second later): CertificateExpired', async () => {
    const now = await t.rt.now();
    const c = await givenRequested(t, issuer, await givenAnchored(t, { expiresAt: now + 100n }));
    await t.rt.setUnixTimestamp(now + 101n);
    expectError(await confirm(c.hash), 'CertificateExpired');
    // The request is checked before the expiry.
    expectError(await confirm(c.hash, await givenIssuer(t)), 'ConfirmationNotRequested');
    await t.rt.setUnixTimestamp(now + 100n);
    expectOk(await confirm(c.hash));
  });

  it('refuses a pending issuer, before looking at the request: IssuerNotApproved', async () => {
    const c = await givenAnchored(t);
    expectError(await confirm(c.hash, await givenIssuer(t, IssuerStatus.Pending)), 'IssuerNotApproved');
  });

  it('refuses an issuer suspended after the holder asked it: IssuerSuspended', async () => {
    const c = await givenRequested(t, issuer);
    expectOk(await t.send(await t.setIssuerStatusIx({ issuer: issuer.issuer, status: IssuerStatus.Suspended, admin: t.admin.publicKey }), [t.admin]));
    expectError(await confirm(c.hash), 'IssuerSuspended');
    expect((await t.certificateState(c.hash)).tier).toBe(TrustTier.None);
  });

  it('refuses an authority that did not sign: MissingSignature', async () => {
    const c = await givenRequested(t, issuer);
    const ix = withoutSignature(await t.confirmCertificateIx({ hash: c.hash, authority: issuer.authority.publicKey }), issuer.authority.publicKey);
    expectError(await t.send(ix, []), 'MissingSignature');
  });

  it('refuses a signer presenting the asked issuer\'s account: InvalidPda', async () => {
    const c = await givenRequested(t, issuer);
    const impostor = Keypair.generate();
    const ix = await t.confirmCertificateIx({ hash: c.hash, authority: impostor.publicKey, issuer: issuer.issuer });
    expectError(await t.send(ix, [impostor]), 'InvalidPda');
  });

  it('refuses the certificate account of another hash: InvalidPda', async () => {
    const c = await givenRequested(t, issuer);
    const other = await givenRequested(t, issuer);
    const ix = await t.confirmCertificateIx({ hash: c.hash, authority: issuer.authority.publicKey, certificate: other.certificate });
    expectError(await t.send(ix, [issuer.authority]), 'InvalidPda');
    expect((await t.certificateState(other.hash)).status).toBe(CertificateStatus.Pending);
  });

  it('refuses a hash that was never anchored: InvalidAccountOwner', async () => {
    expectError(await confirm(aHash()), 'InvalidAccountOwner');
  });

  it('refuses a client without the registry account (the former interface): NotEnoughAccounts', async () => {
    const c = await givenRequested(t, issuer);
    const ix = withAccountsTruncated(await t.confirmCertificateIx({ hash: c.hash, authority: issuer.authority.publicKey }), 3);
    expectError(await t.send(ix, [issuer.authority]), 'NotEnoughAccounts');
  });

  it('refuses another account as the registry: InvalidDiscriminator; a read-only registry: AccountNotWritable', async () => {
    const c = await givenRequested(t, issuer);
    const other = await givenIssuer(t);
    const wrong = await t.confirmCertificateIx({ hash: c.hash, authority: issuer.authority.publicKey, registry: other.issuer });
    expectError(await t.send(wrong, [issuer.authority]), 'InvalidDiscriminator');
    const readonly = withReadonly(await t.confirmCertificateIx({ hash: c.hash, authority: issuer.authority.publicKey }), t.registry);
    expectError(await t.send(readonly, [issuer.authority]), 'AccountNotWritable');
    expect((await t.certificateState(c.hash)).status).toBe(CertificateStatus.Pending);
  });
});
