import { PublicKey } from '@solana/web3.js';
import { CertificateStatus, TrustTier, fromHex, type CertificateAccount } from '../../../../shared/program/codec';
import { ReasonCode, reasonName, reasonText, revokerRoleText } from '../../../../shared/program/reasons';
import { checkedHolderName, claimsWereChecked, parseVerificationDetails, type ConfirmedDetails, type RevokedDetails, type SupersededDetails, type VerificationDetailsDto } from '../../../../shared/schemas/details';
import { claimsOf, findBySha256, updateCertificate } from '../../db/certificates';
import { newId } from '../../lib/ids';
import type { CertificateRow } from '../../db/schema';
import type { Services } from '../index';

// The database follows the chain. A certificate's record can change without this server's flows:
// an institution or the operator revokes it, an institution confirms it at the holder's request or
// issues the same file to its rightful holder (superseding an unconfirmed claim). `chainChange`
// says what the row must become for those changes; platform verdicts are this server's own work
// (only its key is a verifier) and are written by the pipeline, never here.

export type ChainOwnedStatus = 'revoked' | 'superseded' | 'verified';

export interface RowChange {
  verification_status: ChainOwnedStatus;
  tier: string;
  verification_details: RevokedDetails | SupersededDetails | ConfirmedDetails;
  /**
   * Set when an institution confirmed the file on chain over claims nobody checked: the institution
   * the row shows becomes the confirming institution's on-chain name (the title and program stay the
   * holder's, and the details say they were not confirmed).
   */
  institution_name?: string;
}

const iso = (secs: bigint) => new Date(Number(secs) * 1000).toISOString();
/** "November 23, 2026": the sentence is read by people (REST clients, logs); the app formats the ISO fields itself. */
const day = (secs: bigint) => new Date(Number(secs) * 1000).toLocaleDateString('en-US', { dateStyle: 'long', timeZone: 'UTC' });

/** Who a key is, in words: the institution (with its name), the platform, or an unknown key. */
export async function describeKey(svc: Pick<Services, 'chain'>, key: PublicKey, record: CertificateAccount) {
  const authority = key.toBase58();
  if (record.issuer && key.equals(record.issuer)) {
    const issuer = await svc.chain.readIssuer(key);
    return { authority, role: 'issuer' as const, name: issuer?.name ?? null, domain: issuer?.uri ?? null };
  }
  const registry = await svc.chain.readRegistry();
  if (registry && (key.equals(registry.admin) || registry.verifiers.some((v) => v.equals(key)))) {
    return { authority, role: 'platform' as const, name: 'Attesta (the platform operator)', domain: null };
  }
  const issuer = await svc.chain.readIssuer(key);
  return { authority, role: issuer ? ('issuer' as const) : ('unknown' as const), name: issuer?.name ?? null, domain: issuer?.uri ?? null };
}

/** True when the platform's content check passed for the claims `row` shows now (a verified row's own verdict, or a confirmation recorded after one). */
function contentCheckedOf(row: CertificateRow): boolean {
  if (row.verification_status !== 'verified') return false;
  const d = parseVerificationDetails(row.verification_details);
  if (!d) return true; // verified rows written before details existed: verified by their content
  if (d.kind === 'verdict') return d.content_checked !== false;
  if (d.kind === 'confirmed') return d.content_checked === true;
  return false;
}

/**
 * True when the institution's word on `record` came from issue_certificate over this holder's own record
 * (a program from before RecordAlreadyNamesHolder let any approved issuer do it), not from a confirmation
 * the holder asked for. confirm_certificate needs the holder's request on chain and keeps `anchored_at`;
 * an issue writes `anchored_at` = `verified_at`. Not such a case: a row added after the record was issued
 * to this wallet (adopted: no anchor of ours), the institution's word written by the product's own issue
 * and confirm flows (claims_confirmed), or a request of the holder's to it that this server knows of (a
 * confirmation within the second of the anchoring).
 */
