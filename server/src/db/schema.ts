import type { CertificateStatusName } from '../../../shared/constants';
import type { Insertable, Selectable, Updateable } from 'kysely';

// Ids are made by the app (short random strings), so no Generated<> columns.

// Column types are what better-sqlite3 returns: text, number (integer), Buffer (blob); db/index.ts reads
// PostgreSQL's int8/numeric as numbers too. One interface for every table: no module keeps its own.

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
  /** Migration 2026-11-23T1000-institutions: the institution that issued or confirmed it (tier issuer_confirmed). */
  issuer_authority: string | null;
  /** The institution the holder asked to confirm it (a pending request on chain). */
  requested_issuer: string | null;
  /** 1 when that institution confirmed the claims shown (issued them, or confirmed them in the product). */
  claims_confirmed: number;
  /** The issuer's or operator's free-text note of a revocation (kept off chain). */
  revocation_note: string | null;
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

// Migration 0800-mint: the mint flow's attempts (services/mint) and the permanent copies' cache.
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

// Migration 0930-support: the support outbox (services/support/outbox.ts).
export type OutboxStatus = 'pending' | 'sent' | 'failed' | 'not_configured';
export type OutboxChannel = 'telegram' | 'smtp';

interface OutboxColumns {
  id: string;
  status: OutboxStatus;
  channel: OutboxChannel | null;
  attempts: number;
  last_error: string | null;
  created_at: string;
  forwarded_at: string | null;
}

export interface ContactMessageTable extends OutboxColumns {
  name: string;
  email: string;
  subject: string;
  inquiry_type: string;
  priority: string;
  message: string;
}

export interface FeedbackTable extends OutboxColumns {
  message: string;
  category: string;
  user_email: string | null;
}

