import { PublicKey } from '@solana/web3.js';
import { CertificateStatus, TrustTier, fromHex, type CertificateAccount } from '../../../../shared/program/codec';
import { ReasonCode, reasonName, reasonText } from '../../../../shared/program/reasons';
import type { ConfirmedDetails, RevokedDetails, SupersededDetails } from '../../../../shared/schemas/details';
import { findBySha256, updateCertificate } from '../../db/certificates';
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

/** What `row` must become so it agrees with `record`, or null when it already does (or the change is the pipeline's). */
export async function chainChange(svc: Pick<Services, 'chain'>, row: CertificateRow, record: CertificateAccount | null): Promise<RowChange | null> {
  if (!record) return null;
  if (!record.holder.equals(new PublicKey(row.holder_wallet))) {
    if (row.verification_status === 'superseded') return null;
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
    if (row.verification_status === 'revoked') return null;
    const by = record.verifier ? await describeKey(svc, record.verifier, record) : null;
    const who = by?.name ?? by?.authority ?? 'an authorised key';
    return {
      verification_status: 'revoked',
      tier: row.tier,
      verification_details: {
        kind: 'revoked',
        reason: `Revoked on ${day(record.revokedAt)} by ${who}: ${reasonText(record.reasonCode)}.`,
        reason_code: record.reasonCode,
        reason_name: reasonName(record.reasonCode),
        tier: row.tier,
        revoked_at: iso(record.revokedAt),
        revoked_by: by,
      },
    };
  }
  if (record.status === CertificateStatus.Verified && record.tier === TrustTier.IssuerConfirmed) {
    if (row.verification_status === 'verified' && row.tier === 'issuer_confirmed') return null;
    const by = record.issuer ? await describeKey(svc, record.issuer, record) : null;
    const name = by?.name ?? 'The institution';
    return {
      verification_status: 'verified',
      tier: 'issuer_confirmed',
      verification_details: {
        kind: 'confirmed',
        reason: `${name}${by?.domain ? ` (${by.domain})` : ''} confirmed this certificate on chain: its own key signed the record on ${day(record.verifiedAt)}.`,
        reason_code: 0,
        reason_name: 'none',
        tier: 'issuer_confirmed',
        issuer: by ? { authority: by.authority, name: by.name, domain: by.domain } : null,
        confirmed_at: iso(record.verifiedAt),
      },
    };
  }
  return null;
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
    if (!change) continue;
    const now = new Date().toISOString();
    const updated = await updateCertificate(
      svc.db,
      row.id,
      { verification_status: change.verification_status, tier: change.tier, verification_details: JSON.stringify(change.verification_details), updated_at: now },
      { ifUnchangedSince: row.updated_at },
    );
    if (!updated) continue;
    // Nothing left to verify: the record's state is final for this row.
    await svc.db.updateTable('verification_job').set({ status: 'done', locked_until: null, updated_at: now }).where('certificate_id', '=', row.id).where('status', '=', 'queued').execute();
    svc.bus.publish({ certificate_id: row.id, verification_status: change.verification_status, step: null, step_status: null, updated_at: now });
    changed.push(row.id);
  }
  return changed;
}