async function issuedOverOwnRecord(svc: Pick<Services, 'db'>, row: CertificateRow, record: CertificateAccount): Promise<boolean> {
  const issuer = record.issuer?.toBase58() ?? null;
  if (!issuer || record.anchoredAt !== record.verifiedAt || !row.anchor_signature) return false;
  if ((row.claims_confirmed === 1 && row.issuer_authority === issuer) || row.requested_issuer === issuer) return false;
  const asked = await svc.db.selectFrom('confirmation_request').select('id').where('certificate_id', '=', row.id).where('issuer_authority', '=', issuer).executeTakeFirst();
  return !asked;
}

/**
 * What the record alone says `row` must be, whatever the row says now: revoked, superseded (the record
 * names another holder) or verified at the issuer-confirmed tier; null when the record leaves the
 * verdict to the platform (pending, rejected, platform verified). The verification pipeline ends a run
 * with this instead of its own verdict; `contentChecked` is its finding that the content check passed
 * for the row's current claims. An institution's word nobody asked for over the holder's own upload
 * (issuedOverOwnRecord) is said as such and covers the file only, never the claims shown.
 */
export async function chainDecision(svc: Pick<Services, 'chain' | 'db'>, row: CertificateRow, record: CertificateAccount | null, opts: { contentChecked?: boolean } = {}): Promise<RowChange | null> {
  if (!record) return null;
  if (!record.holder.equals(new PublicKey(row.holder_wallet))) {
    // The record now belongs to another wallet: an institution issued this file to its holder.
    const by = record.issuer ? await describeKey(svc, record.issuer, record) : null;
    const who = by?.name ?? 'an institution';
    return {
      verification_status: 'superseded',
      tier: 'none',
      verification_details: {
        kind: 'superseded',
        reason: `Superseded on ${day(record.anchoredAt)}: ${who} issued this file to another wallet (${record.holder.toBase58()}). This earlier claim was never confirmed by the institution and no longer counts.`,
        reason_code: ReasonCode.RevokedSuperseded,
        reason_name: reasonName(ReasonCode.RevokedSuperseded),
        tier: 'none',
        superseded_at: iso(record.anchoredAt),
        superseded_by: by,
        new_holder_wallet: record.holder.toBase58(),
      },
    };
  }
  if (record.status === CertificateStatus.Revoked) {
    const by = record.verifier ? await describeKey(svc, record.verifier, record) : null;
    const who = by?.name ?? by?.authority ?? 'an authorised key';
    return {
      verification_status: 'revoked',
      tier: row.tier,
      verification_details: {
        kind: 'revoked',
        reason: `Revoked on ${day(record.revokedAt)} by ${who}${revokerRoleText(by?.role, row.tier)}: ${reasonText(record.reasonCode)}.`,
        reason_code: record.reasonCode,
        reason_name: reasonName(record.reasonCode),
        tier: row.tier,
        revoked_at: iso(record.revokedAt),
        revoked_by: by,
      },
    };
  }
  if (record.status === CertificateStatus.Verified && record.tier === TrustTier.IssuerConfirmed) {
    const by = record.issuer ? await describeKey(svc, record.issuer, record) : null;
    const name = by?.name ?? 'The institution';
    if (await issuedOverOwnRecord(svc, row, record)) {
      // Not a confirmation: nothing of the platform's check stands on the rewritten record, and the
      // holder's claims (their institution's name too) stay theirs, said as not confirmed.
      return {
        verification_status: 'verified',
        tier: 'issuer_confirmed',
        verification_details: {
          kind: 'confirmed',
          reason: `${name} issued this file to this wallet on chain over the holder's own record on ${day(record.verifiedAt)}, without the holder asking it to confirm it: the title and program shown were entered by the holder and were not confirmed.`,
          reason_code: 0,
          reason_name: 'none',
          tier: 'issuer_confirmed',
          issuer: by ? { authority: by.authority, name: by.name, domain: by.domain } : null,
          confirmed_at: iso(record.verifiedAt),
          claims_confirmed: false,
          content_checked: false,
          requested: false,
        },
      };
    }
    const previous = parseVerificationDetails(row.verification_details);
    // Confirmed through the product's own flow (it records claims_confirmed: true): its word covers the claims.
    const claimsConfirmed = previous?.kind === 'confirmed' && previous.claims_confirmed === true;
    const contentChecked = opts.contentChecked === true || contentCheckedOf(row);
    const unchecked = !claimsConfirmed && !contentChecked;
    const foundName = checkedHolderName(previous);
    return {
      verification_status: 'verified',
      tier: 'issuer_confirmed',
      ...(unchecked && by?.name ? { institution_name: by.name } : {}),
      verification_details: {
        kind: 'confirmed',
        reason: unchecked
          ? `${name} confirmed this file on chain; the title and program shown were entered by the holder and were not confirmed.`
          : `${name}${by?.domain ? ` (${by.domain})` : ''} confirmed this certificate on chain: its own key signed the record on ${day(record.verifiedAt)}.`,
        reason_code: 0,
        reason_name: 'none',
        tier: 'issuer_confirmed',
        issuer: by ? { authority: by.authority, name: by.name, domain: by.domain } : null,
        confirmed_at: iso(record.verifiedAt),
        claims_confirmed: claimsConfirmed,
        content_checked: contentChecked,
        // The holder's name the platform's check found before (the confirmation checks none of its own).
        ...(foundName ? { holder_name: foundName } : {}),
      },
    };
  }
  return null;
}

