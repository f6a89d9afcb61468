import { Keypair, PublicKey } from '@solana/web3.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { TOKEN_2022_ID } from '../../shared/program/ids';
import { accountDiscriminator } from '../../shared/program/discriminators';
import { Attesta, aHash, withoutSignature } from './support/attesta';
import { expectError, expectOk } from './support/expect';
import { givenRegistry } from './support/given';
import { b58, plain } from './support/plain';
import { RUNTIMES } from './support/runtimes';

describe.each(RUNTIMES)('set_verifier [$name]', ({ start }) => {
  let t: Attesta;
  beforeEach(async () => {
    t = await givenRegistry(await start());
  });
  const setVerifier = async (verifier: PublicKey, enabled: boolean, admin = t.admin) =>
    t.send(await t.setVerifierIx({ admin: admin.publicKey, verifier, enabled }), [admin]);

  it('adds a verifier, who can then anchor', async () => {
    const v = Keypair.generate();
    // When
    const res = await setVerifier(v.publicKey, true);
    // Then
    expectOk(res);
    const r = await t.registryState();
    expect(r.verifiers.map(b58)).toEqual([t.admin, t.verifier, v].map((k) => k.publicKey.toBase58()));
    expect(r.verifierCount).toBe(3);
    expect(plain(t.events(res))).toEqual([{ name: 'verifierSet', data: { verifier: v.publicKey.toBase58(), enabled: true } }]);
    expectOk(await t.send(await t.anchorCertificateIx({ hash: aHash(), holder: Keypair.generate().publicKey, verifier: v.publicKey }), [v]));
  });

  it('removes a verifier, who then cannot anchor: NotAVerifier', async () => {
    // When
    const res = await setVerifier(t.verifier.publicKey, false);
    // Then
    expectOk(res);
    const r = await t.registryState();
    expect(r.verifiers.map(b58)).toEqual([t.admin.publicKey.toBase58()]);
    expect(r.verifierCount).toBe(1);
    expect(plain(t.events(res))).toEqual([{ name: 'verifierSet', data: { verifier: t.verifier.publicKey.toBase58(), enabled: false } }]);
    const anchor = await t.anchorCertificateIx({ hash: aHash(), holder: Keypair.generate().publicKey, verifier: t.verifier.publicKey });
    expectError(await t.send(anchor, [t.verifier]), 'NotAVerifier');
  });

  it('adding an existing verifier again changes nothing (no duplicate slot)', async () => {
    expectOk(await setVerifier(t.verifier.publicKey, true));
    const r = await t.registryState();
    expect({ count: r.verifierCount, verifiers: r.verifiers.map(b58) }).toEqual({
      count: 2,
      verifiers: [t.admin.publicKey.toBase58(), t.verifier.publicKey.toBase58()],
    });
  });

  it('refuses a fifth verifier: VerifierListFull', async () => {
    // Given admin + 3 more = 4 slots
    expectOk(await setVerifier(Keypair.generate().publicKey, true));
    expectOk(await setVerifier(Keypair.generate().publicKey, true));
    expect((await t.registryState()).verifierCount).toBe(4);
    // When / Then
    expectError(await setVerifier(Keypair.generate().publicKey, true), 'VerifierListFull');
  });

  it('reuses a freed slot', async () => {
    expectOk(await setVerifier(Keypair.generate().publicKey, true));
    expectOk(await setVerifier(Keypair.generate().publicKey, true));
    expectOk(await setVerifier(t.verifier.publicKey, false));
    const v = Keypair.generate();
    expectOk(await setVerifier(v.publicKey, true));
    const r = await t.registryState();
    expect(r.verifierCount).toBe(4);
    expect(r.verifiers.map(b58)).toContain(v.publicKey.toBase58());
    expect(r.verifiers.map(b58)).not.toContain(t.verifier.publicKey.toBase58());
  });

  it('refuses to remove a key that is not a verifier: VerifierNotFound', async () => {
    expectError(await setVerifier(Keypair.generate().publicKey, false), 'VerifierNotFound');
  });

  it('refuses anyone but the admin: Unauthorized', async () => {
    const stranger = Keypair.generate();
    expectError(await setVerifier(stranger.publicKey, true, stranger), 'Unauthorized');
    // Not even a verifier may add verifiers.
    expectError(await setVerifier(stranger.publicKey, true, t.verifier), 'Unauthorized');
    expect((await t.registryState()).verifierCount).toBe(2);
  });

  it('refuses an admin key that did not sign: MissingSignature', async () => {
    const ix = withoutSignature(await t.setVerifierIx({ admin: t.admin.publicKey, verifier: Keypair.generate().publicKey, enabled: true }), t.admin.publicKey);
    expectError(await t.send(ix, []), 'MissingSignature');
  });

  it('refuses a forged registry at another address naming the attacker admin: InvalidPda', async () => {
    // Given a copy of the registry data with the attacker as admin, owned by our program
    const attacker = Keypair.generate();
    const data = Buffer.from((await t.rt.getAccount(t.registry))!.data);
    attacker.publicKey.toBuffer().copy(data, 8);
    const forged = Keypair.generate().publicKey;
    await t.rt.setAccount(forged, { lamports: 10_000_000, data, owner: t.programId });
    // When
    const ix = await t.setVerifierIx({ admin: attacker.publicKey, verifier: attacker.publicKey, enabled: true, registry: forged });
    // Then
    expectError(await t.send(ix, [attacker]), 'InvalidPda');
  });

  it('refuses a Registry-shaped account owned by another program at the PDA: InvalidAccountOwner', async () => {
    const acc = (await t.rt.getAccount(t.registry))!;
    await t.rt.setAccount(t.registry, { lamports: acc.lamports, data: acc.data, owner: TOKEN_2022_ID });
    expectError(await setVerifier(Keypair.generate().publicKey, true), 'InvalidAccountOwner');
  });

  it('refuses a registry account of another type: InvalidDiscriminator', async () => {
    const acc = (await t.rt.getAccount(t.registry))!;
    const data = Buffer.from(acc.data);
    Buffer.from(accountDiscriminator('Certificate')).copy(data, 0);
    await t.rt.setAccount(t.registry, { lamports: acc.lamports, data, owner: t.programId });
    expectError(await setVerifier(Keypair.generate().publicKey, true), 'InvalidDiscriminator');
  });

  it('refuses the zero key as a verifier: InvalidInstructionData', async () => {
    // A zero slot means "empty", so it can never be a verifier (program decision, notes/program-status.md).
    expectError(await setVerifier(PublicKey.default, true), 'InvalidInstructionData');
  });

  it('refuses truncated arguments: InvalidInstructionData', async () => {
    const ix = await t.setVerifierIx({ admin: t.admin.publicKey, verifier: Keypair.generate().publicKey, enabled: true });
    ix.data = ix.data.subarray(0, 8 + 31);
    expectError(await t.send(ix, [t.admin]), 'InvalidInstructionData');
  });

  it('refuses a bool argument that is neither 0 nor 1: InvalidInstructionData', async () => {
    const ix = await t.setVerifierIx({ admin: t.admin.publicKey, verifier: Keypair.generate().publicKey, enabled: true });
    ix.data[8 + 32] = 2;
    expectError(await t.send(ix, [t.admin]), 'InvalidInstructionData');
  });
});
