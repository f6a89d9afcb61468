// What a verdict says, in words and tones, apart from how it is drawn (ChainVerdict, the public view's
// badge): one place where "verified" is worded to mean exactly what a verifier reads into it.
// - "Issuer confirmed" only when an approved institution whose domain is proven signed the record with
//   its own key; a key of an institution whose domain is not proven, or whose registration is not in
//   order, is said as such, in the attention tone, never as a confirmation.
// - A platform check is "Checked by Attesta only — not confirmed by <the claimed institution>", with what
//   was checked and how the institution's word can be had.
// - A record the chain calls verified but that is not valid (a suspended institution, claims a
//   confirmation does not cover, a confirmation by another institution than the one the certificate
//   names, an expiry passed) is "Not valid", with the reason (and the date).
// - What the platform's check flagged goes with every verdict that rests on that check, in amber: it does
//   not make the certificate invalid on its own, and the words say so.
import type { VerdictDto } from '../../../../../shared/schemas/dto';
import { checkedHolderName } from '../../../../../shared/schemas/details';
import { reasonText } from '../../../../../shared/program/reasons';
import { chainReason } from '../../certificates/lib/chain-reason';
import { formatDate } from '../../../lib/dates';

/** pass: checked and holds; fail: fails; warn: attention; info: a record detail; neutral: not checked. */
export type Tone = 'pass' | 'fail' | 'warn' | 'info' | 'neutral';

export const STATUS_TEXT: Record<string, string> = {
  verified: 'Verified on chain',
  rejected: 'Rejected by verification',
  revoked: 'Revoked',
  superseded: 'Superseded: the institution issued this file to another holder',
  expired: 'Expired',
  pending: 'Verification pending',
  not_found: 'No on-chain record for this file',
};

/**
 * How far an institution's key on the record goes. `proven`: an approved institution whose domain is
 * proven — the only signature worded "Issuer confirmed". `unproven`: approved, its domain not proven (the
 * demo institution's never is; a proof can lapse). `not_approved`: suspended, pending, or unreadable.
 */
export type Standing = 'proven' | 'unproven' | 'not_approved';

export function standingOf(issuer: VerdictDto['issuer']): Standing {
  if (issuer?.status !== 'approved') return 'not_approved';
  return issuer.domain_proven ? 'proven' : 'unproven';
}

/** "Attesta Demo University's own key" etc.: an institution by name, or said generically. */
export const nameOf = (issuer: VerdictDto['issuer']) => issuer?.name ?? 'the issuing institution';

/**
 * Why a signature by an institution that is not proven is no confirmation, in the words of the server's
 * note (verdict.ts: "…'s own key signed the record, but its domain … is not proven at present").
 */
export function notConfirmationText(issuer: VerdictDto['issuer']): string {
  const name = nameOf(issuer);
  const why =
    standingOf(issuer) === 'unproven'
      ? `its domain${issuer?.domain ? ` ${issuer.domain}` : ''} is not proven at present`
      : issuer?.status
        ? `its registration as an issuer is ${issuer.status}`
        : 'its registration as an issuer could not be read';
  return `The record was signed with ${name}'s own key, but ${why}, so this is not a confirmation by a proven institution.`;
}

/** What the platform's own check covered: the file, and the claims and holder its text names. */
export function platformCheckText(verdict: VerdictDto): string {
  const holder = checkedHolderName(verdict.certificate?.verification_details ?? null);
  const named = holder ? `the claimed title, institution and program and the holder, ${holder}` : 'the claimed title, institution and program';
  return verdict.certificate ? `The file is the one recorded on chain and its text names ${named}.` : 'The file is the one recorded on chain, and Attesta checked its text against the claims it was added with.';
}

/** How a platform-only check can become the institution's word. */
export function askText(verdict: VerdictDto): string {
  const asked = verdict.confirmation_requested_from;
  if (asked) return `The holder asked ${asked.name ?? 'an institution'} to confirm it; it has not confirmed it yet.`;
  return `Ask the holder to request confirmation from ${verdict.certificate?.institution_name ?? 'the institution'}.`;
}

/**
 * What the platform's check flagged, where the verdict rests on that check (`verdict.flags`), and what
 * that means: not a rejection on its own, and not the institution's word. Null when nothing was flagged.
 */
export function flagsText(verdict: VerdictDto): string | null {
  const flags = verdict.flags ?? [];
  if (!flags.length) return null;
  const institution = verdict.certificate?.institution_name ?? 'the institution';
  return `Attesta's check flagged: ${flags.join(' ')} On their own these do not make it invalid (its text names the claims), but only ${institution} can confirm it.`;
}