/** True when `row` already says what `change` says (nothing to write). */
function agrees(row: CertificateRow, change: RowChange): boolean {
  if (row.verification_status !== change.verification_status) return false;
  if (change.verification_status !== 'verified') return true; // revoked / superseded: final, its first details stay
  if (row.tier !== 'issuer_confirmed') return false;
  const said = parseVerificationDetails(row.verification_details);
  // An issue over the holder's own record is said as such, also where an earlier follower called it a confirmation.
  if ((change.verification_details as ConfirmedDetails).requested === false) return said?.requested === false;
  // Already issuer-confirmed: only a finding that the claims were checked after all changes it.
  return claimsWereChecked(said) || !claimsWereChecked(change.verification_details as VerificationDetailsDto);
}

/** What `row` must become so it agrees with `record`, or null when it already does (or the change is the pipeline's). */
export async function chainChange(svc: Pick<Services, 'chain' | 'db'>, row: CertificateRow, record: CertificateAccount | null, opts: { contentChecked?: boolean } = {}): Promise<RowChange | null> {
  // A superseded claim is over for good: when the record names this wallet again later (its issuer
  // revoked the file it issued elsewhere and issued it back), that is the institution's issue, never this
  // claim confirmed (the holder may add the file again to hold it as such).
  if (row.verification_status === 'superseded') return null;
  const change = await chainDecision(svc, row, record, opts);
  return change && !agrees(row, change) ? change : null;
}

/** The row's columns a chain change writes (a confirmation names its institution: issuer.certificates lists it). */
export function rowUpdateOf(change: RowChange, now: string) {
  const confirmedBy = change.verification_details.kind === 'confirmed' ? (change.verification_details.issuer?.authority ?? null) : null;
  return {
    verification_status: change.verification_status,
    tier: change.tier,
    verification_details: JSON.stringify(change.verification_details),
    ...(change.institution_name !== undefined ? { institution_name: change.institution_name } : {}),
    ...(confirmedBy ? { issuer_authority: confirmedBy, requested_issuer: null } : {}),
    updated_at: now,
  };
}

/**
 * A holder's request_confirmation sent outside the product (the holder's own signature names the
 * institution: their consent) becomes an open request in that institution's queue, unless that
 * institution has already been asked about this certificate (an answered request is not reopened).
 */
