import { ed25519 } from '@noble/curves/ed25519';
import { bytesToNumberLE } from '@noble/curves/utils';
import { sha256 } from '@noble/hashes/sha2';
import { PublicKey } from '@solana/web3.js';

// Program addresses as web3.js's PublicKey.findProgramAddressSync derives them, at about a fifth of the
// cost. Its curve check decompresses each candidate (a square root: ~250 BigInt squarings) only to
// throw the point away, and throws an Error for every candidate on the curve: ~500 µs an address, the
// larger part of the CPU a verify of a hash nobody anchored costs. Whether a point exists only needs
// the Jacobi symbol, a Euclid-like loop. curve.test.ts holds both equal, edge cases included.

// The field prime p = 2²⁵⁵ − 19 and the curve constant d, as noble (web3.js's curve library) has them.
const { Fp: { ORDER: P }, d: D } = ed25519.CURVE;
const Y_MASK = (1n << 255n) - 1n;
const PDA_MARKER = new TextEncoder().encode('ProgramDerivedAddress');
const MAX_SEED_LENGTH = 32;

/** (a/n) for odd n > 0: 1, −1, or 0 when they share a factor. */
function jacobi(a: bigint, n: bigint): number {
  let t = 1;
  a %= n;
  while (a !== 0n) {
    let twos = 0;
    while ((a & 1n) === 0n) {
      a >>= 1n;
      twos++;
    }
    const r = n & 7n;
    if (twos & 1 && (r === 3n || r === 5n)) t = -t;
    [a, n] = [n, a];
    if ((a & 3n) === 3n && (n & 3n) === 3n) t = -t;
    a %= n;
  }
  return n === 1n ? t : 0;
}

/**
 * Whether 32 bytes decode to an ed25519 point, exactly as web3.js's `PublicKey.isOnCurve` answers
 * (noble's RFC 8032 decoding): y (the low 255 bits, little-endian) must be below p, x² = (y² − 1)/(d·y² + 1)
 * must be a square mod p (the denominator is never 0: −1/d is not a square), and x = 0 may not carry
 * the sign bit. u/v is a square exactly when u·v is.
 */
export function isOnCurve(bytes: Uint8Array): boolean {
  if (bytes.length !== 32) throw new Error(`a point is 32 bytes, got ${bytes.length}`);
  const y = bytesToNumberLE(bytes) & Y_MASK;
  if (y >= P) return false;
  const y2 = (y * y) % P;
  const u = (y2 + P - 1n) % P;
  if (u === 0n) return (bytes[31] & 0x80) === 0; // x = 0
  const v = (D * y2 + 1n) % P;
  return jacobi((u * v) % P, P) === 1;
}

/** web3.js's `PublicKey.findProgramAddressSync`: the first bump from 255 down whose address is off the curve. */
export function findProgramAddress(seeds: Uint8Array[], programId: PublicKey): [PublicKey, number] {
  for (const seed of seeds) if (seed.length > MAX_SEED_LENGTH) throw new TypeError('Max seed length exceeded');
  const program = programId.toBytes();
  const length = seeds.reduce((n, s) => n + s.length, 0);
  const input = new Uint8Array(length + 1 + program.length + PDA_MARKER.length);
  let at = 0;
  for (const seed of seeds) {
    input.set(seed, at);
    at += seed.length;
  }
  const bumpAt = at;
  input.set(program, bumpAt + 1);
  input.set(PDA_MARKER, bumpAt + 1 + program.length);
  for (let bump = 255; bump > 0; bump--) {
    input[bumpAt] = bump;
    const address = sha256(input);
    if (!isOnCurve(address)) return [new PublicKey(address), bump];
  }
  throw new Error('Unable to find a viable program address nonce');
}
