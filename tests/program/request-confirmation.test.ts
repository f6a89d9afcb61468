import { Keypair } from '@solana/web3.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { CertificateStatus, IssuerStatus, TrustTier } from '../../shared/program/codec';
import { ReasonCode } from '../../shared/program/reasons';
import { Attesta, aHash, withReadonly, withoutSignature } from './support/attesta';
import { expectError, expectOk } from './support/expect';
import { givenAnchored, givenConfirmed, givenIssued, givenIssuer, givenRegistry, givenVerified, type GivenCertificate, type GivenIssuer } from './support/given';
import { b58, plain } from './support/plain';
import { RUNTIMES } from './support/runtimes';

describe.each(RUNTIMES)('request_confirmation [$name]', ({ start }) => {
  let t: Attesta;
  let issuer: GivenIssuer;
  beforeEach(async () => {
    t = await givenRegistry(await start());
    issuer = await givenIssuer(t);
  });
  const requestIx = (c: GivenCertificate, over: Partial<Parameters<Attesta['requestConfirmationIx']>[0]> = {}) =>
    t.requestConfirmationIx({ hash: c.hash, holder: c.holder.publicKey, issuerAuthority: issuer.authority.publicKey, ...over });
  const request = async (c: GivenCertificate, to: GivenIssuer = issuer, signer: Keypair = c.holder) =>
    t.send(await requestIx(c, { issuerAuthority: to.authority.publicKey, holder: signer.publicKey }), [signer]);

  it('records the holder\'s request on the certificate, status and tier unchanged, the platform paying', async () => {
    const c = await givenAnchored(t);
    const before = await t.certificateState(c.hash);
    // When (the holder's wallet holds no lamports: the runtime's payer pays the fee)
    const res = await request(c);
    // Then
    expectOk(res);
    expect(await t.rt.getAccount(c.holder.publicKey)).toBeNull();
    const after = await t.certificateState(c.hash);
    expect({ ...after, issuer: b58(after.issuer) }).toEqual({ ...before, issuer: issuer.authority.publicKey.toBase58() });
    expect(plain(t.events(res))).toEqual([
      {
        name: 'confirmationRequested',
        data: {
          certificate: c.certificate.toBase58(),
          hash: Array.from(c.hash),
          holder: c.holder.publicKey.toBase58(),
          issuer: issuer.authority.publicKey.toBase58(),
        },
      },
    ]);
  });

  it('a later request replaces an earlier one (after an institution declined)', async () => {
    const c = await givenAnchored(t);
    const other = await givenIssuer(t);
    expectOk(await request(c));
    // When
    expectOk(await request(c, other));
    // Then only the issuer asked last may confirm
    expect(b58((await t.certificateState(c.hash)).issuer)).toBe(other.authority.publicKey.toBase58());
    expectError(await t.send(await t.confirmCertificateIx({ hash: c.hash, authority: issuer.authority.publicKey }), [issuer.authority]), 'ConfirmationNotRequested');
    expectOk(await t.send(await t.confirmCertificateIx({ hash: c.hash, authority: other.authority.publicKey }), [other.authority]));
  });

  it('asking the same issuer again changes nothing and is not an error', async () => {
    const c = await givenAnchored(t);
    expectOk(await request(c));
    const before = await t.certificateState(c.hash);
    expectOk(await request(c));
    expect(await t.certificateState(c.hash)).toEqual(before);
  });

  it('may be asked on a platform-verified or a rejected record, which keep their status and tier', async () => {
    const verified = await givenVerified(t);
    const rejected = await givenAnchored(t);
    expectOk(await t.send(await t.recordVerificationIx({ hash: rejected.hash, verifier: t.verifier.publicKey, verified: false, reasonCode: ReasonCode.ContentMismatch }), [t.verifier]));
    expectOk(await request(verified));
    expectOk(await request(rejected));
    expect(await t.certificateState(verified.hash)).toMatchObject({ status: CertificateStatus.Verified, tier: TrustTier.PlatformVerified });
    expect(await t.certificateState(rejected.hash)).toMatchObject({ status: CertificateStatus.Rejected, tier: TrustTier.None, reasonCode: ReasonCode.ContentMismatch });
  });

  it('refuses a wallet asking on someone else\'s record: NotHolder', async () => {
    const c = await givenAnchored(t);
    const stranger = Keypair.generate();
    expectError(await request(c, issuer, stranger), 'NotHolder');
    // Not the issuer either: only the holder consents.
    expectError(await request(c, issuer, issuer.authority), 'NotHolder');
    expect((await t.certificateState(c.hash)).issuer).toBeNull();
  });

  it('refuses the holder\'s key without its signature: MissingSignature', async () => {
    const c = await givenAnchored(t);
    expectError(await t.send(withoutSignature(await requestIx(c), c.holder.publicKey), []), 'MissingSignature');
  });

  it('refuses a pending issuer: IssuerNotApproved', async () => {
    const c = await givenAnchored(t);
    expectError(await request(c, await givenIssuer(t, IssuerStatus.Pending)), 'IssuerNotApproved');
    expect((await t.certificateState(c.hash)).issuer).toBeNull();
  });

  it('refuses a suspended issuer: IssuerSuspended', async () => {
    const c = await givenAnchored(t);
    expectError(await request(c, await givenIssuer(t, IssuerStatus.Suspended)), 'IssuerSuspended');
    expect((await t.certificateState(c.hash)).issuer).toBeNull();
  });

  it('refuses a revoked record: InvalidCertificateStatus', async () => {
    const c = await givenAnchored(t);
    expectOk(await t.send(await t.revokeCertificateIx({ hash: c.hash, authority: t.admin.publicKey, reasonCode: ReasonCode.RevokedFraud }), [t.admin]));
    expectError(await request(c), 'InvalidCertificateStatus');
  });

  it('refuses an expired record (not at expires_at, one second later): CertificateExpired', async () => {
    const now = await t.rt.now();
    const c = await givenAnchored(t, { expiresAt: now + 100n });
    await t.rt.setUnixTimestamp(now + 100n);
    expectOk(await request(c));
    await t.rt.setUnixTimestamp(now + 101n);
    expectError(await request(c, await givenIssuer(t)), 'CertificateExpired');
  });

  it('refuses a record already confirmed or issued by an issuer: AlreadyConfirmed', async () => {
    const confirmed = await givenConfirmed(t, issuer);
    const issued = await givenIssued(t, issuer);
    const other = await givenIssuer(t);
    expectError(await request(confirmed, other), 'AlreadyConfirmed');
    expectError(await request(issued, other), 'AlreadyConfirmed');
    expect(b58((await t.certificateState(confirmed.hash)).issuer)).toBe(issuer.authority.publicKey.toBase58());
  });

  it('checks expiry before the tier: an expired issuer-confirmed record is CertificateExpired', async () => {
    const now = await t.rt.now();
    const c = await givenIssued(t, issuer, { expiresAt: now + 10n });
    await t.rt.setUnixTimestamp(now + 11n);
    expectError(await request(c, await givenIssuer(t)), 'CertificateExpired');
  });

  it('refuses another program account as the issuer: AccountDataTooSmall (the registry), InvalidDiscriminator (Issuer-sized)', async () => {
    const c = await givenAnchored(t);
    expectError(await t.send(await requestIx(c, { issuer: t.registry }), [c.holder]), 'AccountDataTooSmall');
    // An account of ours as long as an Issuer, with another type's discriminator.
    const forged = Keypair.generate().publicKey;
    const acc = (await t.rt.getAccount(issuer.issuer))!;
    const data = Buffer.from(acc.data);
    (await t.rt.getAccount(t.registry))!.data.copy(data, 0, 0, 8);
    await t.rt.setAccount(forged, { lamports: acc.lamports, data, owner: t.programId });
    expectError(await t.send(await requestIx(c, { issuer: forged }), [c.holder]), 'InvalidDiscriminator');
    expect((await t.certificateState(c.hash)).issuer).toBeNull();
  });

  it('refuses an Issuer-shaped account owned by another program: InvalidAccountOwner', async () => {
    const c = await givenAnchored(t);
    const acc = (await t.rt.getAccount(issuer.issuer))!;
    await t.rt.setAccount(issuer.issuer, { lamports: acc.lamports, data: acc.data, owner: Keypair.generate().publicKey });
    expectError(await request(c), 'InvalidAccountOwner');
  });

  it('refuses the certificate account of another hash: InvalidPda', async () => {
    const c = await givenAnchored(t);
    const other = await givenAnchored(t, { holder: c.holder });
    expectError(await t.send(await requestIx(c, { certificate: other.certificate }), [c.holder]), 'InvalidPda');
    expect((await t.certificateState(other.hash)).issuer).toBeNull();
  });

  it('refuses a hash that was never anchored: InvalidAccountOwner', async () => {
    const hash = aHash();
    expectError(await request({ hash, holder: Keypair.generate(), certificate: t.certificatePda(hash) }), 'InvalidAccountOwner');
  });

  it('refuses a read-only certificate account: AccountNotWritable', async () => {
    const c = await givenAnchored(t);
    expectError(await t.send(withReadonly(await requestIx(c), c.certificate), [c.holder]), 'AccountNotWritable');
  });
});
