import { Keypair } from '@solana/web3.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { CertificateStatus, IssuerStatus, TrustTier, type CertificateAccount } from '../../shared/program/codec';
import { ReasonCode } from '../../shared/program/reasons';
import { Attesta, aHash, withoutSignature } from './support/attesta';
import { expectError, expectOk } from './support/expect';
import { givenAnchored, givenConfirmed, givenIssued, givenIssuer, givenRegistry, givenRequested, givenVerified, type GivenCertificate, type GivenIssuer } from './support/given';
import { b58, plain } from './support/plain';
import { RUNTIMES } from './support/runtimes';

describe.each(RUNTIMES)('issue_certificate [$name]', ({ start }) => {
  let t: Attesta;
  let issuer: GivenIssuer;
  let holder: Keypair;
  let hash: Uint8Array;
  beforeEach(async () => {
    t = await givenRegistry(await start());
    issuer = await givenIssuer(t);
    holder = Keypair.generate();
    hash = aHash();
  });
  const issueIx = (over: Partial<Parameters<Attesta['issueCertificateIx']>[0]> = {}) =>
    t.issueCertificateIx({ hash, holder: holder.publicKey, authority: issuer.authority.publicKey, ...over });
  const issueOver = async (c: GivenCertificate, by: GivenIssuer = issuer, to: Keypair = holder, expiresAt?: bigint) =>
    t.send(await t.issueCertificateIx({ hash: c.hash, holder: to.publicKey, authority: by.authority.publicKey, expiresAt }), [by.authority]);
  const revoke = async (c: GivenCertificate, by: Keypair) =>
    expectOk(await t.send(await t.revokeCertificateIx({ hash: c.hash, authority: by.publicKey, reasonCode: ReasonCode.RevokedFraud }), [by]));
  /** The record as a fresh issue by `by` to `to` at `now` would write it (bump unchanged). */
  const issuedRecord = (before: CertificateAccount, to: Keypair, by: GivenIssuer, now: bigint, expiresAt = 0n) => ({
    ...before,
    holder: to.publicKey.toBase58(),
    issuer: by.authority.publicKey.toBase58(),
    verifier: by.authority.publicKey.toBase58(),
    nftMint: null,
    anchoredAt: now,
    verifiedAt: now,
    revokedAt: 0n,
    expiresAt,
    status: CertificateStatus.Verified,
    tier: TrustTier.IssuerConfirmed,
    reasonCode: 0,
  });
  const readable = (s: CertificateAccount) => ({ ...s, holder: b58(s.holder), issuer: b58(s.issuer), verifier: b58(s.verifier), nftMint: b58(s.nftMint) });

  describe('a new hash', () => {
    it('records it already verified and issuer_confirmed, counted as anchored and verified', async () => {
      const now = await t.rt.now();
      // When
      const res = await t.send(await issueIx({ expiresAt: now + 1000n }), [issuer.authority]);
      // Then
      expectOk(res);
      const c = await t.certificateState(hash);
      expect(readable(c)).toEqual(issuedRecord(c, holder, issuer, now, now + 1000n));
      expect(await t.registryState()).toMatchObject({ certificateCount: 1n, verifiedCount: 1n });
      expect(plain(t.events(res))).toEqual([
        {
          name: 'certificateAnchored',
          data: {
            certificate: t.certificatePda(hash).toBase58(),
            hash: Array.from(hash),
            holder: holder.publicKey.toBase58(),
            issuer: issuer.authority.publicKey.toBase58(),
            expiresAt: now + 1000n,
          },
        },
      ]);
    });

    it('refuses a pending issuer: IssuerNotApproved', async () => {
      const pending = await givenIssuer(t, IssuerStatus.Pending);
      const res = await t.send(await issueIx({ authority: pending.authority.publicKey }), [pending.authority]);
      expectError(res, 'IssuerNotApproved');
    });

    it('refuses a suspended issuer: IssuerSuspended', async () => {
      const suspended = await givenIssuer(t, IssuerStatus.Suspended);
      const res = await t.send(await issueIx({ authority: suspended.authority.publicKey }), [suspended.authority]);
      expectError(res, 'IssuerSuspended');
      expect(await t.exists(t.certificatePda(hash))).toBe(false);
    });

    it('refuses a signer using another issuer\'s account: InvalidPda', async () => {
      const impostor = Keypair.generate();
      const res = await t.send(await issueIx({ authority: impostor.publicKey, issuer: issuer.issuer }), [impostor]);
      expectError(res, 'InvalidPda');
    });

    it('refuses an authority that did not sign: MissingSignature', async () => {
      const ix = withoutSignature(await issueIx(), issuer.authority.publicKey);
      expectError(await t.send(ix, []), 'MissingSignature');
    });

    it('refuses the certificate PDA of another hash: InvalidPda', async () => {
      expectError(await t.send(await issueIx({ certificate: t.certificatePda(aHash()) }), [issuer.authority]), 'InvalidPda');
    });

    it('refuses an expiry in the past: InvalidExpiry', async () => {
      const now = await t.rt.now();
      expectError(await t.send(await issueIx({ expiresAt: now - 60n }), [issuer.authority]), 'InvalidExpiry');
    });

    it('refuses an issuer account owned by another program: InvalidAccountOwner', async () => {
      const acc = (await t.rt.getAccount(issuer.issuer))!;
      await t.rt.setAccount(issuer.issuer, { lamports: acc.lamports, data: acc.data, owner: Keypair.generate().publicKey });
      expectError(await t.send(await issueIx(), [issuer.authority]), 'InvalidAccountOwner');
    });
  });

  describe('an existing record without the institution\'s word is superseded', () => {
    it('a pending record another wallet anchored: rewritten for the rightful holder, with both events', async () => {
      const squatter = Keypair.generate();
      const c = await givenAnchored(t, { holder: squatter });
      const lamports = (await t.rt.getAccount(c.certificate))!.lamports;
      await t.rt.setUnixTimestamp((await t.rt.now()) + 3600n);
      const now = await t.rt.now();
      const before = await t.certificateState(c.hash);
      // When
      const res = await issueOver(c, issuer, holder, now + 500n);
      // Then
      expectOk(res);
      expect(readable(await t.certificateState(c.hash))).toEqual(issuedRecord(before, holder, issuer, now, now + 500n));
      expect((await t.rt.getAccount(c.certificate))!.lamports).toBe(lamports);
      // A record was re-verified, none was added.
      expect(await t.registryState()).toMatchObject({ certificateCount: 1n, verifiedCount: 1n });
      expect(plain(t.events(res))).toEqual([
        {
          name: 'certificateSuperseded',
          data: {
            certificate: c.certificate.toBase58(),
            hash: Array.from(c.hash),
            previousHolder: squatter.publicKey.toBase58(),
            holder: holder.publicKey.toBase58(),
            issuer: issuer.authority.publicKey.toBase58(),
          },
        },
        {
          name: 'certificateAnchored',
          data: {
            certificate: c.certificate.toBase58(),
            hash: Array.from(c.hash),
            holder: holder.publicKey.toBase58(),
            issuer: issuer.authority.publicKey.toBase58(),
            expiresAt: now + 500n,
          },
        },
      ]);
    });

    it('a platform-verified record of another holder (a diploma PDF someone else obtained)', async () => {
      const c = await givenVerified(t);
      const before = await t.certificateState(c.hash);
      const now = await t.rt.now();
      expectOk(await issueOver(c));
      expect(readable(await t.certificateState(c.hash))).toEqual(issuedRecord(before, holder, issuer, now));
      expect(await t.registryState()).toMatchObject({ certificateCount: 1n, verifiedCount: 2n });
    });

    it('a rejected record, and a record the platform revoked: status, reason and revocation cleared', async () => {
      const rejected = await givenAnchored(t);
      expectOk(await t.send(await t.recordVerificationIx({ hash: rejected.hash, verifier: t.verifier.publicKey, verified: false, reasonCode: ReasonCode.TamperSuspected }), [t.verifier]));
      const revoked = await givenVerified(t);
      await revoke(revoked, t.admin);
      const now = await t.rt.now();
      for (const c of [rejected, revoked]) {
        const before = await t.certificateState(c.hash);
        expectOk(await issueOver(c));
        expect(readable(await t.certificateState(c.hash))).toEqual(issuedRecord(before, holder, issuer, now));
      }
    });

    it('a record whose holder asked another issuer: that issuer loses the request (cannot confirm or revoke)', async () => {
      const other = await givenIssuer(t);
      const c = await givenRequested(t, other);
      expectOk(await issueOver(c));
      expect(b58((await t.certificateState(c.hash)).issuer)).toBe(issuer.authority.publicKey.toBase58());
      expectError(await t.send(await t.confirmCertificateIx({ hash: c.hash, authority: other.authority.publicKey }), [other.authority]), 'AlreadyConfirmed');
      expectError(
        await t.send(await t.revokeCertificateIx({ hash: c.hash, authority: other.authority.publicKey, reasonCode: ReasonCode.RevokedFraud }), [other.authority]),
        'NotAuthorizedToRevoke',
      );
    });

    it('its issuer may issue its own revoked record again, e.g. to the rightful holder after a fraud', async () => {
      const c = await givenIssued(t, issuer);
      await revoke(c, issuer.authority);
      const before = await t.certificateState(c.hash);
      const now = await t.rt.now();
      const res = await issueOver(c, issuer, holder, now + 10n);
      expectOk(res);
      expect(readable(await t.certificateState(c.hash))).toEqual(issuedRecord(before, holder, issuer, now, now + 10n));
      expect(await t.registryState()).toMatchObject({ certificateCount: 1n, verifiedCount: 2n, revokedCount: 1n });
      expect(t.events(res).map((e) => e.name)).toEqual(['certificateSuperseded', 'certificateAnchored']);
    });

    it('an issuer-confirmed record revoked by the admin is still its issuer\'s to issue again', async () => {
      const c = await givenConfirmed(t, issuer);
      await revoke(c, t.admin);
      expectError(await issueOver(c, await givenIssuer(t)), 'HashAlreadyAnchored');
      expectOk(await issueOver(c));
    });
  });

  describe('a record that already names the holder is never issued over: RecordAlreadyNamesHolder', () => {
    /** Issues `c` over to its own holder: refused, and nothing about the record or the registry changed. */
    const refusedOverOwnHolder = async (c: GivenCertificate, by: GivenIssuer = issuer) => {
      const [before, registry] = [await t.certificateState(c.hash), await t.registryState()];
      const res = await issueOver(c, by, c.holder);
      expectError(res, 'RecordAlreadyNamesHolder');
      expect(t.events(res)).toEqual([]);
      expect(await t.certificateState(c.hash)).toEqual(before);
      expect(await t.registryState()).toEqual(registry);
    };

    it('the red-team attack: an issuer nobody asked "confirms" a stranger\'s platform-verified record by issuing it to the same holder, then revokes it', async () => {
      const c = await givenVerified(t);
      await refusedOverOwnHolder(c);
      // Still no rights over it: neither the confirmer's nor a revoker's.
      expectError(await t.send(await t.confirmCertificateIx({ hash: c.hash, authority: issuer.authority.publicKey }), [issuer.authority]), 'ConfirmationNotRequested');
      expectError(
        await t.send(await t.revokeCertificateIx({ hash: c.hash, authority: issuer.authority.publicKey, reasonCode: ReasonCode.RevokedByIssuer }), [issuer.authority]),
        'NotAuthorizedToRevoke',
      );
      expect(await t.certificateState(c.hash)).toMatchObject({ status: CertificateStatus.Verified, tier: TrustTier.PlatformVerified, issuer: null });
    });

    it('a pending or rejected record of the holder, and one the platform revoked', async () => {
      const pending = await givenAnchored(t);
      const rejected = await givenAnchored(t);
      expectOk(await t.send(await t.recordVerificationIx({ hash: rejected.hash, verifier: t.verifier.publicKey, verified: false, reasonCode: ReasonCode.TamperSuspected }), [t.verifier]));
      const revoked = await givenVerified(t);
      await revoke(revoked, t.admin);
      for (const c of [pending, rejected, revoked]) await refusedOverOwnHolder(c);
    });

    it('a holder who asked another issuer', async () => {
      await refusedOverOwnHolder(await givenRequested(t, await givenIssuer(t)));
    });

    it('a holder who asked this very issuer: it confirms instead (the consent is to a confirmation, not to a rewrite)', async () => {
      const c = await givenRequested(t, issuer);
      await refusedOverOwnHolder(c);
      const before = await t.certificateState(c.hash);
      expectOk(await t.send(await t.confirmCertificateIx({ hash: c.hash, authority: issuer.authority.publicKey }), [issuer.authority]));
      // The holder's record as it was (anchored_at, expiry), now the issuer's word.
      expect(await t.certificateState(c.hash)).toMatchObject({ holder: before.holder, anchoredAt: before.anchoredAt, expiresAt: before.expiresAt, tier: TrustTier.IssuerConfirmed });
    });

    it('the issuer\'s own revoked record, back to the same holder: the revocation stands', async () => {
      const issued = await givenIssued(t, issuer);
      await revoke(issued, issuer.authority);
      await refusedOverOwnHolder(issued);
      const confirmed = await givenConfirmed(t, issuer);
      await revoke(confirmed, t.admin);
      await refusedOverOwnHolder(confirmed);
    });

    it('a live issuer-confirmed record of the holder is the institution\'s word first: HashAlreadyAnchored', async () => {
      const c = await givenIssued(t, issuer);
      expectError(await issueOver(c, issuer, c.holder), 'HashAlreadyAnchored');
      expectError(await issueOver(c, await givenIssuer(t), c.holder), 'HashAlreadyAnchored');
    });

    it('a supersede chain back to the first holder is an issue over another wallet\'s record each time, both supersedes public', async () => {
      const c = await givenVerified(t);
      const elsewhere = Keypair.generate();
      const away = await issueOver(c, issuer, elsewhere);
      expectOk(away);
      expect((plain(t.events(away)) as { data: object }[])[0].data).toMatchObject({ previousHolder: c.holder.publicKey.toBase58(), holder: elsewhere.publicKey.toBase58() });
      // Back to the first holder only over the issuer's own revoked record (HashAlreadyAnchored while live).
      expectError(await issueOver(c, issuer, c.holder), 'HashAlreadyAnchored');
      await revoke(c, issuer.authority);
      const back = await issueOver(c, issuer, c.holder);
      expectOk(back);
      expect((plain(t.events(back)) as { data: object }[])[0].data).toMatchObject({ previousHolder: elsewhere.publicKey.toBase58(), holder: c.holder.publicKey.toBase58() });
    });
  });

  describe('the institution\'s live word is never overwritten: HashAlreadyAnchored', () => {
    it('another issuer cannot issue over a record issuer A issued', async () => {
      const c = await givenIssued(t, issuer);
      const before = await t.certificateState(c.hash);
      expectError(await issueOver(c, await givenIssuer(t)), 'HashAlreadyAnchored');
      expect(await t.certificateState(c.hash)).toEqual(before);
    });

    it('another issuer cannot issue over a record A confirmed at its holder\'s request', async () => {
      const c = await givenConfirmed(t, issuer);
      expectError(await issueOver(c, await givenIssuer(t)), 'HashAlreadyAnchored');
    });

    it('nor can A itself while the record is live (revoke first)', async () => {
      const c = await givenIssued(t, issuer);
      expectError(await issueOver(c, issuer), 'HashAlreadyAnchored');
      const confirmed = await givenConfirmed(t, issuer);
      expectError(await issueOver(confirmed, issuer), 'HashAlreadyAnchored');
    });

    it('nor can A while the record is live but expired', async () => {
      const now = await t.rt.now();
      const c = await givenIssued(t, issuer, { expiresAt: now + 10n });
      await t.rt.setUnixTimestamp(now + 11n);
      expectError(await issueOver(c, issuer), 'HashAlreadyAnchored');
    });

    it('another issuer cannot issue over A\'s revoked record (A\'s revocation stands)', async () => {
      const c = await givenIssued(t, issuer);
      await revoke(c, issuer.authority);
      const before = await t.certificateState(c.hash);
      expectError(await issueOver(c, await givenIssuer(t)), 'HashAlreadyAnchored');
      expect(await t.certificateState(c.hash)).toEqual(before);
      expect(await t.registryState()).toMatchObject({ certificateCount: 1n, verifiedCount: 1n });
    });
  });

  describe('an existing account is loaded like any program account', () => {
    it('refuses a Certificate-shaped account owned by another program: InvalidAccountOwner', async () => {
      const c = await givenAnchored(t);
      const acc = (await t.rt.getAccount(c.certificate))!;
      await t.rt.setAccount(c.certificate, { lamports: acc.lamports, data: acc.data, owner: Keypair.generate().publicKey });
      expectError(await issueOver(c), 'InvalidAccountOwner');
    });

    it('refuses a program account of another type at the address: InvalidDiscriminator', async () => {
      const c = await givenAnchored(t);
      const issuerData = (await t.rt.getAccount(issuer.issuer))!;
      await t.rt.setAccount(c.certificate, { lamports: issuerData.lamports, data: issuerData.data, owner: t.programId });
      expectError(await issueOver(c), 'InvalidDiscriminator');
    });

    it('refuses an existing record of another hash: InvalidPda', async () => {
      const c = await givenAnchored(t);
      const other = await givenAnchored(t);
      const ix = await t.issueCertificateIx({ hash: c.hash, holder: holder.publicKey, authority: issuer.authority.publicKey, certificate: other.certificate });
      expectError(await t.send(ix, [issuer.authority]), 'InvalidPda');
      expect(b58((await t.certificateState(other.hash)).holder)).toBe(other.holder.publicKey.toBase58());
    });
  });
});
