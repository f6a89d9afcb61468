import { PublicKey } from '@solana/web3.js';
import { CertificateStatus, TrustTier, fromHex, type CertificateAccount } from '../../../../shared/program/codec';
import { ReasonCode, reasonName, reasonText, revokerRoleText } from '../../../../shared/program/reasons';
import { checkedHolderName, claimsWereChecked, parseVerificationDetails, type ConfirmedDetails, type RevokedDetails, type SupersededDetails, type VerificationDetailsDto } from '../../../../shared/schemas/details';
import type { Kysely } from 'kysely';
import { claimsOf, findBySha256, lockCertificate, updateCertificate } from '../../db/certificates';
import { appendEvent } from '../../db/events';
import { newId } from '../../lib/ids';
import type { CertificateRow, Database } from '../../db/schema';
import { chainChangeEvent, claimsText } from '../certificates/history';
import { sameInstitution } from '../issuers/names';
import type { Services } from '../index';

// The database follows the chain. A certificate's record can change without this server's flows:
// an institution or the operator revokes it, an institution confirms it at the holder's request or
// issues the same file to its rightful holder (superseding an unconfirmed claim). `chainChange`
// says what the row must become for those changes; platform verdicts are this server's own work
// (only its key is a verifier) and are written by the pipeline, never here.

export type ChainOwnedStatus = 'revoked' | 'superseded' | 'verified';

/**
 * What a row must become. The claims (title, institution, program, issue date) are the holder's and are
 * never rewritten here: a confirmation on chain over claims nobody checked says so in its details (the
 * institution that signed is named there, never put in place of the institution the holder claimed).
 */
export interface RowChange {
  verification_status: ChainOwnedStatus;
  tier: string;
  verification_details: RevokedDetails | SupersededDetails | ConfirmedDetails;
}

/** Runs `fn` in a transaction of its own, or in the caller's when `db` already is one. */
export function inTransaction<T>(db: Kysely<Database>, fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn);
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
    // An institution's key signing a certificate that names another institution covers the file, never
    // the details: the platform's reading of them is no reason to present them as its word.
    const named = !!by?.name && sameInstitution(row.institution_name, by.name);
    const contentChecked = named && (opts.contentChecked === true || contentCheckedOf(row));
    const unchecked = !claimsConfirmed && !contentChecked;
    const foundName = checkedHolderName(previous);
    return {
      verification_status: 'verified',
      tier: 'issuer_confirmed',
      verification_details: {
        kind: 'confirmed',
        reason: !named
          ? `${name} confirmed this file on chain, but the certificate names “${row.institution_name}”: its confirmation does not cover the details shown.`
          : unchecked
            ? `${name} confirmed this file on chain; the title, institution and program shown were entered by the holder and were not confirmed.`
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
    ...(confirmedBy ? { issuer_authority: confirmedBy, requested_issuer: null } : {}),
    updated_at: now,
  };
}

/**
 * A holder's request_confirmation sent outside the product (the holder's own signature names the
 * institution: their consent) becomes an open request in that institution's queue, unless that
 * institution has already been asked about this certificate (an answered or withdrawn request is not
 * reopened). Only the institution the certificate's claims name is passed the request: one that names
 * another institution is recorded as withdrawn (with why, for the holder), never queued, so no other
 * institution is offered a certificate to confirm in another's name. Either way the request the record
 * named before cannot be confirmed on chain any more: it is withdrawn.
 */
