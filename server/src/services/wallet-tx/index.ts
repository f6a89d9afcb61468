import { createHash } from 'node:crypto';
import { Message, PublicKey, Transaction, type Signer, type TransactionInstruction } from '@solana/web3.js';
import bs58 from 'bs58';
import nacl from 'tweetnacl';
import type { ChainReceipt, ChainService, TxOptions } from '../chain';

// A prepared wallet transaction: the server builds a transaction, the platform pays for it (the
// operator is the fee payer and signs first, with any keys the server holds, such as a fresh mint),
// a wallet in the browser adds its signature, and the server accepts back only the very message it
// prepared, with every signature valid, before it sends it. The mint uses it (services/mint); every
// flow a wallet signs (request_confirmation, register_issuer, issue/confirm/revoke…) is meant to.
// Each flow keeps its attempt (the prepared message, its hash, the expiry) in its own table and
// does its own crash recovery; this service is the transaction mechanism they share.

const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

export interface PreparedWalletTransaction {
  /** What the flow records (services/mint: mint_attempt). */
  kind: string;
  /** The wallet that must sign (base58). */
  signer: string;
  /** The exact message bytes (base64) and their SHA-256 (hex): the attempt is found by the hash. */
  message: string;
  messageSha256: string;
  /** The fee payer's signature (base58): the transaction id once it lands. */
  signature: string;
  blockhash: string;
  lastValidBlockHeight: number | null;
  /** Epoch ms after which the attempt is refused (the chain's signing window). */
  expiresAt: number;
  /** Base64 wire transaction, signed by the platform; the wallet signs it next. */
  transaction: string;
}

/**
 * The columns every attempt row (mint_attempt, wallet_action) keeps of a prepared transaction: what
 * submit checks the wallet's returned message against, and when it expires.
 */
export function preparedTxColumns(p: PreparedWalletTransaction) {
  return {
    message: p.message,
    message_sha256: p.messageSha256,
    signature: p.signature,
    signed_transaction: null,
    blockhash: p.blockhash,
    last_valid_block_height: p.lastValidBlockHeight,
    expires_at: p.expiresAt,
  };
}

/** A wallet's returned transaction, split into the signed message and its signatures. */
export interface SignedWalletTransaction {
  tx: Transaction;
  message: Uint8Array;
  messageSha256: string;
  signatures: Uint8Array[];
  /** The keys that must sign, in order (fee payer first). */
  signers: PublicKey[];
}

/** Why a signed transaction is refused: another message, the wallet's signature missing, or any signature invalid. */
export type SignatureProblem = 'mismatch' | 'not_signed' | 'bad_signatures';

/** Splits a wire transaction into its signatures and the exact message bytes they sign. */
function splitWire(bytes: Uint8Array): { signatures: Uint8Array[]; message: Uint8Array } {
  let n = 0;
  let i = 0;
  for (let shift = 0; ; shift += 7) {
    if (i >= bytes.length || i > 2) throw new Error('bad signature count');
    const b = bytes[i++];
    n |= (b & 0x7f) << shift;
    if (!(b & 0x80)) break;
  }
  if (bytes.length < i + 64 * n + 1) throw new Error('truncated');
  const signatures = Array.from({ length: n }, (_, k) => bytes.subarray(i + 64 * k, i + 64 * (k + 1)));
  return { signatures, message: bytes.subarray(i + 64 * n) };
}

/**
 * A prepared message (base64) with its blockhash left out: two prepares of the same instructions for the
 * same fee payer and signers are the same intent whatever blockhash each was given.
 */
export function intentOf(message: string): string {
  const m = Message.from(Buffer.from(message, 'base64'));
  m.recentBlockhash = PublicKey.default.toBase58();
  return m.serialize().toString('base64');
}

export class WalletTransactions {
  constructor(private readonly chain: ChainService) {}

