import { PublicKey } from '@solana/web3.js';

/** Anchor-decoded values → comparable plain values (base58 keys, bigint numbers, number[] bytes). */
export function plain(v: unknown): unknown {
  if (v instanceof PublicKey) return v.toBase58();
  // Anchor decodes 64-bit integers as bn.js numbers.
  if (v && typeof v === 'object' && 'toTwos' in v) return BigInt(String(v));
  if (v instanceof Uint8Array) return Array.from(v);
  if (Array.isArray(v)) return v.map(plain);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  return v;
}

export const b58 = (k: PublicKey | null | undefined) => (k ? k.toBase58() : null);
