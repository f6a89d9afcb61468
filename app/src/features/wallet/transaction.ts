// Adds one signature to a serialized Solana transaction (legacy or v0) without @solana/web3.js: the
// development wallet signs the bytes the server prepared, exactly as web3.js's `partialSign` (legacy)
// and `sign` (v0) would, and returns them re-serialized, unchanged but for that signature.
//
// Wire format: compact-u16 signature count, the signatures (64 bytes each), then the message. A v0
// message starts with 0x80 | version; both then carry the header (numRequiredSignatures first) and
// the compact-u16 count of static account keys; the first numRequiredSignatures keys are the signers,
// in signature order.

function compactU16(bytes: Uint8Array, offset: number): [value: number, size: number] {
  let value = 0;
  for (let size = 0; size < 3; size++) {
    const byte = bytes[offset + size];
    if (byte === undefined) break;
    value |= (byte & 0x7f) << (size * 7);
    if ((byte & 0x80) === 0) return [value, size + 1];
  }
  throw new Error('Malformed transaction: bad compact-u16');
}

function equal(a: Uint8Array, b: Uint8Array) {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** The message bytes (what each signer signs) and where signer `publicKey`'s signature goes. */
export function signerSlot(transaction: Uint8Array, publicKey: Uint8Array): { message: Uint8Array; signatureOffset: number } {
  const [sigCount, sigLen] = compactU16(transaction, 0);
  const messageOffset = sigLen + sigCount * 64;
  const message = transaction.subarray(messageOffset);
  if (message.length < 4) throw new Error('Malformed transaction: message too short');
  let offset = 0;
  if (message[0] & 0x80) {
    const version = message[0] & 0x7f;
    if (version !== 0) throw new Error(`Transaction version ${version} is not supported`);
    offset = 1;
  }
  const numRequiredSignatures = message[offset];
  offset += 3;
  const [keyCount, keyLen] = compactU16(message, offset);
  offset += keyLen;
  if (numRequiredSignatures > keyCount || message.length < offset + keyCount * 32) throw new Error('Malformed transaction: account keys');
  if (sigCount !== numRequiredSignatures) throw new Error('Malformed transaction: signature count');
  for (let i = 0; i < numRequiredSignatures; i++) {
    if (equal(message.subarray(offset + i * 32, offset + (i + 1) * 32), publicKey)) return { message, signatureOffset: sigLen + i * 64 };
  }
  throw new Error('Cannot sign with non signer key');
}

/** `transaction` with `sign(message)` placed in `publicKey`'s signature slot (a new array). */
export function addSignature(transaction: Uint8Array, publicKey: Uint8Array, sign: (message: Uint8Array) => Uint8Array): Uint8Array {
  const { message, signatureOffset } = signerSlot(transaction, publicKey);
  const signature = sign(message);
  if (signature.length !== 64) throw new Error('Bad signature length');
  const signed = Uint8Array.from(transaction);
  signed.set(signature, signatureOffset);
  return signed;
}
