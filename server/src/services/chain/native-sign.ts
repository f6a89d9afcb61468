// Ed25519 signing with Node's crypto (OpenSSL) instead of web3.js's JavaScript implementation: the
// same signatures (Ed25519 is deterministic), ~20× less CPU per transaction. The embedded chain signs
// every transaction it runs (EmbeddedChain.prepare), so this is on its hot path.
import { createPrivateKey, sign as cryptoSign, type KeyObject } from 'node:crypto';
import type { Signer, Transaction } from '@solana/web3.js';

const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const signingKeys = new Map<string, KeyObject>();

function signingKey(s: Signer): KeyObject {
  const id = s.publicKey.toBase58();
  let k = signingKeys.get(id);
  if (!k) {
    k = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, Buffer.from(s.secretKey.subarray(0, 32))]), format: 'der', type: 'pkcs8' });
    if (signingKeys.size >= 1000) signingKeys.delete(signingKeys.keys().next().value!);
    signingKeys.set(id, k);
  }
  return k;
}

/** What `tx.sign(...signers)` does (signer order, fee payer first), signing natively. */
export function signNatively(tx: Transaction, signers: Signer[]) {
  const unique = signers.filter((s, i) => signers.findIndex((o) => o.publicKey.equals(s.publicKey)) === i);
  tx.signatures = unique.map((s) => ({ signature: null, publicKey: s.publicKey }));
  const message = tx.serializeMessage(); // compiles, and orders `signatures` as the message's signers
  for (const s of unique) tx.addSignature(s.publicKey, cryptoSign(null, message, signingKey(s)));
}