/** A verdict found by the hash of the image its holder uploaded (`original_sha256`): what that hash is. */
export function originalUploadText(verdict: VerdictDto): string | null {
  if (!verdict.original_sha256) return null;
  return "This is the original image its holder uploaded: Attesta converted it to the PDF recorded on chain, and this is that PDF's verdict (the link between the two is Attesta's record of the upload).";
}

/** Whether two institution names are the same name (case, spacing and punctuation aside), as the server compares them. */
const sameInstitution = (a: string, b: string) => {
  const norm = (s: string) => s.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
  return norm(a) === norm(b);
};

/**
 * The institution the certificate names, when the institution whose key confirmed the record is another
 * one (a confirmation sent on chain outside the product's flow): its key is not the named institution's word.
 */
export function otherInstitutionNamed(verdict: VerdictDto): string | null {
  const named = verdict.certificate?.institution_name;
  const confirmer = verdict.issuer?.name;
  // The server judges it (judgeRecord): only a verdict it found not valid is worded so.
  if (verdict.valid || verdict.status !== 'verified' || verdict.tier !== 'issuer_confirmed' || !named || !confirmer) return null;
  return sameInstitution(named, confirmer) ? null : named;
}

/** "Checked by Attesta only — not confirmed by <the institution the certificate names>". */
export const platformTitle = (verdict: VerdictDto) => `Checked by Attesta only — not confirmed by ${verdict.certificate?.institution_name ?? 'any institution'}`;

/** What a record that is no longer valid had, never worded as more than it was. */
export function tierHad(verdict: VerdictDto): string | null {
  if (verdict.tier === 'platform_verified') return 'Checked by Attesta only';
  if (verdict.tier !== 'issuer_confirmed') return null;
  return standingOf(verdict.issuer) === 'proven' ? `Issuer confirmed by ${nameOf(verdict.issuer)}` : `signed with ${nameOf(verdict.issuer)}'s own key`;
}

/**
 * The verdict in one word for the page's badge: never more than the verdict below it. A record the
 * chain calls verified is `not_valid` when the verdict is not valid, `platform_checked` when only the
 * platform checked it, and `domain_not_proven` when an institution whose domain is not proven signed it.
 */
export function verdictStatus(verdict: VerdictDto): string {
  if (verdict.integrity === 'mismatch') return 'rejected';
  if (verdict.status !== 'verified') return verdict.status;
  if (!verdict.valid) return 'not_valid';
  if (verdict.tier === 'platform_verified') return 'platform_checked';
  if (verdict.tier === 'issuer_confirmed') {
    const standing = standingOf(verdict.issuer);
    return standing === 'proven' ? 'verified' : standing === 'unproven' ? 'domain_not_proven' : 'not_valid';
  }
  return 'verified';
}

/**
 * Why a certificate is not valid, in words anyone may read. A rejection says which rule it broke, not
 * the holder's document text; a revocation or supersession says who did it (public on chain anyway).
 */
export function verdictReason(verdict: VerdictDto): string | null {
  // Past its expiry: when, in the reader's own date format.
  if (verdict.status === 'expired' && verdict.integrity !== 'mismatch') {
    return verdict.expires_at ? `It expired on ${formatDate(verdict.expires_at)}: it is not valid after that date.` : 'It has expired: it is not valid any more.';
  }
  // The server's words for a verified record that is not valid (a suspended institution; claims its
  // confirmation does not cover; another institution's confirmation), or for a pending one that waits.
  if (verdict.note && !verdict.valid) return verdict.note;
  if (verdict.status === 'verified' && !verdict.valid && verdict.integrity !== 'mismatch') {
    return 'The title, institution and program shown were not checked against the document.';
  }
  const row = verdict.certificate;
  if ((verdict.status === 'revoked' || verdict.status === 'superseded') && row?.verification_status === verdict.status) {
    const said = chainReason(verdict.status, row.verification_details);
    if (said) return said;
  }
  if (verdict.status === 'pending' && row?.verification_details?.state === 'awaiting_confirmation') {
    return 'Its content could not be read automatically, so it is not verified: it waits for the issuing institution to confirm it on chain.';
  }
  if (!verdict.reason_code) return null;
  const text = reasonText(verdict.reason_code);
  return `${text[0].toUpperCase()}${text.slice(1)}.`;
}

