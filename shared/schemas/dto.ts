// Output shapes of the API (snake_case as in SEED-SPEC.md §3). The server builds them from rows.
import type { CertificateStatusName, LogStatus, TrustTierName } from '../constants';
import type { VerificationDetailsDto } from './details';

export interface UserDto {
  id: string;
  full_name: string;
  wallet_address: string;
  email: string | null;
  profile_image_url: string | null;
  created_at: string;
  updated_at: string;
}

export type { VerificationDetails, VerificationDetailsDto, VerificationDetailsKind } from './details';

export interface CertificateDto {
  id: string;
  user_id: string;
  title: string;
  institution_name: string;
  program_name: string;
  issue_date: string;
  /** Public link: origin/view/{user_id}/{id}. */
  verification_url: string;
  /** Download link of the stored PDF. */
  certificate_url: string;
  verification_status: CertificateStatusName;
  /** Parsed object (the seed stored it as JSON text). */
  verification_details: VerificationDetailsDto | null;
  created_at: string;
  updated_at: string;
  arweave_url: string | null;
  nft_mint_address: string | null;
  sha256: string;
  original_sha256: string | null;
  file_name: string;
  file_type: string;
  file_size: number;
  record_address: string;
  holder_wallet: string;
  tier: TrustTierName;
  anchor_signature: string | null;
  verify_signature: string | null;
  /** The institution (authority) that issued or confirmed it: tier issuer_confirmed. */
  issuer_authority: string | null;
  /** The institution the holder asked to confirm it, while it has not. */
  requested_issuer: string | null;
  /** The institution confirmed the claims shown (it issued them, or confirmed them in the product). */
  claims_confirmed: boolean;
  /** The revoking institution's or operator's note (kept off chain; shown to the holder). */
  revocation_note: string | null;
  /**
   * What the public verdict of this certificate (its share link) says now — the holder sees what a
   * verifier will: whether it is valid (`VerdictDto.valid`: never for a certificate that is not
   * verified; not for a verified one whose confirming institution is suspended, that expired, or whose
   * claims its confirmation does not cover).
   */
  public_valid: boolean;
  /**
   * The public verdict's note (`VerdictDto.note`): why a verified certificate is not valid, or what its
   * confirmation does not cover (a domain not proven); "Expired on <date>." when its record expired.
   */
  public_note: string | null;
  /** When its on-chain record expires or expired (ISO), for verified certificates; null: never, or not read. */
  expires_at: string | null;
  /**
   * The institution whose own key issued or confirmed the record, as the public verdict names it now:
   * its registration status, domain and whether the domain is proven. Null below the issuer-confirmed
   * tier, and when the chain could not be read.
   */
  public_issuer: VerdictInstitution | null;
}

export interface VerificationLogDto {
  id: string;
  certificate_id: string;
  /** The verification run (job) this step belongs to: one job is one attempt. */
  job_id: string;
  verification_step: string;
  status: LogStatus;
  details: { message: string; [key: string]: unknown };
  created_at: string;
}

/** One verification run of a certificate (a job) with the steps it logged. */
export interface VerificationAttemptDto {
  job_id: string;
  /** 1 for the first run of this certificate, 2 for the next, … */
  number: number;
  /** queued/running: under way; done: it reached a result; failed: it gave up after its retries. */
  state: 'queued' | 'running' | 'done' | 'failed';
  /**
   * What the run itself concluded, from its own steps only: verified (the platform's verdict, recorded on
   * chain), rejected, or awaiting_confirmation (the content could not be read). Never what someone else
   * did later (an institution's confirmation, a revocation: entries of their own, CertificateEventDto).
   * Null while under way, or when a run left no verdict (it failed, or the chain had decided first).
   */
  outcome: 'verified' | 'rejected' | 'awaiting_confirmation' | null;
  started_at: string;
  finished_at: string | null;
  logs: VerificationLogDto[];
}

/**
 * What an institution, the operator or the holder did to a certificate, as an entry of its history of
 * its own (beside the platform's verification runs): an institution's issue, confirmation or decline,
 * any revocation or supersede (by a flow of Attesta, or followed from the chain), a confirmation request
 * and its withdrawal.
 */
export interface CertificateEventDto {
  id: string;
  certificate_id: string;
  kind: 'issued' | 'confirmation_requested' | 'request_withdrawn' | 'confirmed' | 'declined' | 'revoked' | 'superseded';
  /** Who acted: the institution (its name and domain), the operator, the platform's key, the holder, or a key nobody knows. */
  actor: { role: 'holder' | 'issuer' | 'operator' | 'platform' | 'unknown'; wallet: string | null; name: string | null; domain: string | null };
  /** What happened, in one sentence the holder reads. */
  message: string;
  /** The transaction that recorded it on chain; null when nothing was written on chain (a decline, a withdrawal) or the follower could not tell which one. */
  signature: string | null;
  /** attesta: done through Attesta; chain: sent elsewhere and followed from the chain. */
  source: 'attesta' | 'chain';
  /** A confirmation: whether it covers the details shown (the institution confirmed exactly these through Attesta). */
  claims_confirmed?: boolean;
  /** The details the institution was shown (request, confirmation, decline). */
  claims?: { title: string; institution_name: string; program_name: string; issue_date: string } | null;
  /** A decline's reason, a withdrawal's reason, a revocation's note. */
  reason?: string | null;
  at: string;
}

