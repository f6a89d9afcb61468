import { z } from 'zod';

// The in-app, read-only explorer of a local chain (the embedded chain or a validator on the server's
// machine), which public explorers cannot reach: its inputs and what it answers.

const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;

export const explorerAddress = z
  .string({ error: 'An address is required' })
  .trim()
  .min(32, { error: 'Not a valid Solana address' })
  .max(44, { error: 'Not a valid Solana address' })
  .regex(BASE58, { error: 'Not a valid Solana address' });

export const explorerSignature = z
  .string({ error: 'A transaction signature is required' })
  .trim()
  .min(64, { error: 'Not a valid transaction signature' })
  .max(88, { error: 'Not a valid transaction signature' })
  .regex(BASE58, { error: 'Not a valid transaction signature' });

export const EXPLORER_PAGE_SIZE = 20;
export const explorerAddressInput = z.object({ address: explorerAddress, limit: z.number().int().min(1).max(50).optional() });
export const explorerTransactionInput = z.object({ signature: explorerSignature });

/** One decoded value, as text, with what it is so the page can link addresses and signatures. */
export interface ExplorerField {
  name: string;
  value: string;
  kind: 'address' | 'time' | 'hex' | 'number' | 'text' | 'bool';
}

export interface ExplorerAccountDto {
  owner: string;
  /** The owner program in words (System Program, Token-2022, the Attesta program), or null. */
  owner_name: string | null;
  lamports: string;
  executable: boolean;
  data_length: number;
  /**
   * certificate / issuer / registry: an Attesta account decoded with the program's IDL; mint /
   * token_account: Token-2022; wallet: a system account without data; program: executable.
   */
  kind: 'certificate' | 'issuer' | 'registry' | 'mint' | 'token_account' | 'wallet' | 'program' | 'unknown';
  /** The account type's name as the IDL or the token program calls it. */
  type_name: string | null;
  fields: ExplorerField[];
  /** Token-2022 extensions of a mint or token account, by name. */
  extensions: string[];
  /** A certificate NFT's TokenMetadata: name, symbol, uri and additional key-value pairs. */
  metadata: { name: string; symbol: string; uri: string; update_authority: string | null; additional: [string, string][] } | null;
  /** Why the data could not be decoded, when it could not. */
  decode_error: string | null;
}

export interface ExplorerTxSummaryDto {
  signature: string;
  slot: number;
  block_time: string | null;
  ok: boolean;
  /** Instruction names, in order (the program's own, then the others'). */
  instructions: string[];
}

export interface ExplorerAddressDto {
  address: string;
  chain: 'embedded' | 'rpc';
  account: ExplorerAccountDto | null;
  transactions: ExplorerTxSummaryDto[];
  has_more: boolean;
  /** The Attesta certificate this address belongs to (record or NFT mint), for a link to its page. */
  certificate: { id: string; user_id: string; title: string; role: 'record' | 'mint' } | null;
  /**
   * A certificate record's file hash (SHA-256, hex; public on chain in the instructions that name it),
   * for a link to the public verdict by hash; null for any other account, or when it is not known here.
   */
  record_sha256: string | null;
}

export interface ExplorerInstructionDto {
  program: string;
  program_name: string | null;
  /** The instruction's name (IDL name for the Attesta program), or null when not recognised. */
  name: string | null;
  args: ExplorerField[];
  accounts: { name: string | null; address: string; signer: boolean; writable: boolean }[];
  /** Raw data (hex) when the instruction could not be decoded. */
  data_hex: string | null;
}

export interface ExplorerTransactionDto {
  signature: string;
  chain: 'embedded' | 'rpc';
  slot: number;
  block_time: string | null;
  ok: boolean;
  error: string | null;
  fee: string | null;
  compute_units: number | null;
  signers: string[];
  instructions: ExplorerInstructionDto[];
  events: { name: string; fields: ExplorerField[] }[];
  logs: string[];
  /** What Attesta sent it for (anchor_certificate, record_verification, mint, …), when it did. */
  kind: string | null;
}
