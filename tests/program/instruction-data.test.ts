// Dispatch: every instruction starts with an 8-byte Anchor discriminator; anything else is refused
// by name, never a panic or a silent success.
import { Keypair, TransactionInstruction } from '@solana/web3.js';
import { beforeEach, describe, it } from 'vitest';
import { accountDiscriminator, instructionDiscriminator } from '../../shared/program/discriminators';
import { Attesta } from './support/attesta';
import { expectError } from './support/expect';
import { givenRegistry } from './support/given';
import { RUNTIMES } from './support/runtimes';

describe.each(RUNTIMES)('instruction data [$name]', ({ start }) => {
  let t: Attesta;
  beforeEach(async () => {
    t = await givenRegistry(await start());
  });
  const raw = (data: Uint8Array, keys = [{ pubkey: t.registry, isSigner: false, isWritable: true }]) =>
    t.send(new TransactionInstruction({ programId: t.programId, keys, data: Buffer.from(data) }), []);

  it.each([
    ['empty data', new Uint8Array(0)],
    ['3 bytes', new Uint8Array([1, 2, 3])],
    ['7 bytes of a real discriminator', instructionDiscriminator('initialize').slice(0, 7)],
    ['an unknown discriminator', new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8])],
    ['an account discriminator', accountDiscriminator('Registry')],
  ])('refuses %s: InvalidInstruction', async (_, data) => {
    expectError(await raw(data), 'InvalidInstruction');
  });

  it.each(['set_verifier', 'register_issuer', 'set_issuer_status', 'anchor_certificate', 'issue_certificate', 'request_confirmation', 'confirm_certificate', 'record_verification', 'mint_certificate', 'revoke_certificate'])(
    '%s with no arguments: InvalidInstructionData',
    async (name) => {
      // Enough accounts for every instruction, so only the data can be at fault.
      const keys = Array.from({ length: 7 }, () => ({ pubkey: Keypair.generate().publicKey, isSigner: false, isWritable: false }));
      expectError(await raw(instructionDiscriminator(name), keys), 'InvalidInstructionData');
    },
  );
});