  /**
   * The wire transaction (base64) `prepare` returned for a stored message, signed by the operator again:
   * ed25519 signatures are deterministic, so these are the same bytes. Only for messages prepared without
   * `extraSigners` (wallet actions): their keys are not kept, so their signatures cannot be made again.
   */
  rebuild(message: string): string {
    const tx = Transaction.populate(Message.from(Buffer.from(message, 'base64')));
    this.chain.partialSignAsOperator(tx);
    return tx.serialize({ requireAllSignatures: false, verifySignatures: true }).toString('base64');
  }

  /**
   * Builds `instructions` into a transaction the operator pays for, under a blockhash the chain
   * promises for its signing window, signed by the operator and `extraSigners`; `signer` signs next.
   */
  async prepare(kind: string, instructions: TransactionInstruction[], signer: PublicKey, extraSigners: Signer[] = []): Promise<PreparedWalletTransaction> {
    const { blockhash, lastValidBlockHeight, expiresAt } = await this.chain.signingBlockhash();
    const tx = new Transaction({ feePayer: this.chain.operator, blockhash, lastValidBlockHeight: lastValidBlockHeight ?? 0 }).add(...instructions);
    if (extraSigners.length) tx.partialSign(...extraSigners);
    this.chain.partialSignAsOperator(tx);
    const message = tx.serializeMessage();
    return {
      kind,
      signer: signer.toBase58(),
      message: message.toString('base64'),
      messageSha256: sha256Hex(message),
      signature: bs58.encode(tx.signatures[0].signature!),
      blockhash,
      lastValidBlockHeight,
      expiresAt,
      transaction: tx.serialize({ requireAllSignatures: false, verifySignatures: true }).toString('base64'),
    };
  }

  /** Reads a wallet's base64 transaction; null when it is not one canonical legacy transaction (what we send must be these very bytes). */
  read(signedTransaction: string): SignedWalletTransaction | null {
    try {
      const wire = new Uint8Array(Buffer.from(signedTransaction, 'base64'));
      const parts = splitWire(wire);
      const message = Message.from(Buffer.from(parts.message));
      const tx = Transaction.from(wire);
      if (!Buffer.from(tx.serialize({ requireAllSignatures: false, verifySignatures: false })).equals(Buffer.from(wire))) return null;
      return {
        tx,
        message: parts.message,
        messageSha256: sha256Hex(parts.message),
        signatures: parts.signatures,
        signers: message.accountKeys.slice(0, message.header.numRequiredSignatures),
      };
    } catch {
      return null;
    }
  }

  /** Whether the signed message is the prepared one (base64 `message`). */
  isPrepared(signed: SignedWalletTransaction, message: string): boolean {
    return Buffer.from(message, 'base64').equals(Buffer.from(signed.message));
  }

  /**
   * Every required signature present and valid, `wallet`'s among them: null, else what is wrong.
   * A null `wallet` (the attempt was prepared for another one) is never signed.
   */
  signatureProblem(signed: SignedWalletTransaction, wallet: string | null): Exclude<SignatureProblem, 'mismatch'> | null {
    const { signers, signatures, message } = signed;
    if (signatures.length !== signers.length) return 'bad_signatures';
    const walletIndex = signers.findIndex((k) => k.toBase58() === wallet);
    if (walletIndex < 0) return 'not_signed';
    const valid = (k: number) => signatures[k].some((b) => b !== 0) && nacl.sign.detached.verify(message, signatures[k], signers[k].toBytes());
    if (!valid(walletIndex)) return 'not_signed';
    if (!signers.every((_, k) => valid(k))) return 'bad_signatures';
    return null;
  }

  /** True once a prepared transaction can no longer land (its blockhash expired). */
  expired(a: { expiresAt: number; lastValidBlockHeight: number | null }): Promise<boolean> {
    return this.chain.blockhashExpired(a);
  }

  /** Sends a fully signed transaction (the signed bytes as the wallet returned them) and returns the receipt. */
  send(tx: Transaction, o: TxOptions): Promise<ChainReceipt> {
    return this.chain.sendSignedTransaction(tx, o);
  }
}
