import type { CertificateDto, PublicCertificateDto, UserDto, VerificationLogDto } from '../../../../shared/schemas/dto';
import { checkedHolderName, parseVerificationDetails, type VerificationDetailsDto } from '../../../../shared/schemas/details';
import { ReasonCode, reasonName, reasonText } from '../../../../shared/program/reasons';
import type { TrustTierName } from '../../../../shared/constants';
import { claimsOf } from '../../db/certificates';
import type { CertificateRow, UserRow, VerificationLogRow } from '../../db/schema';
import type { PublicStanding } from './standing';

// Rows never leave the server as they are: these pick the public fields.

export const certificateFileUrl = (origin: string, id: string) => `${origin}/files/certificates/${encodeURIComponent(id)}`;
export const verificationUrl = (origin: string, userId: string, id: string) => `${origin}/view/${encodeURIComponent(userId)}/${encodeURIComponent(id)}`;


/** The holder's (or the institution's) view of a row, with what its public verdict says now (./standing.ts). */
export function toCertificateDto(r: CertificateRow, origin: string, standing: PublicStanding): CertificateDto {
  return {
    id: r.id,
    user_id: r.user_id,
    ...claimsOf(r),
    verification_url: verificationUrl(origin, r.user_id, r.id),
    certificate_url: certificateFileUrl(origin, r.id),
    verification_status: r.verification_status,
    verification_details: parseVerificationDetails(r.verification_details),
    created_at: r.created_at,
    updated_at: r.updated_at,
    arweave_url: r.arweave_url,
    nft_mint_address: r.nft_mint_address,
    sha256: r.sha256,
    original_sha256: r.original_sha256,
    file_name: r.file_name,
    file_type: r.file_mime,
    file_size: r.file_size,
    record_address: r.record_address,
    holder_wallet: r.holder_wallet,
    tier: r.tier as TrustTierName,
    anchor_signature: r.anchor_signature,
    verify_signature: r.verify_signature,
    issuer_authority: r.issuer_authority,
    requested_issuer: r.requested_issuer,
    claims_confirmed: r.claims_confirmed === 1,
    revocation_note: r.revocation_note,
    public_valid: standing.public_valid,
    public_note: standing.public_note,
    expires_at: standing.expires_at,
    public_issuer: standing.public_issuer,
  };
}

/**
 * A certificate's verification details as anyone may read them (share links, verify surfaces). A
 * rejection's own reason quotes the document's text ("The document names “…”"), and its log fields say
 * more: publicly it is said in the generic words of its reason code. Verified verdicts (what was
 * confirmed, tamper signals), chain changes (revoked, superseded, confirmed: public on chain anyway),
 * retry notices and the awaiting-confirmation notice are in the platform's own words and stay.
 */
export function publicVerificationDetails(status: CertificateRow['verification_status'], d: VerificationDetailsDto | null): VerificationDetailsDto | null {
  if (!d || d.kind !== 'verdict') return d;
  const code = typeof d.reason_code === 'number' ? d.reason_code : 0;
  if (code === 0 && status !== 'rejected') {
    return {
      kind: 'verdict',
      reason: typeof d.reason === 'string' ? d.reason : 'Verified',
      reason_code: 0,
      reason_name: 'none',
      ...(d.tier !== undefined ? { tier: d.tier } : {}),
      // Only the institution that confirmed it (rows verified before that rule named a name match here).
      ...(d.issuer !== undefined && d.tier === 'issuer_confirmed' ? { issuer: d.issuer } : {}),
      ...(d.content_checked !== undefined ? { content_checked: d.content_checked } : {}),
      ...(typeof d.holder_name === 'string' ? { holder_name: d.holder_name } : {}),
      ...(d.tamper_signals !== undefined ? { tamper_signals: d.tamper_signals } : {}),
      ...(d.signature !== undefined ? { signature: d.signature } : {}),
    };
  }
  const rejected = code === 0 ? ReasonCode.Other : code;
  return {
    kind: 'verdict',
    reason: `Rejected: ${reasonText(rejected)}.`,
    reason_code: rejected,
    reason_name: reasonName(rejected),
    tier: 'none',
    ...(typeof d.step === 'string' ? { step: d.step } : {}),
    ...(d.signature !== undefined ? { signature: d.signature } : {}),
  };
}

/** Publicly: the row's fields, with {@link publicVerificationDetails}; the file's link only while verified. */
export function toPublicCertificateDto(r: CertificateRow, holder: Pick<UserRow, 'full_name' | 'profile_image_url'>, origin: string): PublicCertificateDto {
  const details = publicVerificationDetails(r.verification_status, parseVerificationDetails(r.verification_details));
  return {
    id: r.id,
    user_id: r.user_id,
    ...claimsOf(r),
    verification_status: r.verification_status,
    verification_details: details,
    // The name the platform's check found in the document, not whatever the profile says since.
    holder_name: checkedHolderName(details) ?? holder.full_name,
    holder_photo_url: holder.profile_image_url,
    holder_wallet: r.holder_wallet,
    sha256: r.sha256,
    record_address: r.record_address,
    nft_mint_address: r.nft_mint_address,
    arweave_url: r.arweave_url,
    certificate_url: r.verification_status === 'verified' ? certificateFileUrl(origin, r.id) : null,
    verification_url: verificationUrl(origin, r.user_id, r.id),
    created_at: r.created_at,
  };
}

export function toUserDto(u: UserRow): UserDto {
  return {
    id: u.id,
    full_name: u.full_name,
    wallet_address: u.wallet_address,
    email: u.email,
    profile_image_url: u.profile_image_url,
    created_at: u.created_at,
    updated_at: u.updated_at,
  };
}

export function toLogDto(l: VerificationLogRow): VerificationLogDto {
  let d: VerificationLogDto['details'];
  try {
    d = JSON.parse(l.details);
  } catch {
    d = { message: l.details };
  }
  return { id: l.id, certificate_id: l.certificate_id, job_id: l.job_id, verification_step: l.verification_step, status: l.status, details: d, created_at: l.created_at };
}
