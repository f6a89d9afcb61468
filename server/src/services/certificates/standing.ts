import { PublicKey } from '@solana/web3.js';
import { CertificateStatus, TrustTier, fromHex, isExpired } from '../../../../shared/program/codec';
import { certificateStatusName, issuerStatusName, trustTierName } from '../../../../shared/program/names';
import type { CertificateDto, VerdictDto, VerdictInstitution, VerdictStatus } from '../../../../shared/schemas/dto';
import { claimsWereChecked, parseVerificationDetails } from '../../../../shared/schemas/details';
import type { CertificateRow } from '../../db/schema';
import type { Services } from '../index';
import { expiredNote, judgeRecord, platformFlags } from './verdict';

// What the public verdict of a holder's certificate says now, carried by the holder's own DTO
// (CertificateDto.public_valid, public_note, expires_at, public_issuer) so that the holder's pages never
// show as verified, shareable or mintable what a verifier reads as Not valid.
//
// One certificate (certificate.byId): the public verdict itself (computeVerdict by id, the share link's).
// A list (certificate.list, the dashboard's counters, the institution's list): the same rules applied to
// rows already loaded, reading the chain only for verified issuer-confirmed certificates (their record:
// expiry and holder; each distinct institution once: status; their domain proofs in one query). A
// platform-checked certificate is settled by its row: its record cannot expire (the platform anchors
// without an expiry) and it names no confirming institution. Measured on SQLite, embedded chain, 200
// issuer-confirmed certificates: the list alone 4.5 ms, with this 15 ms, with a verdict each 113 ms.
// server/test/holder-standing.test.ts holds the two ways to the same answer.

export type PublicStanding = Pick<CertificateDto, 'public_valid' | 'public_note' | 'expires_at' | 'public_issuer'>;

/** A certificate that is not verified: its public verdict is never valid (nothing read). */
const NOT_VERIFIED: PublicStanding = { public_valid: false, public_note: null, expires_at: null, public_issuer: null };

const iso = (secs: bigint) => (secs === 0n ? null : new Date(Number(secs) * 1000).toISOString());

/**
 * The row alone: a platform-checked certificate (settled by its row, as computeVerdict judges it), or
 * one whose record could not be read (its recorded status and whether its claims were checked).
 */
function fromRow(row: CertificateRow): PublicStanding {
  if (row.verification_status !== 'verified') return NOT_VERIFIED;
  const details = parseVerificationDetails(row.verification_details);
  const claimsChecked = claimsWereChecked(details);
  if (row.tier === 'platform_verified') {
    const { valid, note } = judgeRecord({ verified: true, tier: 'platform_verified', confirmer: null, claimsChecked, claimedInstitution: row.institution_name, flags: platformFlags(details) });
    return { public_valid: valid, public_note: note, expires_at: null, public_issuer: null };
  }
  return { public_valid: claimsChecked, public_note: null, expires_at: null, public_issuer: null };
}

/** Why a verdict that has no note of its own is not valid, in words (expired, or what the record says). */
function noteOf(v: Pick<VerdictDto, 'valid' | 'note' | 'status' | 'expires_at'>): string | null {
  if (v.note || v.valid) return v.note;
  if (v.status === 'expired') return expiredNote(v.expires_at);
  return `Its record on chain is ${v.status === 'not_found' ? 'missing' : v.status}.`;
}

/** The standing a public verdict (by id) gives. */
export function standingOfVerdict(v: VerdictDto): PublicStanding {
  return { public_valid: v.valid, public_note: noteOf(v), expires_at: v.expires_at, public_issuer: v.issuer };
}

/**
 * One certificate (byId, after a change of claims): its public verdict by id, as its share link shows
 * it. A certificate that is not verified is never valid (no read); when the chain cannot be read, its row.
 */
export async function standingOf(svc: Pick<Services, 'verdicts'>, row: CertificateRow, origin: string): Promise<PublicStanding> {
  if (row.verification_status !== 'verified') return NOT_VERIFIED;
  try {
    return standingOfVerdict(await svc.verdicts.verdictFor({ sha256: row.sha256, cert: row, origin }));
  } catch (e) {
    console.warn(`certificate ${row.id}: public verdict unavailable (${(e as Error).message}); shown from its row`);
    return fromRow(row);
  }
}

/**
 * Many certificates at once (lists, counters): computeVerdict's rules over rows already loaded (see
 * the head of this file). Same order as `rows`.
 */
export async function standingsOf(svc: Pick<Services, 'db' | 'chain'>, rows: CertificateRow[]): Promise<PublicStanding[]> {
  const confirmed = rows.filter((r) => r.verification_status === 'verified' && r.tier === 'issuer_confirmed');
  if (!confirmed.length) return rows.map(fromRow);
  try {
    const { chain } = svc;
    const now = await chain.now();
    const records = new Map(await Promise.all(confirmed.map(async (r) => [r.id, (await chain.readCertificateRecord(fromHex(r.sha256), r.record_address))?.record ?? null] as const)));
    const authorities = [...new Set([...records.values()].flatMap((rec) => (rec?.issuer && rec.tier === TrustTier.IssuerConfirmed ? [rec.issuer.toBase58()] : [])))];
    const accounts = new Map(await Promise.all(authorities.map(async (a) => [a, await chain.readIssuer(new PublicKey(a))] as const)));
    const profiles = authorities.length
      ? new Map((await svc.db.selectFrom('issuer_profile').select(['authority', 'domain', 'proof_status']).where('authority', 'in', authorities).execute()).map((p) => [p.authority, p]))
      : new Map();
    const institution = (authority: string): VerdictInstitution => {
      const acc = accounts.get(authority) ?? null;
      const profile = acc ? profiles.get(authority) : undefined;
      return {
        authority,
        name: acc?.name ?? null,
        uri: acc?.uri ?? null,
        status: acc ? (issuerStatusName(acc.status) ?? null) : null,
        domain: profile?.domain ?? null,
        domain_proven: profile?.proof_status === 'proven',
      };
    };
    return rows.map((row) => {
      if (!records.has(row.id)) return fromRow(row);
      const rec = records.get(row.id)!;
      let status: VerdictStatus = 'not_found';
      if (rec) status = rec.status !== CertificateStatus.Revoked && isExpired(rec, now) ? 'expired' : (certificateStatusName(rec.status) ?? 'pending');
      const confirmer = rec?.issuer && rec.tier === TrustTier.IssuerConfirmed ? institution(rec.issuer.toBase58()) : null;
      // As computeVerdict (verdict.ts) judges a certificate by id.
      const superseded = !!rec && rec.holder.toBase58() !== row.holder_wallet;
      const verified = status === 'verified' && !superseded;
      const { valid, note } = judgeRecord({
        verified,
        tier: rec ? (trustTierName(rec.tier) ?? 'none') : 'none',
        confirmer,
        claimsChecked: claimsWereChecked(parseVerificationDetails(row.verification_details)),
        claimedInstitution: row.institution_name,
      });
      const expires_at = rec ? iso(rec.expiresAt) : null;
      return {
        public_valid: valid,
        public_note: noteOf({ valid, note, status: superseded ? 'superseded' : status, expires_at }),
        expires_at,
        public_issuer: confirmer,
      };
    });
  } catch (e) {
    console.warn(`certificates: public verdicts unavailable (${(e as Error).message}); shown from their rows`);
    return rows.map(fromRow);
  }
}
