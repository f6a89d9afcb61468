import { bytesToHex as hex } from '@noble/hashes/utils';
import { PublicKey } from '@solana/web3.js';
import { findProgramAddress } from './curve';
import { CERTIFICATES_PROGRAM_ID } from './ids';

// Seeds per SPEC.md; every helper takes the program id so the same code serves any deployment.
export const REGISTRY_SEED = new TextEncoder().encode('registry');
export const ISSUER_SEED = new TextEncoder().encode('issuer');
export const CERTIFICATE_SEED = new TextEncoder().encode('certificate');

// Deriving a program address costs a SHA-256 and a curve check per bump tried (~0.1 ms: curve.ts).
// The registry's and the institutions' are few and asked for all the time: kept, bounded. A
// certificate's is not kept: each hash is one certificate, named a few times within one request, and a
// verify of hashes nobody anchored (a flood of made-up ones) filled the map with addresses asked once,
// which outlived young-generation collections and were promoted (#15).
const DERIVED_MAX = 20_000;
const derived = new Map<string, [PublicKey, number]>();
const programKeys = new WeakMap<PublicKey, string>();
const programKey = (p: PublicKey) => {
  let k = programKeys.get(p);
  if (k === undefined) programKeys.set(p, (k = hex(p.toBytes())));
  return k;
};

function findPda(seeds: Uint8Array[], programId: PublicKey): [PublicKey, number] {
  const key = `${programKey(programId)}:${seeds.map(hex).join(':')}`;
  let found = derived.get(key);
  if (!found) {
    found = findProgramAddress(seeds, programId);
    if (derived.size >= DERIVED_MAX) derived.delete(derived.keys().next().value!);
    derived.set(key, found);
  }
  return [found[0], found[1]];
}

export function registryPda(programId: PublicKey = CERTIFICATES_PROGRAM_ID): [PublicKey, number] {
  return findPda([REGISTRY_SEED], programId);
}

export function issuerPda(authority: PublicKey, programId: PublicKey = CERTIFICATES_PROGRAM_ID): [PublicKey, number] {
  return findPda([ISSUER_SEED, authority.toBytes()], programId);
}

/** The address *is* the commitment to the document's SHA-256. */
export function certificatePda(hash: Uint8Array, programId: PublicKey = CERTIFICATES_PROGRAM_ID): [PublicKey, number] {
  if (hash.length !== 32) throw new Error(`certificate hash must be 32 bytes, got ${hash.length}`);
  return findProgramAddress([CERTIFICATE_SEED, hash], programId);
}