async function followRequest(svc: Pick<Services, 'db' | 'bus' | 'chain'>, row: CertificateRow, record: CertificateAccount, signature: string | null): Promise<boolean> {
  if (!record.issuer || record.tier === TrustTier.IssuerConfirmed || record.status === CertificateStatus.Revoked) return false;
  if (!record.holder.equals(new PublicKey(row.holder_wallet)) || row.verification_status === 'revoked' || row.verification_status === 'superseded') return false;
  const issuer = record.issuer.toBase58();
  if (row.requested_issuer === issuer) return false;
  const known = await svc.db.selectFrom('confirmation_request').select('id').where('certificate_id', '=', row.id).where('issuer_authority', '=', issuer).executeTakeFirst();
  if (known) return false;
  const account = await svc.chain.readIssuer(record.issuer);
  const name = account?.name ?? null;
  const names = name !== null && sameInstitution(row.institution_name, name);
  const who = name ?? issuer;
  const claims = claimsOf(row);
  const now = new Date().toISOString();
  const refused = `This certificate names “${row.institution_name}”, not ${who}: only the institution a certificate names can confirm it, so the request was not passed on. If the institution is mistyped, correct the details; otherwise ask ${row.institution_name} once it is on Attesta.`;
  await inTransaction(svc.db, async (trx) => {
    await lockCertificate(trx, row.id); // the row, then its requests: as every writer of both
    await withdrawOpenRequests(trx, row.id, `You asked ${who} instead (on chain).`, now, { chain: svc.chain });
    await recordRequest(trx, { certificateId: row.id, holderUserId: row.user_id, issuer, claims, signature, now, withdrawnReason: names ? null : refused });
    const actor = { role: 'holder' as const, wallet: row.holder_wallet, name: null };
    await appendEvent(
      trx,
      names
        ? { certificate_id: row.id, kind: 'confirmation_requested', actor, source: 'chain', signature, message: `Asked ${who} to confirm the details ${claimsText(claims)} (a request sent on chain outside Attesta).`, details: { issuer, claims }, at: now }
        : { certificate_id: row.id, kind: 'request_withdrawn', actor, source: 'chain', signature, message: `A request to ${who}, sent on chain outside Attesta, was not passed on. ${refused}`, details: { issuer, claims, reason: refused }, at: now },
    );
  });
  svc.bus.publish({ certificate_id: row.id, verification_status: row.verification_status, step: null, step_status: null, updated_at: now });
  return true;
}

/**
 * Records a holder's request to `issuer` (its on-chain transaction: `signature`, null when unknown) for
 * the claims it was shown: open, and named on the certificate's row as the institution asked; or, with
 * `withdrawnReason`, withdrawn at once (never in the institution's queue). Returns its id.
 */
export async function recordRequest(
  trx: Kysely<Database>,
  r: { certificateId: string; holderUserId: string; issuer: string; claims: ReturnType<typeof claimsOf>; signature: string | null; now: string; withdrawnReason: string | null },
) {
  const id = newId('q_');
  const open = r.withdrawnReason === null;
  await trx
    .insertInto('confirmation_request')
    .values({
      id,
      certificate_id: r.certificateId,
      holder_user_id: r.holderUserId,
      issuer_authority: r.issuer,
      status: open ? 'open' : 'withdrawn',
      claims: JSON.stringify(r.claims),
      request_signature: r.signature,
      decline_reason: null,
      created_at: r.now,
      decided_at: open ? null : r.now,
      decision_signature: null,
      withdrawn_reason: r.withdrawnReason,
    })
    .execute();
  await updateCertificate(trx, r.certificateId, { requested_issuer: open ? r.issuer : null, updated_at: r.now });
  return id;
}

/**
 * Closes the open confirmation requests of a certificate without an answer (`reason` tells the holder
 * why), with an entry in its history for each. Returns the requests withdrawn.
 */
export async function withdrawOpenRequests(
  trx: Kysely<Database>,
  certificateId: string,
  reason: string,
  now: string,
  opts: { actor?: { role: 'holder' | 'platform'; wallet: string | null }; chain?: Pick<Services['chain'], 'readIssuer'> } = {},
) {
  const actor = opts.actor ?? { role: 'platform' as const, wallet: null };
  const open = await trx.selectFrom('confirmation_request').select(['id', 'issuer_authority', 'claims']).where('certificate_id', '=', certificateId).where('status', '=', 'open').execute();
  for (const r of open) {
    const done = await trx.updateTable('confirmation_request').set({ status: 'withdrawn', decided_at: now, withdrawn_reason: reason }).where('id', '=', r.id).where('status', '=', 'open').executeTakeFirst();
    if (Number(done.numUpdatedRows) !== 1) continue;
    // The institution by name: its on-chain registration, else its profile, else its address.
    const onChain = opts.chain ? await opts.chain.readIssuer(new PublicKey(r.issuer_authority)).catch(() => null) : null;
    const name = onChain?.name ?? (await trx.selectFrom('issuer_profile').select('name').where('authority', '=', r.issuer_authority).executeTakeFirst())?.name ?? r.issuer_authority;
    await appendEvent(trx, {
      certificate_id: certificateId,
      kind: 'request_withdrawn',
      actor: { ...actor, name: null },
      source: 'attesta',
      message: `The request to ${name} was withdrawn: ${reason.charAt(0).toLowerCase()}${reason.slice(1)}`,
      details: { request_id: r.id, issuer: r.issuer_authority, reason },
      at: now,
    });
  }
  return open;
}

