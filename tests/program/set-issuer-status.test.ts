import { Keypair, TransactionInstruction } from '@solana/web3.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { IssuerStatus } from '../../shared/program/codec';
import { Attesta, withoutSignature } from './support/attesta';
import { expectError, expectOk } from './support/expect';
import { givenAnchored, givenIssuer, givenRegistry, type GivenIssuer } from './support/given';
import { accountDiscriminator } from '../../shared/program/discriminators';
import { plain } from './support/plain';
import { RUNTIMES } from './support/runtimes';

describe.each(RUNTIMES)('set_issuer_status [$name]', ({ start }) => {
  let t: Attesta;
  let issuer: GivenIssuer;
  beforeEach(async () => {
    t = await givenRegistry(await start());
    issuer = await givenIssuer(t, IssuerStatus.Pending);
  });
  const setStatus = async (status: IssuerStatus, admin = t.admin) =>
    t.send(await t.setIssuerStatusIx({ issuer: issuer.issuer, status, admin: admin.publicKey }), [admin]);

  it.each([
    ['approves', IssuerStatus.Approved, 'approved'],
    ['suspends', IssuerStatus.Suspended, 'suspended'],
    ['sets back to pending', IssuerStatus.Pending, 'pending'],
  ] as const)('%s an issuer and stamps updated_at', async (_, status, variant) => {
    // Given a later time than the registration
    const registered = await t.issuerState(issuer.authority.publicKey);
    await t.rt.setUnixTimestamp(registered.registeredAt + 100n);
    // When
    const res = await setStatus(status);
    // Then
    expectOk(res);
    expect(await t.issuerState(issuer.authority.publicKey)).toMatchObject({
      status,
      registeredAt: registered.registeredAt,
      updatedAt: registered.registeredAt + 100n,
    });
    expect(plain(t.events(res))).toEqual([{ name: 'issuerStatusChanged', data: { issuer: issuer.issuer.toBase58(), status: { [variant]: {} } } }]);
  });

  it('re-approves a suspended issuer', async () => {
    expectOk(await setStatus(IssuerStatus.Suspended));
    expectOk(await setStatus(IssuerStatus.Approved));
    expect((await t.issuerState(issuer.authority.publicKey)).status).toBe(IssuerStatus.Approved);
  });

  it('refuses anyone but the admin, even a verifier or the issuer itself: Unauthorized', async () => {
    expectError(await setStatus(IssuerStatus.Approved, Keypair.generate()), 'Unauthorized');
    expectError(await setStatus(IssuerStatus.Approved, t.verifier), 'Unauthorized');
    expectError(await setStatus(IssuerStatus.Approved, issuer.authority), 'Unauthorized');
    expect((await t.issuerState(issuer.authority.publicKey)).status).toBe(IssuerStatus.Pending);
  });

  it('refuses an admin key that did not sign: MissingSignature', async () => {
    const ix = withoutSignature(await t.setIssuerStatusIx({ issuer: issuer.issuer, status: IssuerStatus.Approved, admin: t.admin.publicKey }), t.admin.publicKey);
    expectError(await t.send(ix, []), 'MissingSignature');
  });

  it('refuses an unknown status byte: InvalidIssuerStatus', async () => {
    const ix = await t.setIssuerStatusIx({ issuer: issuer.issuer, status: IssuerStatus.Approved, admin: t.admin.publicKey });
    const data = Buffer.from(ix.data);
    data[8] = 3;
    expectError(await t.send(new TransactionInstruction({ ...ix, data }), [t.admin]), 'InvalidIssuerStatus');
  });

  it('refuses an Issuer-sized program account of another type: InvalidDiscriminator', async () => {
    const acc = (await t.rt.getAccount(issuer.issuer))!;
    const data = Buffer.from(acc.data);
    Buffer.from(accountDiscriminator('Certificate')).copy(data, 0);
    await t.rt.setAccount(issuer.issuer, { lamports: acc.lamports, data, owner: t.programId });
    expectError(await setStatus(IssuerStatus.Approved), 'InvalidDiscriminator');
  });

  it('refuses the registry passed as the issuer too (a duplicated program account): InvalidPda', async () => {
    const ix = await t.setIssuerStatusIx({ issuer: t.registry, status: IssuerStatus.Approved, admin: t.admin.publicKey });
    expectError(await t.send(ix, [t.admin]), 'InvalidPda');
  });

  it('refuses a certificate-sized account as the issuer: AccountDataTooSmall', async () => {
    const c = await givenAnchored(t);
    const ix = await t.setIssuerStatusIx({ issuer: c.certificate, status: IssuerStatus.Approved, admin: t.admin.publicKey });
    expectError(await t.send(ix, [t.admin]), 'AccountDataTooSmall');
  });

  it('refuses an Issuer-shaped account owned by another program: InvalidAccountOwner', async () => {
    const acc = (await t.rt.getAccount(issuer.issuer))!;
    const forged = Keypair.generate().publicKey;
    await t.rt.setAccount(forged, { lamports: acc.lamports, data: acc.data, owner: Keypair.generate().publicKey });
    const ix = await t.setIssuerStatusIx({ issuer: forged, status: IssuerStatus.Approved, admin: t.admin.publicKey });
    expectError(await t.send(ix, [t.admin]), 'InvalidAccountOwner');
  });

});
