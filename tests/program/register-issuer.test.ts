import { Keypair } from '@solana/web3.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { IssuerStatus, MAX_ISSUER_NAME, MAX_ISSUER_URI } from '../../shared/program/codec';
import { issuerPda } from '../../shared/program/pda';
import { Attesta, withoutSignature } from './support/attesta';
import { expectError, expectOk } from './support/expect';
import { givenRegistry } from './support/given';
import { b58, plain } from './support/plain';
import { RUNTIMES } from './support/runtimes';

describe.each(RUNTIMES)('register_issuer [$name]', ({ start }) => {
  let t: Attesta;
  let authority: Keypair;
  beforeEach(async () => {
    t = await givenRegistry(await start());
    authority = Keypair.generate();
  });
  const register = async (name: string, uri: string, who = authority) =>
    t.send(await t.registerIssuerIx({ authority: who.publicKey, name, uri }), [who]);

  it('registers a pending issuer at ["issuer", authority]', async () => {
    const now = await t.rt.now();
    // When
    const res = await register('Example University', 'example.edu');
    // Then
    expectOk(res);
    const issuer = await t.issuerState(authority.publicKey);
    expect({ ...issuer, authority: b58(issuer.authority) }).toEqual({
      authority: authority.publicKey.toBase58(),
      status: IssuerStatus.Pending,
      bump: issuerPda(authority.publicKey, t.programId)[1],
      registeredAt: now,
      updatedAt: now,
      name: 'Example University',
      uri: 'example.edu',
    });
    expect((await t.registryState()).issuerCount).toBe(1n);
    expect(plain(t.events(res))).toEqual([
      {
        name: 'issuerRegistered',
        data: { issuer: t.issuerPda(authority.publicKey).toBase58(), authority: authority.publicKey.toBase58(), name: 'Example University' },
      },
    ]);
  });

  it('accepts a separate payer (the authority need not hold SOL)', async () => {
    const payer = await t.funded();
    const ix = await t.registerIssuerIx({ authority: authority.publicKey, name: 'A', uri: '', payer: payer.publicKey });
    expectOk(await t.send(ix, [authority, payer]));
    expect((await t.issuerState(authority.publicKey)).uri).toBe('');
  });

  it('accepts the maximum name (64 bytes, counted in UTF-8) and URI (128 bytes)', async () => {
    const name = 'é'.repeat(MAX_ISSUER_NAME / 2);
    const uri = `https://${'u'.repeat(MAX_ISSUER_URI - 8)}`;
    expectOk(await register(name, uri));
    expect(await t.issuerState(authority.publicKey)).toMatchObject({ name, uri });
  });

  it.each([
    ['empty', ''],
    ['65 bytes', 'n'.repeat(MAX_ISSUER_NAME + 1)],
    ['33 two-byte characters (66 bytes)', 'é'.repeat(MAX_ISSUER_NAME / 2 + 1)],
  ])('refuses a name that is %s: InvalidName', async (_, name) => {
    expectError(await register(name, 'example.edu'), 'InvalidName');
    expect(await t.exists(t.issuerPda(authority.publicKey))).toBe(false);
  });

  it('refuses a 129-byte URI: InvalidUri', async () => {
    expectError(await register('A', 'u'.repeat(MAX_ISSUER_URI + 1)), 'InvalidUri');
  });

  it('refuses a second registration of the same authority: AccountAlreadyInitialized', async () => {
    expectOk(await register('First', ''));
    expectError(await register('Second', ''), 'AccountAlreadyInitialized');
    expect((await t.issuerState(authority.publicKey)).name).toBe('First');
    expect((await t.registryState()).issuerCount).toBe(1n);
  });

  it('refuses an authority that did not sign: MissingSignature', async () => {
    const ix = withoutSignature(await t.registerIssuerIx({ authority: authority.publicKey, name: 'A', uri: '' }), authority.publicKey);
    expectError(await t.send(ix, []), 'MissingSignature');
  });

  it('refuses the issuer PDA of another authority: InvalidPda', async () => {
    const other = Keypair.generate();
    const ix = await t.registerIssuerIx({ authority: authority.publicKey, name: 'A', uri: '', issuer: t.issuerPda(other.publicKey) });
    expectError(await t.send(ix, [authority]), 'InvalidPda');
  });

  it('refuses a registry copy at an address that is not the registry PDA: InvalidPda', async () => {
    const acc = (await t.rt.getAccount(t.registry))!;
    const forged = Keypair.generate().publicKey;
    await t.rt.setAccount(forged, { lamports: acc.lamports, data: acc.data, owner: t.programId });
    const ix = await t.registerIssuerIx({ authority: authority.publicKey, name: 'A', uri: '', registry: forged });
    expectError(await t.send(ix, [authority]), 'InvalidPda');
  });

  it('refuses a registry address with no account: InvalidAccountOwner', async () => {
    const ix = await t.registerIssuerIx({ authority: authority.publicKey, name: 'A', uri: '', registry: Keypair.generate().publicKey });
    expectError(await t.send(ix, [authority]), 'InvalidAccountOwner');
  });

  it('accepts the authority paying for itself (the same key twice in the instruction)', async () => {
    const self = await t.funded();
    expectOk(await t.send(await t.registerIssuerIx({ authority: self.publicKey, name: 'Self', uri: '', payer: self.publicKey }), [self]));
    expect((await t.issuerState(self.publicKey)).name).toBe('Self');
  });

  it('refuses a string length prefix running past the data: InvalidInstructionData', async () => {
    const ix = await t.registerIssuerIx({ authority: authority.publicKey, name: 'A', uri: '' });
    ix.data.writeUInt32LE(1_000, 8);
    expectError(await t.send(ix, [authority]), 'InvalidInstructionData');
  });

  it('refuses a name that is not UTF-8 (Borsh strings are UTF-8): InvalidInstructionData', async () => {
    const ix = await t.registerIssuerIx({ authority: authority.publicKey, name: 'AB', uri: '' });
    ix.data[8 + 4] = 0xff;
    expectError(await t.send(ix, [authority]), 'InvalidInstructionData');
  });
});