async function followRequest(svc: Pick<Services, 'db' | 'bus'>, row: CertificateRow, record: CertificateAccount): Promise<boolean> {
  if (!record.issuer || record.tier === TrustTier.IssuerConfirmed || record.status === CertificateStatus.Revoked) return false;
  if (!record.holder.equals(new PublicKey(row.holder_wallet)) || row.verification_status === 'revoked' || row.verification_status === 'superseded') return false;
  const issuer = record.issuer.toBase58();
  if (row.requested_issuer === issuer) return false;
  const known = await svc.db.selectFrom('confirmation_request').select('id').where('certificate_id', '=', row.id).where('issuer_authority', '=', issuer).executeTakeFirst();
  if (known) return false;
  const now = new Date().toISOString();
  await svc.db.transaction().execute(async (trx) => {
    await trx.updateTable('confirmation_request').set({ status: 'withdrawn', decided_at: now }).where('certificate_id', '=', row.id).where('status', '=', 'open').execute();
    await trx
      .insertInto('confirmation_request')
      .values({ id: newId('q_'), certificate_id: row.id, holder_user_id: row.user_id, issuer_authority: issuer, status: 'open', claims: JSON.stringify(claimsOf(row)), request_signature: null, decline_reason: null, created_at: now, decided_at: null, decision_signature: null })
      .execute();
    await updateCertificate(trx, row.id, { requested_issuer: issuer, updated_at: now });
  });
  svc.bus.publish({ certificate_id: row.id, verification_status: row.verification_status, step: null, step_status: null, updated_at: now });
  return true;
}

/**
 * Open confirmation requests of a row the chain decided outside the product's flows: confirmed by the
 * institution asked → confirmed; revoked or superseded → withdrawn (nothing left to confirm).
 */
async function settleRequests(svc: Pick<Services, 'db'>, certificateId: string, change: RowChange, now: string) {
  const d = change.verification_details;
  let q = svc.db.updateTable('confirmation_request').where('certificate_id', '=', certificateId).where('status', '=', 'open');
  if (d.kind === 'confirmed') {
    if (!d.issuer) return;
    q = q.where('issuer_authority', '=', d.issuer.authority);
    await q.set({ status: 'confirmed', decided_at: now }).execute();
    return;
  }
  await q.set({ status: 'withdrawn', decided_at: now }).execute();
}

/**
 * Re-reads the record of `sha256` and brings every row of that file in line. The update is
 * conditional on the row being unchanged since it was read, so a flow writing the same row at the
 * same time (with richer details) wins. Returns the ids changed.
 */
export async function reconcileCertificate(svc: Pick<Services, 'chain' | 'db' | 'bus'>, sha256: string): Promise<string[]> {
  const rows = await findBySha256(svc.db, sha256);
  if (!rows.length) return [];
  const record = await svc.chain.readCertificate(fromHex(sha256));
  const changed: string[] = [];
  for (const row of rows) {
    const change = await chainChange(svc, row, record);
    if (!change) {
      if (record && (await followRequest(svc, row, record))) changed.push(row.id);
      continue;
    }
    const now = new Date().toISOString();
    const updated = await updateCertificate(svc.db, row.id, rowUpdateOf(change, now), { ifUnchangedSince: row.updated_at, ifStatus: row.verification_status });
    if (!updated) continue;
    // Nothing left to verify: the record's state is final for this row.
    await svc.db.updateTable('verification_job').set({ status: 'done', locked_until: null, updated_at: now }).where('certificate_id', '=', row.id).where('status', '=', 'queued').execute();
    await settleRequests(svc, row.id, change, now);
    svc.bus.publish({ certificate_id: row.id, verification_status: change.verification_status, step: null, step_status: null, updated_at: now });
    changed.push(row.id);
  }
  return changed;
}