/**
 * Open confirmation requests of a row the chain decided outside the product's flows: confirmed by the
 * institution asked → confirmed (its confirmation on chain covers the file; the details it was shown
 * are credited only by the product's own flow); revoked or superseded → withdrawn (nothing left to confirm).
 */
async function settleRequests(trx: Kysely<Database>, certificateId: string, change: RowChange, now: string, chain?: Pick<Services['chain'], 'readIssuer'>) {
  const d = change.verification_details;
  if (d.kind === 'confirmed') {
    if (!d.issuer) return;
    await trx.updateTable('confirmation_request').set({ status: 'confirmed', decided_at: now }).where('certificate_id', '=', certificateId).where('status', '=', 'open').where('issuer_authority', '=', d.issuer.authority).execute();
    return;
  }
  await withdrawOpenRequests(trx, certificateId, d.kind === 'revoked' ? 'The certificate was revoked.' : 'The certificate was superseded: its file was issued to another wallet.', now, { chain });
}

/**
 * What follows a chain change written onto `row` (in the writer's transaction, after its conditional
 * update): queued runs end (the record's state is final for this row), open requests are settled, and
 * the change is an entry of the certificate's history (followed from the chain, unless `source` says
 * one of this server's flows sent it).
 */
export async function afterChainChange(
  trx: Kysely<Database>,
  row: CertificateRow,
  change: RowChange,
  now: string,
  opts: { signature: string | null; source?: 'attesta' | 'chain'; chain?: Pick<Services['chain'], 'readIssuer'> },
) {
  await trx.updateTable('verification_job').set({ status: 'done', locked_until: null, updated_at: now }).where('certificate_id', '=', row.id).where('status', '=', 'queued').execute();
  await settleRequests(trx, row.id, change, now, opts.chain);
  await appendEvent(trx, { ...chainChangeEvent(row, change, { signature: opts.signature, source: opts.source ?? 'chain' }), at: now });
}

/**
 * Re-reads the record of `sha256` and brings every row of that file in line. The update is
 * conditional on the row being unchanged since it was read, so a flow writing the same row at the
 * same time (with richer details) wins. Each change is an entry of the certificate's history, with the
 * transaction that made it when the caller knows it (`signature`: the follower names the transaction
 * it is applying). Returns the ids changed.
 */
export async function reconcileCertificate(svc: Pick<Services, 'chain' | 'db' | 'bus'>, sha256: string, opts: { signature?: string | null; source?: 'attesta' | 'chain' } = {}): Promise<string[]> {
  const rows = await findBySha256(svc.db, sha256);
  if (!rows.length) return [];
  const record = await svc.chain.readCertificate(fromHex(sha256));
  const changed: string[] = [];
  for (const row of rows) {
    const change = await chainChange(svc, row, record);
    if (!change) {
      if (record && (await followRequest(svc, row, record, opts.signature ?? null))) changed.push(row.id);
      continue;
    }
    const now = new Date().toISOString();
    const updated = await inTransaction(svc.db, async (trx) => {
      if (!(await updateCertificate(trx, row.id, rowUpdateOf(change, now), { ifUnchangedSince: row.updated_at, ifStatus: row.verification_status }))) return false;
      await afterChainChange(trx, row, change, now, { signature: opts.signature ?? null, source: opts.source ?? 'chain', chain: svc.chain });
      return true;
    });
    if (!updated) continue;
    svc.bus.publish({ certificate_id: row.id, verification_status: change.verification_status, step: null, step_status: null, updated_at: now });
    changed.push(row.id);
  }
  return changed;
}