/** ", example.edu, domain proven" (or "not proven now"): whether the institution proved the domain it registered. */
export function institutionDomain(issuer: VerdictDto['issuer'], inList = false): string {
  if (!issuer?.domain) return '';
  const proof = issuer.domain_proven ? 'domain proven' : 'domain not proven now';
  return inList ? `, ${issuer.domain}, ${proof}` : ` (${issuer.domain}, ${proof})`;
}

/** The headline: what was checked, by whom, in the tone of the verdict (green only for a valid check, saying whose). */
export function verdictSummary(verdict: VerdictDto): {
  tone: 'pass' | 'warn' | 'fail';
  pending: boolean;
  title: string;
  text: string;
  /** What the platform's check flagged (an amber line of the verdict), or null. */
  flags: string | null;
  /** The hash looked up is the holder's original image of the recorded PDF, or null. */
  original: string | null;
} {
  if (verdict.integrity === 'mismatch') return { tone: 'fail', pending: false, title: 'Not valid', text: 'The file does not match the one recorded on chain.', flags: null, original: null };
  const said = { flags: flagsText(verdict), original: originalUploadText(verdict) };
  return { ...headline(verdict), ...said };
}

function headline(verdict: VerdictDto): { tone: 'pass' | 'warn' | 'fail'; pending: boolean; title: string; text: string } {
  const reason = () => verdictReason(verdict) ?? STATUS_TEXT[verdict.status] ?? verdict.status;
  if (verdict.status === 'pending') return { tone: 'warn', pending: true, title: 'Not verified yet', text: reason() };
  if (!verdict.valid) {
    const title = verdict.status === 'revoked' || verdict.status === 'superseded' || verdict.status === 'expired' ? `Not valid: ${verdict.status}` : 'Not valid';
    return { tone: 'fail', pending: false, title, text: reason() };
  }
  if (verdict.tier === 'platform_verified') {
    return { tone: 'pass', pending: false, title: platformTitle(verdict), text: `${platformCheckText(verdict)} ${askText(verdict)}` };
  }
  if (verdict.tier === 'issuer_confirmed') {
    const issuer = verdict.issuer;
    if (standingOf(issuer) === 'proven') {
      return { tone: 'pass', pending: false, title: `Authentic: confirmed by ${nameOf(issuer)}`, text: `Confirmed by ${nameOf(issuer)}${issuer?.domain ? ` (${issuer.domain})` : ''}: its own key signed the record.` };
    }
    return { tone: 'warn', pending: false, title: 'Not confirmed by a proven institution', text: notConfirmationText(issuer) };
  }
  return { tone: 'warn', pending: false, title: 'Verified on chain, with no trust tier recorded', text: 'No institution confirmed it and no platform check is recorded for it.' };
}

export interface VerdictSteps {
  status: { tone: Tone; title: string; /** The reason or caveat under it (the server's note, with data-testid verdict-note). */ note: string | null; reason: string | null };
  tier: { tone: Tone; text: string };
  issuer: { tone: Tone; text: string };
}

