import { AccountInfo, Keypair, PublicKey, TransactionInstruction } from '@solana/web3.js';
import type { Program } from '@coral-xyz/anchor';
import type { Certificates } from '../../../shared/program/idl';

/** What a scenario sees of a transaction, identical in shape on every runtime. */
export interface TxResult {
  ok: boolean;
  logs: string[];
  computeUnits: bigint;
  /** The runtime's error, rendered as text (for diagnostics only; assert on `customCode`/logs). */
  error?: string;
  /** Custom program error code, when an instruction returned `Custom(n)`. */
  customCode?: number;
  /** Index of the failing instruction, when known. */
  instructionIndex?: number;
}

export interface SendOptions {
  /** Fee payer; defaults to the runtime's funded payer. */
  feePayer?: Keypair;
}

/**
 * One local chain with the certificates program loaded. Implemented by bankrun and LiteSVM so
 * the same scenario files run on both.
 */
export interface Runtime {
  readonly name: 'bankrun' | 'litesvm';
  readonly programId: PublicKey;
  /** Anchor client, used only to build instructions (never to send). */
  readonly program: Program<Certificates>;
  /** A funded key that pays fees unless a test chooses another. */
  readonly payer: Keypair;
  send(instructions: TransactionInstruction[], signers: Keypair[], opts?: SendOptions): Promise<TxResult>;
  getAccount(address: PublicKey): Promise<AccountInfo<Buffer> | null>;
  /** Write an account directly (for forged/foreign-owner cases). */
  setAccount(address: PublicKey, account: { lamports: number; data: Uint8Array; owner: PublicKey; executable?: boolean }): Promise<void>;
  airdrop(address: PublicKey, lamports: bigint): Promise<void>;
  /** The clock sysvar's unix timestamp. */
  now(): Promise<bigint>;
  /** Move the clock's unix timestamp (and the slot one forward). */
  setUnixTimestamp(ts: bigint): Promise<void>;
  minimumBalanceForRentExemption(len: number): Promise<bigint>;
  close(): Promise<void>;
}

export type RuntimeFactory = { name: Runtime['name']; start: () => Promise<Runtime> };
