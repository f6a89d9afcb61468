import type { Keypair, PublicKey, Signer, Transaction } from '@solana/web3.js';
import type { Kysely } from 'kysely';
import type { CertificateAccount, IssuerAccount, RegistryAccount } from '../../../../shared/program/codec';
import type { Database } from '../../db/schema';

export interface ChainReceipt {
  signature: string;
  slot: number;
  logs: string[];
  computeUnits: number | null;
  /** Embedded chain only: restores the accounts this transaction wrote (when the caller's DB work fails). */
  undo?: () => void;
}

export interface TxOptions {
  /** DB handle to persist accounts and the transaction row with: pass the caller's transaction. */
  db?: Kysely<Database>;
  kind: string;
  certificateId?: string | null;
}

export interface AccountSnapshot {
  pubkey: string;
  owner: string;
  lamports: bigint;
  data: Uint8Array;
  executable: boolean;
}

export interface IssuerEntry extends IssuerAccount {
  address: PublicKey;
}

/** A transaction the chain has landed, with what the JSON-RPC journal and PubSub need of it. */
export interface LandedTransaction {
  signature: string;
  slot: number;
  /** The accounts it names, each once. */
  keys: string[];
  err: null;
  /** Who sent it: the server's own flows name themselves (`anchor_certificate`, …); /rpc is `rpc_send`. */
  kind: string;
  tx: Transaction;
  /** The transaction as it ran (serialized), and the lamports it paid. */
  wire: Uint8Array;
  fee: number;
  /** The message's account keys in order, with their lamports before and after. */
  accountKeys: string[];
  preBalances: number[];
  postBalances: number[];
  /** The DB handle the transaction was persisted with (the caller's DB transaction, if any). */
  db: Kysely<Database>;
}

/** A returned promise is awaited before the send returns (the journal writes in the caller's DB transaction). */
export type LandedListener = (tx: LandedTransaction) => void | Promise<void>;

/** A blockhash for a transaction a wallet signs, and until when we promise it can land. */
export interface SigningBlockhash {
  blockhash: string;
  /** RPC chains: the block height after which it is refused; null on the embedded chain. */
  lastValidBlockHeight: number | null;
  /** Epoch ms: what we tell the signer (a little less than the cluster allows). */
  expiresAt: number;
}

/** What a verdict reads of the chain: the program's records, and its clock. */
export type ChainRecords = Pick<ChainService, 'mode' | 'programId' | 'now' | 'readCertificateRecord' | 'readIssuer' | 'certificateAddress' | 'issuerAddress'>;

/** The one interface the app uses for the chain; embedded (LiteSVM) and RPC implement it. */
export interface ChainService {
  readonly mode: 'embedded' | 'rpc';
  readonly programId: PublicKey;
  readonly operator: PublicKey;
  /** PDA of the certificate record for a SHA-256 (memoised). */
  certificateAddress(hash: Uint8Array): PublicKey;
  issuerAddress(authority: PublicKey): PublicKey;
  /** Changes whenever chain state may have changed (embedded); null when unknowable (RPC). */
  stateVersion(): number | null;
  /** Unix seconds by the chain's clock. */
  now(): Promise<bigint>;

  anchorCertificate(p: { hash: Uint8Array; holder: PublicKey; expiresAt?: bigint }, o: TxOptions): Promise<ChainReceipt>;
  recordVerification(p: { hash: Uint8Array; verified: boolean; reasonCode: number }, o: TxOptions): Promise<ChainReceipt>;
  readCertificate(hash: Uint8Array): Promise<CertificateAccount | null>;
  /** The record with its address; `stored`, a certificate row's record_address, spares the derivation when the record there is this hash's. */
  readCertificateRecord(hash: Uint8Array, stored?: string | null): Promise<{ address: PublicKey; record: CertificateAccount } | null>;
  readIssuer(authority: PublicKey): Promise<IssuerAccount | null>;
  readRegistry(): Promise<RegistryAccount | null>;
  listIssuers(): Promise<IssuerEntry[]>;

  // Demo data and administration.
  registerIssuer(p: { authority: Keypair; name: string; uri: string }, o: TxOptions): Promise<ChainReceipt>;
  setIssuerStatus(p: { authority: PublicKey; status: number }, o: TxOptions): Promise<ChainReceipt>;
  issueCertificate(p: { authority: Keypair; hash: Uint8Array; holder: PublicKey; expiresAt?: bigint }, o: TxOptions): Promise<ChainReceipt>;
  /** The operator (registry admin and verifier) revokes a record, with a revocation reason code. */
  revokeCertificate(p: { hash: Uint8Array; reasonCode: number }, o: TxOptions): Promise<ChainReceipt>;

  /** Signs with the operator (fee payer) plus `signers`, sends, persists. For the mint flow. */
  sendTransaction(tx: Transaction, signers: Signer[], o: TxOptions): Promise<ChainReceipt>;
  /** Adds the operator's signature (fee payer) to a transaction other keys sign too. */
  partialSignAsOperator(tx: Transaction): void;
  /** Sends a transaction that is already fully signed (wallet-signed flows); persists like sendTransaction. */
  sendSignedTransaction(tx: Transaction, o: TxOptions): Promise<ChainReceipt>;
  simulate(tx: Transaction, signers: Signer[]): Promise<{ ok: boolean; logs: string[]; error: string | null; computeUnits: number | null }>;
  getAccountInfo(pubkey: PublicKey): Promise<AccountSnapshot | null>;
  latestBlockhash(): Promise<string>;
  /** A blockhash for a transaction others sign before it is sent (wallet-signed flows). */
  signingBlockhash(): Promise<SigningBlockhash>;
  /** True when a transaction signed under `a` can no longer land (so an attempt in flight can be closed). */
  blockhashExpired(a: { expiresAt: number; lastValidBlockHeight: number | null }): Promise<boolean>;
  /**
   * Calls `listener` after each transaction lands, in subscription order; returns the unsubscribe.
   * The embedded chain only: an RPC chain's transactions land elsewhere (services/chain-sync polls).
   */
  onLanded(listener: LandedListener): () => void;
  close(): Promise<void>;
}

/** A failed transaction; `name`/`code` from the program's AnchorError log line when present. */
export class ChainError extends Error {
  constructor(
    message: string,
    public readonly code: number | null,
    public readonly errorName: string | null,
    public readonly logs: string[],
  ) {
    super(message);
    this.name = 'ChainError';
  }
}

export function chainErrorFromLogs(fallback: string, logs: string[]): ChainError {
  for (const l of logs) {
    const m = /AnchorError occurred\. Error Code: (\w+)\. Error Number: (\d+)\. Error Message: (.*?)\.?$/.exec(l);
    if (m) return new ChainError(m[3], Number(m[2]), m[1], logs);
  }
  return new ChainError(fallback, null, null, logs);
}