// Migration 1000-api-keys.
export interface ApiKeyTable {
  id: string;
  user_id: string;
  name: string;
  prefix: string;
  key_hash: string; // sha256 hex of the whole key
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

// Migration 1100-rpc-journal: what the embedded chain's JSON-RPC needs beyond chain_transaction
// (json-rpc/journal.ts writes it, json-rpc and the explorer read it).
export interface RpcTransactionTable {
  signature: string;
  slot: number;
  block_time: number;
  wire: Buffer;
  fee: number;
  pre_balances: string; // JSON array
  post_balances: string; // JSON array
  err: string | null;
}

export interface RpcTransactionAccountTable {
  pubkey: string;
  slot: number;
  signature: string;
}

// Migration 2026-11-23T1000-institutions (notes/institutions-design.md).
export type ProofStatus = 'unproven' | 'proven' | 'lapsed';

export interface IssuerProfileTable {
  authority: string;
  domain: string;
  name: string;
  registered_at: string;
  proof_status: ProofStatus;
  proof_method: 'dns' | 'https' | null;
  proven_at: string | null;
  checked_at: string | null;
  findings: string | null; // JSON: ProofFinding[]
}

export type WalletActionKind = 'register_issuer' | 'issue_certificate' | 'request_confirmation' | 'confirm_certificate' | 'revoke_certificate';
export type WalletActionStatus = 'prepared' | 'submitted' | 'landed' | 'failed' | 'expired';

export interface WalletActionTable {
  id: string;
  kind: WalletActionKind;
  user_id: string;
  signer: string; // base58: the wallet that must sign
  certificate_id: string | null;
  request_id: string | null;
  message: string; // base64
  message_sha256: string; // hex
  signature: string; // the fee payer's signature = the transaction id
  signed_transaction: string | null;
  blockhash: string;
  last_valid_block_height: number | null;
  expires_at: number; // epoch ms
  status: WalletActionStatus;
  error: string | null;
  payload: string; // JSON, per kind
  created_at: string;
  updated_at: string;
}

export type ConfirmationRequestStatus = 'open' | 'confirmed' | 'declined' | 'withdrawn';

export interface ConfirmationRequestTable {
  id: string;
  certificate_id: string;
  holder_user_id: string;
  issuer_authority: string;
  status: ConfirmationRequestStatus;
  claims: string; // JSON: the claims when the holder asked
  request_signature: string | null;
  decline_reason: string | null;
  created_at: string;
  decided_at: string | null;
  decision_signature: string | null;
  /** Migration 2026-11-28T0300-certificate-events: why it was withdrawn (closed without an answer), for the holder. */
  withdrawn_reason: string | null;
}

export type CertificateEventKind = 'issued' | 'confirmation_requested' | 'request_withdrawn' | 'confirmed' | 'declined' | 'revoked' | 'superseded';
export type CertificateEventRole = 'holder' | 'issuer' | 'operator' | 'platform' | 'unknown';

/**
 * Migration 2026-11-28T0300-certificate-events: what an institution, the operator or the holder did to a
 * certificate (services/certificates/history.ts), beside its verification runs. Append-only.
 */
export interface CertificateEventTable {
  id: string;
  certificate_id: string;
  kind: CertificateEventKind;
  actor_role: CertificateEventRole;
  actor_wallet: string | null;
  actor_name: string | null;
  /** attesta: written by one of this server's flows; chain: followed from a transaction sent elsewhere. */
  source: 'attesta' | 'chain';
  message: string;
  signature: string | null;
  details: string | null; // JSON
  at: string;
}

export type AuditRole = 'operator' | 'issuer' | 'holder' | 'platform';

/** Append-only: services/audit inserts; nothing updates or deletes (server/test/institutions-audit.test.ts). */
export interface AuditLogTable {
  id: string;
  at: string;
  actor_wallet: string;
  actor_role: AuditRole;
  action: string;
  target: string | null;
  signature: string | null;
  details: string | null; // JSON
}

// Migration 2026-11-24T0000-public-verdict: the public verdict by hash, stored; triggers on the
// tables it is made of delete it and mark its hash dirty (services/certificates/verdict-store.ts).
export interface PublicVerdictTable {
  sha256: string;
  /** The verdict JSON without checked_at; certificate URLs relative (the request's origin is put in front). */
  body: string;
  /** Unix seconds: the record expires then, and the verdict is computed again. */
  stale_at: number | null;
  // What it was computed from (the triggers match these).
  cert_id: string | null;
  user_id: string | null;
  record_address: string;
  issuer_authority: string | null;
  issuer_address: string | null;
  computed_at: string;
}

export interface PublicVerdictDirtyTable {
  sha256: string;
}

/** Every table of every migration: the one Kysely type of the server. */
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
  mint_attempt: MintAttemptTable;
  permanent_copy: PermanentCopyTable;
  contact_message: ContactMessageTable;
  feedback: FeedbackTable;
  api_key: ApiKeyTable;
  rpc_transaction: RpcTransactionTable;
  rpc_transaction_account: RpcTransactionAccountTable;
  issuer_profile: IssuerProfileTable;
  wallet_action: WalletActionTable;
  confirmation_request: ConfirmationRequestTable;
  audit_log: AuditLogTable;
  certificate_event: CertificateEventTable;
  public_verdict: PublicVerdictTable;
  public_verdict_dirty: PublicVerdictDirtyTable;
}

export type UserRow = Selectable<UserTable>;
export type CertificateRow = Selectable<CertificateTable>;
export type NewCertificate = Insertable<CertificateTable>;
export type CertificateUpdate = Updateable<CertificateTable>;
export type VerificationLogRow = Selectable<VerificationLogTable>;
export type VerificationJobRow = Selectable<VerificationJobTable>;
export type ChainTransactionRow = Selectable<ChainTransactionTable>;
export type MintAttemptRow = Selectable<MintAttemptTable>;
export type ApiKeyRow = Selectable<ApiKeyTable>;
export type RpcTransactionRow = Selectable<RpcTransactionTable>;
export type IssuerProfileRow = Selectable<IssuerProfileTable>;
export type WalletActionRow = Selectable<WalletActionTable>;
export type ConfirmationRequestRow = Selectable<ConfirmationRequestTable>;
export type AuditLogRow = Selectable<AuditLogTable>;
export type CertificateEventRow = Selectable<CertificateEventTable>;
