import { Keypair } from '@solana/web3.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { CertificateStatus, IssuerStatus, TrustTier } from '../../shared/program/codec';
import { ReasonCode } from '../../shared/program/reasons';
import { Attesta, aHash, withoutSignature } from './support/attesta';
import { expectError, expectOk } from './support/expect';
import { givenAnchored, givenIssued, givenIssuer, givenRegistry, givenVerified, type GivenIssuer } from './support/given';
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

  it('names the issuer on a pending platform-anchored certificate, tier unchanged', async () => {
    const c = await givenAnchored(t);
    // When
    const res = await confirm(c.hash);
    // Then
    expectOk(res);
    const state = await t.certificateState(c.hash);
    expect({ issuer: b58(state.issuer), status: state.status, tier: state.tier }).toEqual({
      issuer: issuer.authority.publicKey.toBase58(),
      status: CertificateStatus.Pending,
      tier: TrustTier.None,
    });
    expect(plain(t.events(res))).toEqual([
      { name: 'certificateConfirmed', data: { certificate: c.certificate.toBase58(), hash: Array.from(c.hash), issuer: issuer.authority.publicKey.toBase58() } },
    ]);
  });

  it('upgrades a verified certificate to issuer_confirmed', async () => {
    const c = await givenVerified(t);
    expectOk(await confirm(c.hash));
    expect(await t.certificateState(c.hash)).toMatchObject({ status: CertificateStatus.Verified, tier: TrustTier.IssuerConfirmed });
  });

  it('refuses a certificate that already names an issuer: AlreadyConfirmed', async () => {
    const c = await givenIssued(t, issuer);
    expectError(await confirm(c.hash), 'AlreadyConfirmed');
    const other = await givenIssuer(t);
    expectError(await confirm(c.hash, other), 'AlreadyConfirmed');
    expect(b58((await t.certificateState(c.hash)).issuer)).toBe(issuer.authority.publicKey.toBase58());
  });

  it('refuses a rejected certificate: InvalidCertificateStatus', async () => {
    const c = await givenAnchored(t);
    expectOk(await t.send(await t.recordVerificationIx({ hash: c.hash, verifier: t.verifier.publicKey, verified: false, reasonCode: ReasonCode.ContentMismatch }), [t.verifier]));
    expectError(await confirm(c.hash), 'InvalidCertificateStatus');
  });

  it('refuses a revoked certificate: InvalidCertificateStatus', async () => {
    const c = await givenAnchored(t);
    expectOk(await t.send(await t.revokeCertificateIx({ hash: c.hash, authority: t.admin.publicKey, reasonCode: ReasonCode.RevokedFraud }), [t.admin]));
    expectError(await confirm(c.hash), 'InvalidCertificateStatus');
  });

  it('refuses a pending issuer: IssuerNotApproved', async () => {
    const c = await givenAnchored(t);
    expectError(await confirm(c.hash, await givenIssuer(t, IssuerStatus.Pending)), 'IssuerNotApproved');
  });

  it('refuses a suspended issuer: IssuerSuspended', async () => {
    const c = await givenAnchored(t);
    expectError(await confirm(c.hash, await givenIssuer(t, IssuerStatus.Suspended)), 'IssuerSuspended');
    expect((await t.certificateState(c.hash)).issuer).toBeNull();
  });

  it('refuses an authority that did not sign: MissingSignature', async () => {
    const c = await givenAnchored(t);
    const ix = withoutSignature(await t.confirmCertificateIx({ hash: c.hash, authority: issuer.authority.publicKey }), issuer.authority.publicKey);
    expectError(await t.send(ix, []), 'MissingSignature');
  });

  it('refuses a signer presenting another issuer\'s account: InvalidPda', async () => {
    const c = await givenAnchored(t);
    const impostor = Keypair.generate();
    const ix = await t.confirmCertificateIx({ hash: c.hash, authority: impostor.publicKey, issuer: issuer.issuer });
    expectError(await t.send(ix, [impostor]), 'InvalidPda');
  });

  it('refuses the certificate account of another hash: InvalidPda', async () => {
    const c = await givenAnchored(t);
    const other = await givenAnchored(t);
    const ix = await t.confirmCertificateIx({ hash: c.hash, authority: issuer.authority.publicKey, certificate: other.certificate });
    expectError(await t.send(ix, [issuer.authority]), 'InvalidPda');
  });

  it('refuses a hash that was never anchored: InvalidAccountOwner', async () => {
    expectError(await confirm(aHash()), 'InvalidAccountOwner');
  });
});
