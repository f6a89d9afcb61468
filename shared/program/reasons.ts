/** Reason codes stored in `Certificate.reason_code` (SPEC.md, shared with the Rust program). */
export const ReasonCode = {
  None: 0,
  HashMismatch: 1,
  ContentMismatch: 2,
  TamperSuspected: 3,
  IssuerNotApproved: 4,
  UnreadableDocument: 5,
  Policy: 6,
  RevokedByIssuer: 10,
  RevokedFraud: 11,
  RevokedHolderRequest: 12,
  RevokedSuperseded: 13,
  Other: 255,
} as const;
export type ReasonCode = (typeof ReasonCode)[keyof typeof ReasonCode];

/** snake_case names as written in SPEC.md, for display and logs. */
export const REASON_NAMES: Record<ReasonCode, string> = {
  0: 'none',
  1: 'hash_mismatch',
  2: 'content_mismatch',
  3: 'tamper_suspected',
  4: 'issuer_not_approved',
  5: 'unreadable_document',
  6: 'policy',
  10: 'revoked_by_issuer',
  11: 'revoked_fraud',
  12: 'revoked_holder_request',
  13: 'revoked_superseded',
  255: 'other',
};

export const REJECTION_REASONS: readonly ReasonCode[] = [1, 2, 3, 4, 5, 6, 255];
export const REVOCATION_REASONS: readonly ReasonCode[] = [10, 11, 12, 13, 255];

export function isReasonCode(n: number): n is ReasonCode {
  return Object.prototype.hasOwnProperty.call(REASON_NAMES, n);
}

export function reasonName(n: number): string {
  return isReasonCode(n) ? REASON_NAMES[n] : `unknown(${n})`;
}

/** Plain words for each reason, as a verdict or a holder's page says it ("Rejected: …", "Revoked: …"). */
export const REASON_TEXT: Record<ReasonCode, string> = {
  0: 'no reason given',
  1: 'the stored file does not match the hash recorded on chain',
  2: 'the document does not name what was claimed',
  3: 'the document shows signs of having been edited',
  4: 'the institution named on the record is not an approved issuer',
  5: 'the document could not be read',
  6: "it breaks the platform's rules",
  // Code 10 is sent by the record's `issuer` (SPEC.md revoke_certificate): the institution that issued it,
  // confirmed it, or was only asked by the holder to confirm it. The words must be true of all three.
  10: 'revoked by the institution named on the record',
  11: 'revoked as fraudulent',
  12: "revoked at the holder's request",
  13: 'superseded by a newer certificate',
  255: 'another reason',
};

export function reasonText(n: number): string {
  return isReasonCode(n) ? REASON_TEXT[n] : `reason code ${n}`;
}

/**
 * Who revoked a record, beside their name: " (the issuing institution)" only when the record's issuer
 * signed it (tier issuer_confirmed); below that tier the record names the institution the holder asked
 * to confirm it, which never did. Nothing for the platform or an unknown key (their names say it).
 */
export function revokerRoleText(role: string | null | undefined, tier: unknown): string {
  if (role !== 'issuer') return '';
  return tier === 'issuer_confirmed' ? ' (the issuing institution)' : ' (the institution the holder asked to confirm it)';
}
