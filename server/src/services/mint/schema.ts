import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema';

// Tables of migration 2026-11-22T0800-mint (kept here until db/schema.ts lists them).

export type MintAttemptStatus = 'prepared' | 'submitted' | 'minted' | 'failed' | 'expired' | 'superseded';

export interface MintAttemptTable {
  id: string;
  certificate_id: string;
  user_id: string;
  holder_wallet: string;
  mint_address: string;
  message: string; // base64
  message_sha256: string; // hex
  signature: string; // base58: the fee payer's signature = the transaction id
  signed_transaction: string | null; // base64, as the holder returned it
  blockhash: string;
  last_valid_block_height: number | null;
  expires_at: number; // epoch ms
  metadata_url: string;
  pdf_url: string;
  status: MintAttemptStatus;
  error: string | null;
  created_at: string;
  updated_at: string;
}

export interface PermanentCopyTable {
  content_sha256: string;
  store: string;
  object_id: string;
  url: string;
  content_type: string;
  size: number;
  created_at: string;
}

export interface MintTables {
  mint_attempt: MintAttemptTable;
  permanent_copy: PermanentCopyTable;
}

export type MintDatabase = Database & MintTables;
export type MintAttemptRow = Selectable<MintAttemptTable>;

/** The app's Kysely handle, typed with the mint tables (a no-op once db/schema.ts includes them). */
export const mintDb = (db: Kysely<Database>) => db as unknown as Kysely<MintDatabase>;
