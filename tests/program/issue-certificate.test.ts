import { Keypair } from '@solana/web3.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { CertificateStatus, IssuerStatus, TrustTier } from '../../shared/program/codec';
import { Attesta, aHash, withoutSignature } from './support/attesta';
import { expectError, expectOk } from './support/expect';
import { givenAnchored, givenIssuer, givenRegistry, type GivenIssuer } from './support/given';
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

  it('records a pending certificate naming the issuer authority', async () => {
    const now = await t.rt.now();
    // When
    const res = await t.send(await issueIx({ expiresAt: now + 1000n }), [issuer.authority]);
    // Then
    expectOk(res);
    const c = await t.certificateState(hash);
    expect({ holder: b58(c.holder), issuer: b58(c.issuer), status: c.status, tier: c.tier, anchoredAt: c.anchoredAt, expiresAt: c.expiresAt }).toEqual({
      holder: holder.publicKey.toBase58(),
      issuer: issuer.authority.publicKey.toBase58(),
      status: CertificateStatus.Pending,
      tier: TrustTier.None,
      anchoredAt: now,
      expiresAt: now + 1000n,
    });
    expect((await t.registryState()).certificateCount).toBe(1n);
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

  it('refuses a hash already anchored by the platform: HashAlreadyAnchored', async () => {
    const existing = await givenAnchored(t);
    const res = await t.send(await issueIx({ hash: existing.hash }), [issuer.authority]);
    expectError(res, 'HashAlreadyAnchored');
    expect(b58((await t.certificateState(existing.hash)).issuer)).toBeNull();
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
