import { Keypair, SystemProgram, TransactionInstruction } from '@solana/web3.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { TOKEN_2022_ID } from '../../shared/program/ids';
import { registryPda } from '../../shared/program/pda';
import { Attesta, withAccount, withReadonly, withoutSignature } from './support/attesta';
import { expectError, expectOk } from './support/expect';
import { b58, plain } from './support/plain';
import { RUNTIMES } from './support/runtimes';

describe.each(RUNTIMES)('initialize [$name]', ({ start }) => {
  let t: Attesta;
  let admin: Keypair;
  beforeEach(async () => {
    t = new Attesta(await start());
    admin = await t.funded();
  });

  it('creates the registry with the signer as admin and first verifier', async () => {
    // When
    const res = await t.send(await t.initializeIx(admin.publicKey), [admin]);
    // Then
    expectOk(res);
    const r = await t.registryState();
    expect({ ...r, admin: b58(r.admin), verifiers: r.verifiers.map(b58) }).toEqual({
      admin: admin.publicKey.toBase58(),
      verifiers: [admin.publicKey.toBase58()],
      verifierCount: 1,
      bump: registryPda(t.programId)[1],
      issuerCount: 0n,
      certificateCount: 0n,
      verifiedCount: 0n,
      revokedCount: 0n,
      mintedCount: 0n,
    });
    expect(plain(t.events(res))).toEqual([{ name: 'registryInitialized', data: { admin: admin.publicKey.toBase58() } }]);
  });

  it('fails a second time: AccountAlreadyInitialized, and the first admin stays', async () => {
    // Given
    expectOk(await t.send(await t.initializeIx(admin.publicKey), [admin]));
    const other = await t.funded();
    // When
    const res = await t.send(await t.initializeIx(other.publicKey), [other]);
    // Then
    expectError(res, 'AccountAlreadyInitialized');
    expect(b58((await t.registryState()).admin)).toBe(admin.publicKey.toBase58());
  });

  it('refuses a registry address that is not the ["registry"] PDA: InvalidPda', async () => {
    const fake = Keypair.generate();
    const res = await t.send(await t.initializeIx(admin.publicKey, fake.publicKey), [admin]);
    expectError(res, 'InvalidPda');
  });

  it('refuses an admin that did not sign: MissingSignature', async () => {
    const ix = withoutSignature(await t.initializeIx(admin.publicKey), admin.publicKey);
    const res = await t.send(ix, []);
    expectError(res, 'MissingSignature');
    expect(await t.exists(t.registry)).toBe(false);
  });

  it('refuses a read-only registry: AccountNotWritable', async () => {
    const ix = withReadonly(await t.initializeIx(admin.publicKey), t.registry);
    expectError(await t.send(ix, [admin]), 'AccountNotWritable');
  });

  it('refuses a system program that is not the system program: InvalidProgramId', async () => {
    const ix = withAccount(await t.initializeIx(admin.publicKey), 2, TOKEN_2022_ID);
    expectError(await t.send(ix, [admin]), 'InvalidProgramId');
  });

  it('refuses too few accounts: NotEnoughAccounts', async () => {
    const full = await t.initializeIx(admin.publicKey);
    const ix = new TransactionInstruction({ programId: full.programId, data: full.data, keys: full.keys.slice(0, 2) });
    expectError(await t.send(ix, [admin]), 'NotEnoughAccounts');
  });

  it('still initializes when someone pre-funded the registry address (no griefing by a transfer)', async () => {
    // Given lamports sent to the PDA before initialize: a system-owned empty account
    await t.rt.setAccount(t.registry, { lamports: 1_000_000, data: new Uint8Array(0), owner: SystemProgram.programId });
    // When
    const res = await t.send(await t.initializeIx(admin.publicKey), [admin]);
    // Then: like Anchor's `init`, top up + allocate + assign instead of failing in create_account
    expectOk(res);
    expect(b58((await t.registryState()).admin)).toBe(admin.publicKey.toBase58());
  });
});