/**
 * The dashboard's counters. The certificates verified on record are split by what a verifier's badge
 * reads now (shared/schemas/holder-mark.ts): `verified` + `platform_checked` + `domain_not_proven` +
 * `issuer_unchecked` + `not_valid` is the number verified on record.
 */
export interface CertificateStatsDto {
  total: number;
  /** Valid, and signed with the own key of an approved institution whose domain is proven: read as "Verified". */
  verified: number;
  /** Valid, checked by Attesta only: not confirmed by any institution. */
  platform_checked: number;
  /** Valid, signed with the key of an approved institution whose domain is not proven. */
  domain_not_proven: number;
  /** Signed with an institution's key whose standing could not be read just now (the chain was unreachable). */
  issuer_unchecked: number;
  /** Verified on record, but not valid by the public verdict now (institution suspended, expired…). */
  not_valid: number;
  pending: number;
  rejected: number;
  minted: number;
}

/** What anyone may see about a certificate (no e-mail, no other wallets). */
export interface PublicCertificateDto {
  id: string;
  user_id: string;
  title: string;
  institution_name: string;
  program_name: string;
  issue_date: string;
  verification_status: CertificateStatusName;
  verification_details: VerificationDetailsDto | null;
  holder_name: string;
  holder_photo_url: string | null;
  holder_wallet: string;
  sha256: string;
  record_address: string;
  nft_mint_address: string | null;
  arweave_url: string | null;
  /** Only when the certificate is verified (see notes/server-status.md). */
  certificate_url: string | null;
  verification_url: string;
  created_at: string;
}

/** `superseded`: the file's record now belongs to another holder (the institution issued it to them). */
export type VerdictStatus = 'verified' | 'rejected' | 'revoked' | 'superseded' | 'expired' | 'pending' | 'not_found';

export interface ChainTxDto {
  kind: string;
  signature: string;
  slot: number | null;
  created_at: string;
}

export interface VerdictDto {
  /**
   * True only when the chain record exists, is verified, not revoked, not expired and the file (if given)
   * matches; at the issuer-confirmed tier the confirming institution is still approved; and the claims
   * shown in `certificate` were checked (by the platform's content check or the institution's own flow).
   */
  valid: boolean;
  /**
   * In words: for a record the chain calls verified, why it is not valid, what its confirmation does not
   * cover, or whose check it is ("<Institution>'s registration is suspended"; "<Institution> confirmed
   * this file on chain; the title and program shown were entered by the holder and were not confirmed.";
   * "<Confirmer> confirmed this file on chain, but the certificate names <institution>…"; "Checked by
   * Attesta only, not confirmed by <institution>." at the platform_verified tier, with what that check
   * flagged); for an expired record "Expired on <date>."; for a pending record whose content could not be
   * read, that it waits for its institution's confirmation. Null otherwise.
   */
  note: string | null;
  /**
   * What the platform's own document check flagged in the file (signs of editing, hidden text…), one
   * sentence each, where that check is what the verdict rests on (a verified record at the
   * platform_verified tier); empty otherwise. Flags do not make a certificate invalid on their own (its
   * text still names the claims): they are said beside the verdict, and in `note`.
   */
  flags: string[];
  /**
   * Set (to the hash asked) when that hash is no record's own but the SHA-256 of the image its holder
   * uploaded, which Attesta converted to the PDF whose SHA-256 (`sha256`) is recorded on chain: the verdict
   * is that PDF's. The link between the two is Attesta's own record of the upload, not the chain's. Only
   * for a verified certificate; null otherwise.
   */
  original_sha256: string | null;
  status: VerdictStatus;
  /** match: the given file hashes to the record; mismatch: it does not; not_checked: no file was given. */
  integrity: 'match' | 'mismatch' | 'not_checked';
  sha256: string | null;
  expected_sha256?: string;
  actual_sha256?: string;
  record_address: string | null;
  /**
   * platform_verified: checked by Attesta only (file integrity; the document's text names the claimed
   * title, institution, program and holder), not confirmed by the institution. issuer_confirmed: the
   * institution's own key signed the record (see issuer.status and issuer.domain_proven).
   */
  tier: TrustTierName;
  reason_code: number;
  /** The reason code's name (content_mismatch, revoked_fraud…); null when none. */
  reason: string | null;
  /** The reason in plain words ("the document does not name what was claimed"); null when none. */
  reason_text?: string | null;
  /** The institution whose own key issued or confirmed the record (issuer-confirmed tier only). */
  issuer: VerdictInstitution | null;
  /** The institution the holder asked to confirm it, while it has not (never a confirmation). */
  confirmation_requested_from: VerdictInstitution | null;
  holder_wallet: string | null;
  verifier: string | null;
  nft_mint: string | null;
  anchored_at: string | null;
  verified_at: string | null;
  revoked_at: string | null;
  expires_at: string | null;
  transactions: ChainTxDto[];
  certificate: PublicCertificateDto | null;
  chain: { mode: 'embedded' | 'rpc'; program_id: string };
  checked_at: string;
}

/** An institution as a verdict names it: its on-chain registration and whether it proved its domain. */
export interface VerdictInstitution {
  authority: string;
  name: string | null;
  uri: string | null;
  status: string | null;
  /** The domain it registered (its profile), and whether its proof holds now (DNS TXT or HTTPS file). */
  domain?: string | null;
  domain_proven?: boolean;
}
