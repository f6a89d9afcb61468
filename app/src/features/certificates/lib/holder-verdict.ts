// What was checked about the holder's verified certificate, in the words a verifier reads it: the
// platform's check never reads as the institution's word, and "Confirmed by" names an institution whose
// domain is proven. The server says what the public verdict says now (CertificateDto.public_valid,
// public_note, public_issuer: services/certificates/standing.ts); the details say what was checked.
import type { CertificateDto } from '../../../../../shared/schemas/dto';
import { holderStatus, statusMeta } from '../components/status';
import { formatDate } from './format';

type Holder = Pick<CertificateDto, 'verification_status' | 'tier' | 'institution_name' | 'verification_details' | 'public_valid' | 'public_note' | 'public_issuer' | 'expires_at'>;

/** The institution whose own key signed the record: its name, domain, and (read now) proof and registration. */
export interface Signer {
  name: string;
  domain: string | null;
  /** Null: not known now (the chain could not be read). */
  proven: boolean | null;
  status: string | null;
}

export function signerOf(c: Holder): Signer | null {
  if (c.tier !== 'issuer_confirmed') return null;
  const live = c.public_issuer;
  const d = c.verification_details?.issuer as { name?: string | null; domain?: string | null } | null | undefined;
  return {
    name: live?.name ?? d?.name ?? c.institution_name,
    domain: live?.domain ?? d?.domain ?? null,
    proven: live ? live.domain_proven === true : null,
    status: live?.status ?? null,
  };
}

/** Issuer tier, as a sentence: confirmed only with a proven domain and an approved registration. */
export function signerSentence(s: Signer): string {
  if (s.status && s.status !== 'approved') return `Signed with ${s.name}'s own key, but its registration is ${s.status}.`;
  if (s.proven) return `Confirmed by ${s.name} (${s.domain}, domain proven): its own key signed the record.`;
  if (s.proven === false) return `Signed with ${s.name}'s own key, but its domain${s.domain ? ` ${s.domain}` : ''} is not proven.`;
  return `Signed with ${s.name}'s own key${s.domain ? ` (${s.domain})` : ''}; whether its domain is proven could not be checked just now.`;
}

/** True when a verified certificate is confirmed in the full sense: approved, domain proven, valid. */
export const issuerConfirmed = (c: Holder) => {
  const s = signerOf(c);
  return !!s && s.proven === true && (s.status === null || s.status === 'approved') && c.public_valid;
};

/** What was checked about a verified certificate, in one or two sentences. */
export function checkedSentence(c: Holder): string {
  const s = signerOf(c);
  if (s) return signerSentence(s);
  const checkedName = c.verification_details?.holder_name;
  const name = typeof checkedName === 'string' && checkedName.trim() ? checkedName : "the holder's name";
  return `Checked by Attesta only: the file is intact and its text names the title, institution, program and ${name}; not confirmed by ${c.institution_name}. Ask the institution to confirm it (below).`;
}

/** Why a verified certificate's public verdict is not valid, in words (its note; or its expiry). */
export function notValidReason(c: Holder): string {
  if (c.public_note) return c.public_note;
  if (c.expires_at && Date.parse(c.expires_at) <= Date.now()) return `Expired on ${formatDate(c.expires_at)}.`;
  return 'Its public verdict is not valid.';
}

/**
 * A verified run, as its certificate's badge reads now (holderStatus): the seed's toast word for word
 * where "verified" holds as a verifier reads it (an institution whose domain is proven signed it);
 * otherwise titled as the badge is, saying what was checked, and by whom not.
 */
export function verifiedToast(c: Holder): { kind: 'success' | 'message'; title: string; description: string } {
  const status = holderStatus(c);
  if (status === 'verified') return { kind: 'success', title: 'Certificate Verified', description: 'Your certificate has been successfully verified.' };
  if (status === 'platform_checked') {
    return { kind: 'success', title: statusMeta(status).label, description: `Your certificate has been successfully checked. ${checkedSentence(c).replace(/^Checked by Attesta only: t/, 'T')}` };
  }
  if (status === 'not_valid' || status === 'expired') return { kind: 'message', title: statusMeta(status).label, description: `Your certificate is verified on record, but its public verdict is not valid. ${notValidReason(c)}` };
  return { kind: 'message', title: statusMeta(status).label, description: checkedSentence(c) };
}
