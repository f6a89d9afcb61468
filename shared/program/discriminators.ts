import { sha256 } from '@noble/hashes/sha2';

// Anchor's ABI: the first 8 bytes of sha256("<namespace>:<name>").
function disc(preimage: string): Uint8Array {
  return sha256(new TextEncoder().encode(preimage)).slice(0, 8);
}

/** `name` is the snake_case instruction name, e.g. `mint_certificate`. */
export const instructionDiscriminator = (name: string) => disc(`global:${name}`);
/** `name` is the PascalCase account name, e.g. `Certificate`. */
export const accountDiscriminator = (name: string) => disc(`account:${name}`);
/** `name` is the PascalCase event name, e.g. `CertificateMinted`. */
export const eventDiscriminator = (name: string) => disc(`event:${name}`);
