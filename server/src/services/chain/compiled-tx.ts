// A legacy transaction compiled once for the embedded chain. web3.js compiles a Transaction's message
// again at every serialize, sign and fee estimate (each a base58 encoding of every key): the embedded
// chain did so five times per transaction it ran. Here the message is compiled once, signed with
// Node's crypto (OpenSSL: the same Ed25519 signatures as web3.js's JavaScript, ~20× less CPU) and laid
// out on the wire as Transaction.serialize does; its bytes, keys and fee travel with it.
import { createPrivateKey, sign as cryptoSign, type KeyObject } from 'node:crypto';
import type { Message, Signer, Transaction } from '@solana/web3.js';
import bs58 from 'bs58';

/** Largest serialized transaction a cluster accepts (web3.js PACKET_DATA_SIZE). */
const PACKET_DATA_SIZE = 1232;
/** LiteSVM's default fee per signature, as a validator's. */
export const LAMPORTS_PER_SIGNATURE = 5000;
const COMPUTE_BUDGET_PROGRAM = 'ComputeBudget111111111111111111111111111111';

export interface CompiledTx {
  tx: Transaction;
  /** The serialized transaction: signatures, then the message. */
  wire: Uint8Array;
  /** The message's account keys in order (base58), and those it may write. */
  accountKeys: string[];
  writable: string[];
  blockhash: string;
  /** Lamports the transaction pays (signatures plus any compute-budget priority fee). */
  fee: number;
}

const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const signingKeys = new Map<string, KeyObject>();

function signingKey(s: Signer, id: string): KeyObject {
  let k = signingKeys.get(id);
  if (!k) {
    k = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, Buffer.from(s.secretKey.subarray(0, 32))]), format: 'der', type: 'pkcs8' });
    if (signingKeys.size >= 1000) signingKeys.delete(signingKeys.keys().next().value!);
    signingKeys.set(id, k);
  }
  return k;
}

/** Signs `tx` (fee payer and recent blockhash set) with `signers` and compiles it once. */
export function compileAndSign(tx: Transaction, signers: Signer[]): CompiledTx {
  const message = tx.compileMessage();
  const bytes = message.serialize();
  const keys = message.accountKeys.map((k) => k.toBase58());
  const required = message.header.numRequiredSignatures;
  const byKey = new Map(signers.map((s) => [s.publicKey.toBase58(), s]));
  for (const id of byKey.keys()) if (keys.indexOf(id) < 0 || keys.indexOf(id) >= required) throw new Error(`unknown signer: ${id}`);
  tx.signatures = message.accountKeys.slice(0, required).map((publicKey, i) => {
    const s = byKey.get(keys[i]);
    return { publicKey, signature: s ? cryptoSign(null, bytes, signingKey(s, keys[i])) : null };
  });
  return laidOut(tx, message, keys, bytes);
}

/** A transaction its signers already signed (a wallet's): compiled once, signatures as they are. */
export function compileSigned(tx: Transaction): CompiledTx {
  const message = tx.compileMessage();
  const keys = message.accountKeys.map((k) => k.toBase58());
  const required = message.header.numRequiredSignatures;
  // Signatures in the message's signer order (Transaction.from keeps them so; a rebuilt one may not).
  const sigs = new Map(tx.signatures.map((p) => [p.publicKey.toBase58(), p.signature]));
  tx.signatures = message.accountKeys.slice(0, required).map((publicKey, i) => ({ publicKey, signature: sigs.get(keys[i]) ?? null }));
  return laidOut(tx, message, keys, message.serialize());
}

function laidOut(tx: Transaction, message: Message, keys: string[], bytes: Buffer): CompiledTx {
  const count = shortVec(tx.signatures.length);
  const wire = Buffer.alloc(count.length + tx.signatures.length * 64 + bytes.length);
  wire.set(count, 0);
  tx.signatures.forEach(({ signature }, i) => {
    if (signature) wire.set(signature, count.length + i * 64);
  });
  wire.set(bytes, count.length + tx.signatures.length * 64);
  if (wire.length > PACKET_DATA_SIZE) throw new Error(`Transaction too large: ${wire.length} > ${PACKET_DATA_SIZE}`);
  return {
    tx,
    wire,
    accountKeys: keys,
    writable: keys.filter((_, i) => message.isAccountWritable(i)),
    blockhash: message.recentBlockhash,
    fee: messageFee(message),
  };
}

/** Solana's compact-u16 length prefix. */
function shortVec(n: number): Uint8Array {
  const out: number[] = [];
  for (;;) {
    let b = n & 0x7f;
    n >>= 7;
    if (n === 0) return Uint8Array.from([...out, b]);
    b |= 0x80;
    out.push(b);
  }
}

/** Fee charged for a legacy message: per signature plus the compute-budget priority fee. */
export function messageFee(message: Message): number {
  let fee = message.header.numRequiredSignatures * LAMPORTS_PER_SIGNATURE;
  const budget = message.accountKeys.findIndex((k) => k.toBase58() === COMPUTE_BUDGET_PROGRAM);
  let limit: number | null = null;
  let price = 0n;
  let count = 0;
  for (const ix of message.instructions) {
    if (ix.programIdIndex !== budget) {
      count++;
      continue;
    }
    const d = Buffer.from(bs58.decode(ix.data));
    if (d[0] === 2 && d.length >= 5) limit = d.readUInt32LE(1);
    if (d[0] === 3 && d.length >= 9) price = d.readBigUInt64LE(1);
  }
  if (price > 0n) {
    const units = BigInt(limit ?? Math.min(1_400_000, 200_000 * count));
    fee += Number((price * units + 999_999n) / 1_000_000n);
  }
  return fee;
}
