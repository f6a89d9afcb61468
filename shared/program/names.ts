// The program's enums by name: the one table of each that the server, the CLI and the app use to
// turn an on-chain number into the word shown to people and written to APIs (SPEC.md's names).
// Reason codes have theirs beside the codes (./reasons.ts: REASON_NAMES, REASON_TEXT).
import type { TrustTierName } from '../constants';
import { CertificateStatus, IssuerStatus, TrustTier } from './codec';

export type RecordStatusName = 'pending' | 'verified' | 'rejected' | 'revoked';
export type IssuerStatusName = 'pending' | 'approved' | 'suspended';

export const CERTIFICATE_STATUS_NAMES: Record<CertificateStatus, RecordStatusName> = {
  [CertificateStatus.Pending]: 'pending',
  [CertificateStatus.Verified]: 'verified',
  [CertificateStatus.Rejected]: 'rejected',
  [CertificateStatus.Revoked]: 'revoked',
};

export const TRUST_TIER_NAMES: Record<TrustTier, TrustTierName> = {
  [TrustTier.None]: 'none',
  [TrustTier.PlatformVerified]: 'platform_verified',
  [TrustTier.IssuerConfirmed]: 'issuer_confirmed',
};

export const ISSUER_STATUS_NAMES: Record<IssuerStatus, IssuerStatusName> = {
  [IssuerStatus.Pending]: 'pending',
  [IssuerStatus.Approved]: 'approved',
  [IssuerStatus.Suspended]: 'suspended',
};

const named = <N extends string>(table: Record<number, N>) => (n: number): N | undefined => (Object.prototype.hasOwnProperty.call(table, n) ? table[n] : undefined);

/** The record status's name, or undefined for a number the program does not write. */
export const certificateStatusName = named(CERTIFICATE_STATUS_NAMES);
/** The trust tier's name, or undefined for a number the program does not write. */
export const trustTierName = named(TRUST_TIER_NAMES);
/** The issuer status's name, or undefined for a number the program does not write. */
export const issuerStatusName = named(ISSUER_STATUS_NAMES);
