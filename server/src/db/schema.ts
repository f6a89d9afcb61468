import type { CertificateStatusName } from '../../../shared/constants';
import type { Insertable, Selectable, Updateable } from 'kysely';

// Ids are made by the app (short random strings), so no Generated<> columns.

// Column types are what better-sqlite3 returns: text, number (integer), Buffer (blob).

export interface UserTable {
  id: string;
  wallet_address: string;
  full_name: string;
  email: string | null;
  profile_image_key: string | null;
  profile_image_url: string | null;
  created_at: string;
  updated_at: string;
}

export interface SignInNonceTable {
  nonce: string;
  address: string;
  message: string;
  expires_at: number; // epoch ms
  used_at: number | null;
  created_at: string;
}

export interface SessionTable {
  token_hash: string;
  user_id: string;
  created_at: string;
  expires_at: number; // epoch ms
}

export interface CertificateTable {
  id: string;
  user_id: string;
  title: string;
  institution_name: string;
  program_name: string;
  issue_date: string;
  verification_status: CertificateStatusName;
  verification_details: string | null;
  tier: string;
  file_key: string;
  file_name: string;
  file_mime: string;
  file_size: number;
  sha256: string;
  original_sha256: string | null;
  original_mime: string | null;
  record_address: string;
  holder_wallet: string;
  anchor_signature: string | null;
  verify_signature: string | null;
  arweave_url: string | null;
  nft_mint_address: string | null;
  mint_signature: string | null;
  created_at: string;
  updated_at: string;
}

export interface VerificationLogTable {
  id: string;
  certificate_id: string;
  job_id: string;
  verification_step: string;
  status: 'success' | 'pending' | 'failed';
  details: string;
  created_at: string;
}

export interface VerificationJobTable {
  id: string;
  certificate_id: string;
  status: 'queued' | 'running' | 'done' | 'failed';
  attempts: number;
  run_after: number; // epoch ms
  locked_until: number | null; // epoch ms
  /** The server instance holding the lease (see migration 1110-job-owner). */
  locked_by: string | null;
  /** The certificate's holder (user id): the queue serves holders in turn (migration 1400-fair-queue). */
  holder_id: string;
  /** When the job was last claimed (epoch ms); a holder's latest is when it was last served. */
  claimed_at: number | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export interface ChainAccountTable {
  pubkey: string;
  owner: string;
  lamports: string; // u64 as decimal text
  data: Buffer;
  executable: number;
  rent_epoch: string;
  updated_at: string;
}

export interface ChainTransactionTable {
  signature: string;
  slot: number;
  status: 'success' | 'failed';
  kind: string;
  certificate_id: string | null;
  logs: string; // JSON array
  error: string | null;
  compute_units: number | null;
  created_at: string;
}

export interface ChainMetaTable {
  key: string;
  value: string;
}

export interface Database {
  user: UserTable;
  sign_in_nonce: SignInNonceTable;
  session: SessionTable;
  certificate: CertificateTable;
  verification_log: VerificationLogTable;
  verification_job: VerificationJobTable;
  chain_account: ChainAccountTable;
  chain_transaction: ChainTransactionTable;
  chain_meta: ChainMetaTable;
}

export type UserRow = Selectable<UserTable>;
export type CertificateRow = Selectable<CertificateTable>;
export type NewCertificate = Insertable<CertificateTable>;
export type CertificateUpdate = Updateable<CertificateTable>;
export type VerificationLogRow = Selectable<VerificationLogTable>;
export type VerificationJobRow = Selectable<VerificationJobTable>;
export type ChainTransactionRow = Selectable<ChainTransactionTable>;
