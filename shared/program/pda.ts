import { PublicKey } from '@solana/web3.js';
import { CERTIFICATES_PROGRAM_ID } from './ids';

// Seeds per SPEC.md; every helper takes the program id so the same code serves any deployment.
export const REGISTRY_SEED = new TextEncoder().encode('registry');
export const ISSUER_SEED = new TextEncoder().encode('issuer');
export const CERTIFICATE_SEED = new TextEncoder().encode('certificate');

export function registryPda(programId: PublicKey = CERTIFICATES_PROGRAM_ID): [PublicKey, number] {
  return PublicKey.findProgramAddressSync([REGISTRY_SEED], programId);
}

export function issuerPda(authority: PublicKey, programId: PublicKey = CERTIFICATES_PROGRAM_ID): [PublicKey, number] {
  return PublicKey.findProgramAddressSync([ISSUER_SEED, authority.toBytes()], programId);
}

/** The address *is* the commitment to the document's SHA-256. */
export function certificatePda(hash: Uint8Array, programId: PublicKey = CERTIFICATES_PROGRAM_ID): [PublicKey, number] {
  if (hash.length !== 32) throw new Error(`certificate hash must be 32 bytes, got ${hash.length}`);
  return PublicKey.findProgramAddressSync([CERTIFICATE_SEED, hash], programId);
}
