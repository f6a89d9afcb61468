// The embedded chain speaks to LiteSVM's native binding in bytes (svm-native.ts): what it reads and
// writes must be what litesvm's own JavaScript API reads and writes, and a litesvm that moved its
// binding must fail at start with what to look at.
import bs58 from 'bs58';
import { Keypair, SystemProgram, Transaction } from '@solana/web3.js';
import { LiteSVM, TransactionMetadata } from 'litesvm';
import { describe, expect, it } from 'vitest';
import { compileAndSign } from './compiled-tx';
import { address } from './kit';
import { NativeSvm } from './svm-native';

const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';

describe('LiteSVM through its native binding', () => {
  it('reads and writes accounts as litesvm’s own API does, owners in base58 both ways', () => {
    const svm = new LiteSVM();
    const native = NativeSvm.of(svm);
    const owners = [TOKEN_PROGRAM, Keypair.generate().publicKey.toBase58(), SystemProgram.programId.toBase58()];
    for (const [i, owner] of owners.entries()) {
      const key = Keypair.generate().publicKey.toBase58();
      const data = Uint8Array.from({ length: 40 + i }, (_, k) => (k * 7 + i) % 256);
      native.setAccount(key, { owner, lamports: 5_000_000n + BigInt(i), data, executable: false });
      // Twice: the second read comes through the remembered owner.
      for (let r = 0; r < 2; r++) expect(native.getAccount(key)).toEqual({ owner, lamports: 5_000_000n + BigInt(i), data, executable: false });
      const seen = svm.getAccount(address(key));
      expect(seen.exists && { owner: seen.programAddress, lamports: seen.lamports, data: seen.data }).toEqual({ owner, lamports: 5_000_000n + BigInt(i), data });
      expect(native.getBalance(key)).toBe(5_000_000n + BigInt(i));
    }
    const absent = Keypair.generate().publicKey.toBase58();
    expect(native.getAccount(absent)).toBeNull();
    expect(native.getBalance(absent)).toBeNull();
    // An account written with zero lamports is gone, as LiteSVM removes it (the working set's eviction).
    const gone = Keypair.generate().publicKey.toBase58();
    native.setAccount(gone, { owner: TOKEN_PROGRAM, lamports: 7n, data: new Uint8Array(3), executable: false });
    native.setAccount(gone, { owner: SystemProgram.programId.toBase58(), lamports: 0n, data: new Uint8Array(0), executable: false });
    expect(native.getAccount(gone)).toBeNull();
  });

  it('runs a transaction from its wire bytes, and refuses it when a signature is wrong', () => {
    const svm = new LiteSVM();
    const native = NativeSvm.of(svm);
    const payer = Keypair.generate();
    const to = Keypair.generate().publicKey;
    svm.airdrop(address(payer.publicKey.toBase58()), 1_000_000_000n as never);
    const transfer = (lamports: number) => {
      const tx = new Transaction().add(SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: to, lamports }));
      tx.feePayer = payer.publicKey;
      tx.recentBlockhash = svm.latestBlockhash();
      return compileAndSign(tx, [payer]);
    };
    const simulated = native.simulateLegacy(transfer(1_000_000).wire);
    expect(simulated.meta().logs().join('\n')).toContain('success');
    expect(native.getBalance(to.toBase58())).toBeNull(); // a simulation changes nothing

    const res = native.sendLegacy(transfer(2_000_000).wire);
    expect(res).toBeInstanceOf(TransactionMetadata);
    expect(native.getBalance(to.toBase58())).toBe(2_000_000n);

    const forged = transfer(3_000_000);
    forged.wire[1] ^= 0xff; // the payer's signature, one byte changed
    expect(native.sendLegacy(forged.wire)).not.toBeInstanceOf(TransactionMetadata);
    expect(native.getBalance(to.toBase58())).toBe(2_000_000n);
  });

  // The binding panics on a key that is not 32 bytes, and a Rust panic there aborts the process.
  it('refuses a key that is not an address with an error, before the binding sees it', () => {
    const native = NativeSvm.of(new LiteSVM());
    const short = bs58.encode(new Uint8Array(31).fill(1));
    const long = bs58.encode(new Uint8Array(33).fill(1));
    const account = { owner: SystemProgram.programId.toBase58(), lamports: 1n, data: new Uint8Array(0), executable: false };
    expect(() => native.getAccount(short)).toThrow(`Not an address (31 bytes, an address has 32): ${short}`);
    expect(() => native.getBalance(long)).toThrow('(33 bytes, an address has 32)');
    expect(() => native.setAccount(short, account)).toThrow('(31 bytes');
    expect(() => native.setAccount(Keypair.generate().publicKey.toBase58(), { ...account, owner: long })).toThrow('(33 bytes');
    expect(() => native.getAccount('0OIl')).toThrow(); // not base58 at all
  });

  it('fails at once, naming the file to update, when litesvm keeps its binding elsewhere', () => {
    expect(() => NativeSvm.of({} as LiteSVM)).toThrow(/native binding has no getAccount at LiteSVM.inner: server\/src\/services\/chain\/svm-native.ts/);
    const moved = Object.assign(Object.create(LiteSVM.prototype), { inner: { getAccount() {} } }) as LiteSVM;
    expect(() => NativeSvm.of(moved)).toThrow(/has no getBalance/);
  });
});
