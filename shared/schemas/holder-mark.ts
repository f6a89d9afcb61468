// How a verifier reads a certificate verified on record, in one word (the public view's badge: the app's
// verdictStatus in verification/lib/verdict-text.ts), from what the holder's own DTO carries about its
// public verdict (CertificateDto.public_valid, public_issuer, tier). The server counts and filters the
// holder's certificates by it (the dashboard's counters, the list's filters); the app's marks call
// verdictStatus itself. tests/app/holder-status.test.ts holds the two to the same answer.
import type { CertificateDto } from './dto';

/**
 * - `verified`: valid, and an approved institution whose domain is proven signed the record with its
 *   own key — the only certificate a verifier reads as "Verified".
 * - `platform_checked`: valid, checked by Attesta only (never the institution's word).
 * - `domain_not_proven`: valid, signed with the key of an approved institution whose domain is not proven.
 * - `issuer_unchecked`: signed with an institution's key, but the chain could not be read just now to say
 *   whose standing (its registration, its domain proof) — never said as more than that.
 * - `not_valid`: verified on record, but the public verdict is not valid (expired, institution suspended…).
 */
export const HOLDER_MARKS = ['verified', 'platform_checked', 'domain_not_proven', 'issuer_unchecked', 'not_valid'] as const;
export type HolderMark = (typeof HOLDER_MARKS)[number];

export function holderMark(c: Pick<CertificateDto, 'tier' | 'public_valid' | 'public_issuer'>): HolderMark {
  if (!c.public_valid) return 'not_valid';
  if (c.tier === 'platform_verified') return 'platform_checked';
  if (c.tier === 'issuer_confirmed') {
    const issuer = c.public_issuer;
    if (!issuer) return 'issuer_unchecked';
    if (issuer.status !== 'approved') return 'not_valid';
    return issuer.domain_proven ? 'verified' : 'domain_not_proven';
  }
  return 'verified';
}