/** The status, trust tier and issuer steps: each mark agrees with the verdict, each text says what holds. */
export function verdictSteps(verdict: VerdictDto): VerdictSteps {
  const status = verdict.status;
  const verified = status === 'verified';
  const issuer = verdict.issuer;
  const standing = standingOf(issuer);
  const confirmedByIssuer = verified && verdict.tier === 'issuer_confirmed';
  const otherNamed = otherInstitutionNamed(verdict);
  // Verified on chain, yet the file given is another one, or the verdict is not valid (claims the
  // confirmation does not cover, a suspended institution), or the server adds a caveat (a domain not proven).
  const mismatch = verdict.integrity === 'mismatch';
  const claimsNotCovered = verified && !verdict.valid && !mismatch;
  // The server's note for a platform-only check only repeats the tier step ("Checked by Attesta only, not
  // confirmed by …"): it is no caveat on the status.
  const caveat = verified && verdict.note && verdict.tier !== 'platform_verified' ? verdict.note : null;
  const statusTone: Tone = verified ? (verdict.valid && !caveat ? 'pass' : 'warn') : status === 'pending' ? 'warn' : 'fail';
  const statusTitle = !verified
    ? (STATUS_TEXT[status] ?? status)
    : mismatch
      ? 'Verified on chain, for the file recorded there: not the file given'
      : verdict.valid
        ? STATUS_TEXT.verified
        : 'Verified on chain, but not valid';

  // The tier only counts for a verified record; otherwise the verdict's own status says why none applies.
  let tierTone: Tone = statusTone;
  let tierText: string;
  if (confirmedByIssuer) {
    if (standing !== 'proven') {
      // An institution's key, but not a proven institution: never "Issuer confirmed".
      tierTone = 'warn';
      tierText = notConfirmationText(issuer);
    } else if (otherNamed) {
      tierText = `Not ${otherNamed}'s confirmation: ${nameOf(issuer)}${institutionDomain(issuer)} signed this record on chain with its own key, but the certificate names ${otherNamed}.`;
    } else if (claimsNotCovered) {
      tierText = `Issuer confirmed the file only: ${nameOf(issuer)}${institutionDomain(issuer)} signed this record on chain with its own key, but the title and program shown were entered by the holder and were not confirmed.`;
    } else {
      tierText = `Issuer confirmed: ${nameOf(issuer)}${institutionDomain(issuer)} signed this record on chain with its own key.`;
    }
  } else if (verified && verdict.tier === 'platform_verified') {
    // Never to be mistaken for the institution's word: what the platform checked, what it did not, and what it flagged.
    const flagged = flagsText(verdict);
    if (flagged && !claimsNotCovered) tierTone = 'warn';
    tierText = claimsNotCovered
      ? `${platformTitle(verdict)}. ${verdictReason(verdict)}`
      : `${platformTitle(verdict)}. ${platformCheckText(verdict)}${flagged ? ` ${flagged}` : ''}`;
  } else if (verified) {
    tierTone = 'warn';
    tierText = 'No trust tier is recorded.';
  } else if (status === 'pending') tierText = 'None yet: the certificate is not verified.';
  else {
    const had = tierHad(verdict);
    tierText = `None: the certificate is ${status === 'not_found' ? 'not on chain' : status}.${had ? ` What it had (${had}) no longer applies.` : ''}`;
  }

  // The institution: confirmed (pass), signed but not proven (attention), registration not in order
  // (fail / attention), or simply not involved — said as a record detail, never as an unchecked step
  // beside a passed tier.
  let issuerTone: Tone = 'info';
  let issuerText: string;
  if (issuer) {
    const name = issuer.name ?? 'An unnamed issuer';
    if (issuer.status === 'suspended') {
      issuerTone = 'fail';
      issuerText = `${name}: its registration as an issuer is suspended, so its key on this record no longer counts as a confirmation.`;
    } else if (issuer.status !== 'approved') {
      issuerTone = 'warn';
      issuerText = `${name}: not an approved issuer${issuer.status ? ` (${issuer.status})` : ''}.`;
    } else if (status === 'superseded') {
      issuerText = `${name} issued this file to another wallet.`;
    } else if (confirmedByIssuer && standing === 'unproven') {
      issuerTone = 'warn';
      issuerText = `${name} (approved issuer${institutionDomain(issuer, true)}) signed this record on chain with its own key.`;
    } else if (confirmedByIssuer && otherNamed) {
      issuerTone = 'warn';
      issuerText = `${name} (approved issuer${institutionDomain(issuer, true)}) confirmed this file on chain; the certificate names ${otherNamed}, which has not confirmed it.`;
    } else if (confirmedByIssuer && claimsNotCovered) {
      issuerTone = 'warn';
      issuerText = `${name} (approved issuer${institutionDomain(issuer, true)}) confirmed this file on chain, not the title and program shown.`;
    } else if (confirmedByIssuer) {
      issuerTone = 'pass';
      issuerText = `${name} (approved issuer${institutionDomain(issuer, true)}) confirmed this certificate on chain.`;
    } else if (verdict.tier === 'issuer_confirmed') {
      // Signed once; the record's status (revoked, expired) is what counts now.
      issuerText = `${name} (approved issuer${institutionDomain(issuer, true)}) ${standing === 'proven' ? 'confirmed this certificate' : 'signed this record'} on chain; it is ${status} now.`;
    } else {
      issuerText = `${name} (approved issuer) has not confirmed this certificate.`;
    }
  } else if (verdict.confirmation_requested_from) {
    const asked = verdict.confirmation_requested_from.name ?? 'an institution';
    issuerText = `The holder asked ${asked} to confirm this certificate; it has not confirmed it.`;
  } else {
    issuerText = verified
      ? `No institution has confirmed this certificate on chain: the document was checked by the platform. ${askText(verdict)}`
      : 'No registered institution is linked to this record.';
  }

  const statusReason = !verified ? verdictReason(verdict) : claimsNotCovered && !verdict.note ? verdictReason(verdict) : null;
  return {
    status: { tone: statusTone, title: `Status: ${statusTitle}`, note: verified && !verdict.valid ? verdict.note : caveat, reason: statusReason },
    tier: { tone: tierTone, text: tierText },
    issuer: { tone: issuerTone, text: issuerText },
  };
}
