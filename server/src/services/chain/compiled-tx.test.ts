// A transaction compiled once (compiled-tx.ts) must be byte for byte what web3.js makes of it: the
// same wire bytes as Transaction.sign + serialize, the same signer order, the same fee.
import { ComputeBudgetProgram, Keypair, PublicKey, SystemProgram, Transaction, TransactionInstruction } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { compileAndSign, compileSigned, LAMPORTS_PER_SIGNATURE, messageFee } from './compiled-tx';

const blockhash = new PublicKey(Buffer.alloc(32, 9)).toBase58();
const program = new PublicKey(Buffer.alloc(32, 5));

function transaction(payer: Keypair, other: Keypair, extra: TransactionInstruction[] = []) {
  const tx = new Transaction().add(
    ...extra,
    new TransactionInstruction({
      programId: program,
      keys: [
        { pubkey: other.publicKey, isSigner: true, isWritable: false },
        { pubkey: Keypair.generate().publicKey, isSigner: false, isWritable: true },
        { pubkey: SystemProgram.programId, isSigner: false, isWritable: false },
      ],
      data: Buffer.from([1, 2, 3, 250]),
    }),
  );
  tx.feePayer = payer.publicKey;
  tx.recentBlockhash = blockhash;
  return tx;
}

describe('compiled transactions', () => {
  it('signs and lays out a transaction exactly as web3.js does, signers in any order', () => {
    const payer = Keypair.generate();
    const other = Keypair.generate();
    const tx = transaction(payer, other);
    const reference = Transaction.from(tx.serialize({ requireAllSignatures: false, verifySignatures: false }));
    reference.sign(payer, other);

    const compiled = compileAndSign(tx, [other, payer]);
    expect(Buffer.from(compiled.wire).equals(reference.serialize())).toBe(true);
    expect(tx.signature && Buffer.from(tx.signature).equals(reference.signature!)).toBe(true);
    expect(tx.verifySignatures()).toBe(true);
    expect(compiled.accountKeys).toEqual(reference.compileMessage().accountKeys.map((k) => k.toBase58()));
    expect(compiled.accountKeys[0]).toBe(payer.publicKey.toBase58());
    expect(compiled.writable).toEqual([payer.publicKey.toBase58(), tx.instructions[0].keys[1].pubkey.toBase58()]);
    expect(compiled.blockhash).toBe(blockhash);
    expect(compiled.fee).toBe(2 * LAMPORTS_PER_SIGNATURE);
  });

  it('refuses a signer the transaction does not ask for, as web3.js does', () => {
    const payer = Keypair.generate();
    const stranger = Keypair.generate();
    expect(() => compileAndSign(transaction(payer, Keypair.generate()), [payer, stranger])).toThrow(/unknown signer/);
  });

  it('leaves the signature of a signer not given empty (a wallet signs it later)', () => {
    const payer = Keypair.generate();
    const wallet = Keypair.generate();
    const tx = transaction(payer, wallet);
    const compiled = compileAndSign(tx, [payer]);
    const back = Transaction.from(compiled.wire);
    expect(back.signatures.map((s) => s.signature === null)).toEqual([false, true]);
    back.partialSign(wallet);
    expect(back.verifySignatures()).toBe(true);
  });

  it('takes a transaction its signers signed as it is: the same bytes as serialize', () => {
    const payer = Keypair.generate();
    const other = Keypair.generate();
    const signed = transaction(payer, other);
    signed.sign(payer, other);
    const wire = signed.serialize();
    const received = Transaction.from(wire);
    expect(Buffer.from(compileSigned(received).wire).equals(wire)).toBe(true);
  });

  it('a wallet-signed transaction with a signature missing keeps it empty (the chain refuses it, not the layout)', () => {
    const payer = Keypair.generate();
    const signed = transaction(payer, Keypair.generate());
    signed.partialSign(payer);
    const compiled = compileSigned(Transaction.from(signed.serialize({ requireAllSignatures: false })));
    expect(Buffer.from(compiled.wire.subarray(1 + 64, 1 + 128)).equals(Buffer.alloc(64))).toBe(true);
  });

  it('counts the compute-budget priority fee as a validator does', () => {
    const payer = Keypair.generate();
    const other = Keypair.generate();
    const budget = [ComputeBudgetProgram.setComputeUnitLimit({ units: 300_000 }), ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 1_000_001 })];
    const compiled = compileAndSign(transaction(payer, other, budget), [payer, other]);
    // 2 signatures + ceil(1,000,001 µlamports × 300,000 units / 1,000,000)
    expect(compiled.fee).toBe(2 * LAMPORTS_PER_SIGNATURE + 300_001);
    // Without a unit limit: 200,000 units per instruction that is not a compute-budget one.
    const priced = compileAndSign(transaction(payer, other, [budget[1]]), [payer, other]);
    expect(priced.fee).toBe(2 * LAMPORTS_PER_SIGNATURE + Math.ceil((1_000_001 * 200_000) / 1_000_000));
    expect(messageFee(Transaction.from(priced.wire).compileMessage())).toBe(priced.fee);
  });
});
