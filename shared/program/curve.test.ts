// The curve check and the derivation must answer exactly as web3.js does: an address that differs by
// one bump is another account, and a record the program wrote would not be found.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Keypair, PublicKey } from '@solana/web3.js';
import { findProgramAddress, isOnCurve } from './curve';
import { CERTIFICATES_PROGRAM_ID } from './ids';
import { CERTIFICATE_SEED, ISSUER_SEED, REGISTRY_SEED } from './pda';

const P = 2n ** 255n - 19n;
/** y little-endian in the low 255 bits, the sign of x in the top bit. */
function encode(y: bigint, sign = 0): Uint8Array {
  const bytes = new Uint8Array(32);
  for (let i = 0; i < 32; i++) bytes[i] = Number((y >> BigInt(8 * i)) & 0xffn);
  bytes[31] |= sign << 7;
  return bytes;
}

describe('isOnCurve', () => {
  it('answers as web3.js for 10,000 random byte strings, about half of them points', () => {
    let points = 0;
    const differ: string[] = [];
    for (let i = 0; i < 10_000; i++) {
      const b = randomBytes(32);
      const expected = PublicKey.isOnCurve(b);
      if (expected) points++;
      if (isOnCurve(b) !== expected) differ.push(b.toString('hex'));
    }
    expect(differ).toEqual([]);
    expect(points).toBeGreaterThan(4_500);
    expect(points).toBeLessThan(5_500);
  });

  it('answers as web3.js at the edges: x = 0 with either sign, y = p − 1, non-canonical y ≥ p, and real public keys', () => {
    const cases: Uint8Array[] = [];
    for (const y of [0n, 1n, 2n, P - 2n, P - 1n, P, P + 1n, P + 18n, 2n ** 255n - 1n]) for (const sign of [0, 1]) cases.push(encode(y, sign));
    for (let i = 0; i < 50; i++) cases.push(Keypair.generate().publicKey.toBytes());
    const answers = cases.map((b) => [Buffer.from(b).toString('hex'), isOnCurve(b)]);
    expect(answers).toEqual(cases.map((b) => [Buffer.from(b).toString('hex'), PublicKey.isOnCurve(b)]));
    // The cases are not all alike: y = 1 (the identity) is a point, its "negative zero" is not; y ≥ p never is.
    expect(isOnCurve(encode(1n))).toBe(true);
    expect(isOnCurve(encode(1n, 1))).toBe(false);
    expect(isOnCurve(encode(P + 1n))).toBe(false);
    for (let i = 0; i < 50; i++) expect(isOnCurve(Keypair.generate().publicKey.toBytes())).toBe(true);
  });

  it('refuses anything but 32 bytes', () => {
    expect(() => isOnCurve(new Uint8Array(31))).toThrow(/32 bytes/);
  });
});

describe('findProgramAddress', () => {
  it('derives the address and bump web3.js derives, for 2,000 certificate hashes and issuers', () => {
    const bumps = new Set<number>();
    for (let i = 0; i < 1_000; i++) {
      for (const seeds of [[CERTIFICATE_SEED, randomBytes(32)], [ISSUER_SEED, Keypair.generate().publicKey.toBytes()]]) {
        const [address, bump] = findProgramAddress(seeds, CERTIFICATES_PROGRAM_ID);
        const [expected, expectedBump] = PublicKey.findProgramAddressSync(seeds, CERTIFICATES_PROGRAM_ID);
        expect([address.toBase58(), bump]).toEqual([expected.toBase58(), expectedBump]);
        bumps.add(bump);
      }
    }
    // Half the first candidates are on the curve: the derivation went past 255 many times.
    expect(Math.min(...bumps)).toBeLessThan(250);
    const registry = findProgramAddress([REGISTRY_SEED], CERTIFICATES_PROGRAM_ID);
    expect(registry[0].toBase58()).toBe(PublicKey.findProgramAddressSync([REGISTRY_SEED], CERTIFICATES_PROGRAM_ID)[0].toBase58());
  });

  it('refuses a seed longer than 32 bytes, as web3.js does', () => {
    expect(() => findProgramAddress([new Uint8Array(33)], CERTIFICATES_PROGRAM_ID)).toThrow(TypeError);
    expect(() => PublicKey.findProgramAddressSync([new Uint8Array(33)], CERTIFICATES_PROGRAM_ID)).toThrow(TypeError);
  });
});
