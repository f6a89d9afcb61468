import { PublicKey } from '@solana/web3.js';
import type { Kysely } from 'kysely';
import { CertificateStatus, IssuerStatus, TrustTier, fromHex, isExpired } from '../../../../shared/program/codec';
import { confirmCertificateIx, requestConfirmationIx } from '../../../../shared/program/instructions';
import { checkedHolderName, parseVerificationDetails } from '../../../../shared/schemas/details';
import { appendAudit } from '../../db/audit';
import { claimsOf, findCertificate, getCertificate, lockCertificate, ownOrNotFound, sameClaims, updateCertificate } from '../../db/certificates';
import { isPostgres } from '../../db/dialect';
import { appendEvent } from '../../db/events';
import type { CertificateRow, ConfirmationRequestRow, Database, UserRow } from '../../db/schema';
import { fail } from '../../lib/errors';
import { chainChange, recordRequest, rowUpdateOf, withdrawOpenRequests } from '../chain-sync/reconcile';
import { certificateFileUrl, verificationUrl } from '../certificates/dto';
import { claimsText } from '../certificates/history';
import type { Services } from '../index';
import { payloadOf, prepareAction, type ActionFlow, type PreparedAction } from '../wallet-tx/actions';
import { issuerConfirmedDetails, requireProven, walletOrFail } from './issue';
import { sameInstitution } from './names';
import { profileOf } from './profile';
import { approvedIssuerOf } from './roles';

// Confirmation requests: the holder asks an approved institution to confirm a certificate (consenting to
// share the file with it; request_confirmation, signed by the holder); the institution confirms on chain
// (confirm_certificate, signed by its wallet) or declines with a reason the holder reads (off chain).
//
// An institution's word covers exactly what it was shown. Only the institution the certificate's claims
// name can be asked (names.ts), the request keeps a copy of the claims as they were when the holder
// asked (what the institution's queue shows), changing the claims withdraws the request (the certificate
// router's updateClaims), and a confirmation credits the claims (claims_confirmed) only when the row
// still says what the copy says, checked before the transaction is sent and again when its rows are
// written. The claimed institution is the holder's and is never replaced by the confirmer's name.

type Svc = Pick<Services, 'db' | 'chain' | 'walletTx' | 'bus' | 'blobs' | 'config' | 'devAccounts'>;
type Claims = ReturnType<typeof claimsOf>;

const NOT_FOUND = 'Confirmation request not found';

/** Why a holder cannot ask `issuer` about a certificate whose claims name another institution. */
const notNamedForHolder = (claimed: string, issuer: string) =>
  `This certificate names “${claimed}”, not ${issuer}: only the institution a certificate names can confirm it. If you mistyped the institution, correct the certificate’s details first; if ${claimed} is not on Attesta yet, ask it once it is.`;

/** Approved institutions the holder may ask about a certificate: those its claims name (names.ts), nobody else. */
export async function issuersFor(svc: Svc, user: UserRow, id: string) {
  const cert = await ownOrNotFound(svc.db, user.id, id);
  const approved = (await svc.chain.listIssuers()).filter((i) => i.status === IssuerStatus.Approved && sameInstitution(cert.institution_name, i.name));
  const out = [];
  for (const i of approved) {
    const authority = i.authority.toBase58();
    const profile = await profileOf(svc, authority, i);
    out.push({ authority, name: i.name, domain: profile.domain, domain_proven: profile.proof_status === 'proven', matches_claim: true });
  }
  return out.sort((a, b) => Number(b.domain_proven) - Number(a.domain_proven) || a.name.localeCompare(b.name));
}

export async function prepareRequest(svc: Svc, user: UserRow, input: { id: string; issuer: string }): Promise<PreparedAction> {
  const cert = await ownOrNotFound(svc.db, user.id, input.id);
  if (cert.verification_status === 'revoked' || cert.verification_status === 'superseded') fail('CONFLICT', `This certificate is ${cert.verification_status}: it cannot be confirmed.`);
  if (cert.tier === 'issuer_confirmed') fail('CONFLICT', 'This certificate is already confirmed by an institution.');
  const authority = walletOrFail(input.issuer, 'The institution’s address');
  const issuer = await svc.chain.readIssuer(authority);
  if (!issuer || issuer.status !== IssuerStatus.Approved) fail('BAD_REQUEST', 'This institution is not an approved institution on Attesta. Pick one from the list of approved institutions.');
  if (!sameInstitution(cert.institution_name, issuer.name)) fail('BAD_REQUEST', notNamedForHolder(cert.institution_name, issuer.name));
  const hash = fromHex(cert.sha256);
  const record = await svc.chain.readCertificate(hash);
  if (!record || !record.holder.equals(new PublicKey(user.wallet_address))) fail('PRECONDITION_FAILED', 'This certificate is not recorded on chain for your wallet yet. Wait until it is anchored, then ask again.');
  if (record.tier === TrustTier.IssuerConfirmed) fail('CONFLICT', 'This certificate is already confirmed by an institution.');
  if (record.status === CertificateStatus.Revoked) fail('CONFLICT', 'This certificate is revoked: it cannot be confirmed.');
  if (isExpired(record, await svc.chain.now())) fail('CONFLICT', 'This certificate has expired: it cannot be confirmed.');
  return prepareAction(svc, user, {
    kind: 'request_confirmation',
    instructions: [requestConfirmationIx(svc.chain.programId, { hash, holder: new PublicKey(user.wallet_address), issuerAuthority: authority })],
    signer: new PublicKey(user.wallet_address),
    certificateId: cert.id,
    payload: { certificate_id: cert.id, issuer: authority.toBase58(), claims: claimsOf(cert) },
  });
}

interface RequestPayload {
  certificate_id: string;
  issuer: string;
  claims: Claims;
}

export const requestFlow: ActionFlow = {
  // The claims the institution will be shown are the ones the holder saw when asking: changed since
  // (or not naming the institution any more), the request is prepared again.
  async check(svc, trx, a) {
    const p = payloadOf<RequestPayload>(a);
    const row = (await lockCertificate(trx, p.certificate_id)) ?? fail('NOT_FOUND', 'Certificate not found');
    if (row.verification_status === 'revoked' || row.verification_status === 'superseded') fail('CONFLICT', `This certificate is ${row.verification_status}: it cannot be confirmed.`);
    if (!sameClaims(claimsOf(row), p.claims)) fail('CONFLICT', 'The certificate’s details changed after this request was prepared. Ask again: the institution is shown the details as they are now.');
    const issuer = await svc.chain.readIssuer(new PublicKey(p.issuer));
    if (!issuer || !sameInstitution(row.institution_name, issuer.name)) fail('BAD_REQUEST', notNamedForHolder(row.institution_name, issuer?.name ?? 'this institution'));
  },
  async finish(svc, trx, a, signature) {
    const p = payloadOf<RequestPayload>(a);
    const now = new Date().toISOString();
    const name = (await svc.chain.readIssuer(new PublicKey(p.issuer)))?.name ?? p.issuer;
    // The certificate's row first, then its requests: the order every writer of both keeps (PostgreSQL).
    const row = (await lockCertificate(trx, p.certificate_id)) ?? (await getCertificate(trx, p.certificate_id));
    // A new request replaces the open one (on chain too: the record names the institution asked last).
    const previous = await trx.selectFrom('confirmation_request').select('issuer_authority').where('certificate_id', '=', p.certificate_id).where('status', '=', 'open').executeTakeFirst();
    await withdrawOpenRequests(trx, p.certificate_id, previous?.issuer_authority === p.issuer ? 'You asked again.' : `You asked ${name} instead.`, now, { actor: { role: 'holder', wallet: a.signer }, chain: svc.chain });
    // The check above held the row until the send: what it shows now is the copy (a crash repaired at
    // start-up is the exception, and is then recorded as withdrawn rather than shown with stale details).
    const current = sameClaims(claimsOf(row), p.claims);
    const stale = 'The certificate’s details changed before the request was recorded. Ask again: the institution is shown the details as they are now.';
    const id = await recordRequest(trx, { certificateId: p.certificate_id, holderUserId: a.user_id, issuer: p.issuer, claims: p.claims, signature, now, withdrawnReason: current ? null : stale });
    await appendEvent(trx, {
      certificate_id: p.certificate_id,
      kind: current ? 'confirmation_requested' : 'request_withdrawn',
      actor: { role: 'holder', wallet: a.signer, name: null },
      source: 'attesta',
      signature,
      message: current ? `Asked ${name} to confirm the details ${claimsText(p.claims)}.` : `The request to ${name} was withdrawn: ${stale.charAt(0).toLowerCase()}${stale.slice(1)}`,
      details: { request_id: id, issuer: p.issuer, claims: p.claims, ...(current ? {} : { reason: stale }) },
      at: now,
    });
    await appendAudit(trx, { actor_wallet: a.signer, actor_role: 'holder', action: 'holder.request_confirmation', target: p.certificate_id, signature, details: { issuer: p.issuer, request_id: id } });
    return { request_id: id, certificate_id: p.certificate_id, issuer: p.issuer };
  },
  async after(svc, a) {
    const c = await getCertificate(svc.db, a.certificate_id!);
    svc.bus.publish({ certificate_id: c.id, verification_status: c.verification_status, step: null, step_status: null, updated_at: c.updated_at });
  },
};

/** A request addressed to the caller's institution; another institution's is NOT_FOUND (indistinguishable from none). */
async function ownRequest(svc: Pick<Services, 'db'>, user: UserRow, requestId: string): Promise<ConfirmationRequestRow> {
  const r = await svc.db.selectFrom('confirmation_request').selectAll().where('id', '=', requestId).where('issuer_authority', '=', user.wallet_address).executeTakeFirst();
  return r ?? fail('NOT_FOUND', NOT_FOUND);
}

const openOrFail = (r: Pick<ConfirmationRequestRow, 'status'>) => {
  if (r.status !== 'open') fail('CONFLICT', `This request is already ${r.status}.`);
};

const shownOf = (r: Pick<ConfirmationRequestRow, 'claims'>) => JSON.parse(r.claims) as Claims;

/**
 * Why `institution` cannot confirm `row` on the request `r` (null: it can): the claims name another
 * institution (requests opened before that rule), or the holder changed them after asking, so they are
 * not what the institution was shown.
 */
function mismatch(r: Pick<ConfirmationRequestRow, 'claims'>, row: CertificateRow, institution: string): string | null {
  const shown = shownOf(r);
  if (!sameInstitution(row.institution_name, institution) || !sameInstitution(shown.institution_name, institution)) {
    return `This certificate names “${row.institution_name}”, not ${institution}: an institution confirms only certificates that name it. Decline the request instead (the holder reads your reason).`;
  }
  if (!sameClaims(claimsOf(row), shown)) {
    return `The holder changed the certificate’s details after asking you: you were shown ${claimsText(shown)}; it now says ${claimsText(claimsOf(row))}. You can confirm only what you were shown: decline the request, and the holder can ask again with the details as they are now.`;
  }
  return null;
}

/** The institution's queue (open first, newest first), with the claims it was shown, the platform's finding and the file. */
export async function listRequests(svc: Svc, user: UserRow, origin: string, status: 'all' | ConfirmationRequestRow['status'] = 'open') {
  let q = svc.db
    .selectFrom('confirmation_request as r')
    .innerJoin('certificate as c', 'c.id', 'r.certificate_id')
    .innerJoin('user as u', 'u.id', 'r.holder_user_id')
    .select([
      'r.id',
      'r.certificate_id',
      'r.status',
      'r.claims',
      'r.decline_reason',
      'r.withdrawn_reason',
      'r.created_at',
      'r.decided_at',
      'r.decision_signature',
      'c.verification_status',
      'c.verification_details',
      'c.sha256',
      'c.holder_wallet',
      'c.user_id',
      'c.title',
      'c.institution_name',
      'c.program_name',
      'c.issue_date',
      'u.full_name',
    ])
    .where('r.issuer_authority', '=', user.wallet_address);
  if (status !== 'all') q = q.where('r.status', '=', status);
  const rows = await q.orderBy('r.created_at', 'desc').orderBy('r.id').limit(200).execute();
  const own = (await svc.chain.readIssuer(new PublicKey(user.wallet_address)))?.name ?? null;
  return rows.map((r) => {
    const claims = shownOf(r);
    return {
      id: r.id,
      certificate_id: r.certificate_id,
      status: r.status,
      claims,
      /** The institution the certificate's claims name (as the holder was asked them): only it can confirm. */
      claimed_institution: claims.institution_name,
      /** The claims name this institution (names.ts): false for requests opened before that rule; confirming them is refused. */
      names_your_institution: own !== null && sameInstitution(claims.institution_name, own),
      /** The holder changed the claims since asking: the request shows what was asked; confirming it is refused. */
      details_changed: !sameClaims(claimsOf(r), claims),
      holder_name: r.full_name,
      holder_wallet: r.holder_wallet,
      sha256: r.sha256,
      platform_status: r.verification_status,
      decline_reason: r.decline_reason,
      withdrawn_reason: r.withdrawn_reason,
      created_at: r.created_at,
      decided_at: r.decided_at,
      decision_signature: r.decision_signature,
      // The file is served to the institution asked while the request is open (http/files.ts).
      file_url: r.status === 'open' ? certificateFileUrl(origin, r.certificate_id) : null,
      verification_url: verificationUrl(origin, r.user_id, r.certificate_id),
    };
  });
}

export async function prepareConfirm(svc: Svc, user: UserRow, requestId: string): Promise<PreparedAction> {
  const r = await ownRequest(svc, user, requestId);
  openOrFail(r);
  const issuer = await approvedIssuerOf(svc, user);
  requireProven(svc, await profileOf(svc, user.wallet_address, issuer));
  const cert = (await findCertificate(svc.db, r.certificate_id)) ?? fail('NOT_FOUND', NOT_FOUND);
  const why = mismatch(r, cert, issuer.name);
  if (why) fail('CONFLICT', why);
  const authority = new PublicKey(user.wallet_address);
  const record = await svc.chain.readCertificate(fromHex(cert.sha256));
  if (!record || !record.issuer?.equals(authority) || record.tier === TrustTier.IssuerConfirmed) {
    fail('CONFLICT', 'The holder’s request is no longer on chain (the holder asked another institution, or the certificate is confirmed already).');
  }
  if (record.status === CertificateStatus.Revoked) fail('CONFLICT', 'This certificate is revoked: it cannot be confirmed.');
  return prepareAction(svc, user, {
    kind: 'confirm_certificate',
    instructions: [confirmCertificateIx(svc.chain.programId, { hash: fromHex(cert.sha256), authority })],
    signer: authority,
    certificateId: cert.id,
    requestId: r.id,
    payload: { request_id: r.id, certificate_id: cert.id },
  });
}

/** The request of a confirmation, held with the certificate's row until the transaction ends (PostgreSQL; SQLite runs one transaction at a time). */
async function lockedRequest(trx: Kysely<Database>, id: string) {
  const q = trx.selectFrom('confirmation_request').selectAll().where('id', '=', id);
  return (isPostgres(trx) ? q.forUpdate() : q).executeTakeFirst();
}

export const confirmFlow: ActionFlow = {
  // What the institution was shown must still be what the certificate says, at the moment its signed
  // transaction goes out: the holder cannot change the details in between (updateClaims finds this
  // action submitted and refuses), and a request withdrawn or changed since the prepare is refused here.
  async check(svc, trx, a) {
    const p = payloadOf<{ request_id: string; certificate_id: string }>(a);
    const row = (await lockCertificate(trx, p.certificate_id)) ?? fail('NOT_FOUND', NOT_FOUND);
    const r = (await lockedRequest(trx, p.request_id)) ?? fail('NOT_FOUND', NOT_FOUND);
    openOrFail(r);
    const issuer = (await svc.chain.readIssuer(new PublicKey(a.signer))) ?? fail('FORBIDDEN', 'This wallet is not a registered institution.');
    const why = mismatch(r, row, issuer.name);
    if (why) fail('CONFLICT', why);
  },
  async finish(svc, trx, a, signature) {
    const p = payloadOf<{ request_id: string; certificate_id: string }>(a);
    const authority = new PublicKey(a.signer);
    const issuer = (await svc.chain.readIssuer(authority))!;
    const profile = await profileOf({ db: trx }, a.signer, issuer);
    const now = new Date();
    const at = now.toISOString();
    const before = (await lockCertificate(trx, p.certificate_id)) ?? (await getCertificate(trx, p.certificate_id));
    const r = await trx.selectFrom('confirmation_request').selectAll().where('id', '=', p.request_id).executeTakeFirst();
    // Its word covers the claims only when the row still says what the institution was shown, on a request still open.
    const why = !r ? 'the request is gone' : r.status !== 'open' ? `the request was ${r.status} before the confirmation landed` : mismatch(r, before, issuer.name);
    const who = { role: 'issuer' as const, wallet: a.signer, name: issuer.name, domain: profile.domain };
    if (!why) {
      const holderName = checkedHolderName(parseVerificationDetails(before.verification_details));
      const details = issuerConfirmedDetails({ authority: a.signer, issuer, profile, at: now, issued: false, holderName });
      await updateCertificate(trx, p.certificate_id, {
        verification_status: 'verified',
        tier: 'issuer_confirmed',
        verification_details: JSON.stringify(details),
        // It confirmed the claims it was shown, the institution among them: they stay as the holder wrote them.
        issuer_authority: a.signer,
        requested_issuer: null,
        claims_confirmed: 1,
        verify_signature: signature,
        updated_at: at,
      });
      const shown = shownOf(r!);
      await appendEvent(trx, { certificate_id: p.certificate_id, kind: 'confirmed', actor: who, source: 'attesta', signature, message: `${details.reason} It confirmed the details it was shown: ${claimsText(shown)}.`, details: { request_id: p.request_id, claims: shown, claims_confirmed: true }, at });
    } else {
      // The confirmation landed on chain, but it does not cover the details the certificate shows now:
      // the row follows the chain (the file is confirmed; the details are not), as for a confirmation
      // sent outside Attesta; claims_confirmed stays 0.
      // Inside the transaction every read goes through it: SQLite has one connection, and a read through
      // svc.db would wait for it forever (the server froze whenever a confirmation landed this way).
      const change = await chainChange({ chain: svc.chain, db: trx }, before, await svc.chain.readCertificate(fromHex(before.sha256)));
      if (change) await updateCertificate(trx, p.certificate_id, { ...rowUpdateOf(change, at), verify_signature: signature });
      await appendEvent(trx, {
        certificate_id: p.certificate_id,
        kind: 'confirmed',
        actor: who,
        source: 'attesta',
        signature,
        message: `${issuer.name} confirmed this file on chain, but its confirmation does not cover the details shown: ${why.replace(/ Decline the request.*$| You can confirm only.*$/, '')}`,
        details: { request_id: p.request_id, claims: r ? shownOf(r) : null, claims_confirmed: false },
        at,
      });
    }
    await trx.updateTable('verification_job').set({ status: 'done', locked_until: null, updated_at: at }).where('certificate_id', '=', p.certificate_id).where('status', '=', 'queued').execute();
    await trx.updateTable('confirmation_request').set({ status: 'confirmed', decided_at: at, decision_signature: signature }).where('id', '=', p.request_id).where('status', '=', 'open').execute();
    await appendAudit(trx, { actor_wallet: a.signer, actor_role: 'issuer', action: 'issuer.confirm', target: p.certificate_id, signature, details: { request_id: p.request_id, claims_confirmed: !why } });
    return { certificate_id: p.certificate_id, request_id: p.request_id, claims_confirmed: !why };
  },
  async after(svc, a) {
    const c = await getCertificate(svc.db, a.certificate_id!);
    svc.bus.publish({ certificate_id: c.id, verification_status: c.verification_status, step: null, step_status: null, updated_at: c.updated_at });
  },
};

/** Declines an open request with the reason the holder reads; nothing on chain. It declines what it was shown (the request's copy). */
export async function declineRequest(svc: Svc, user: UserRow, input: { requestId: string; reason: string }) {
  const r = await ownRequest(svc, user, input.requestId);
  openOrFail(r);
  const now = new Date().toISOString();
  const name = (await svc.chain.readIssuer(new PublicKey(user.wallet_address)))?.name ?? user.wallet_address;
  const shown = shownOf(r);
  await svc.db.transaction().execute(async (trx) => {
    await lockCertificate(trx, r.certificate_id); // the row, then its request: as every writer of both
    const done = await trx.updateTable('confirmation_request').set({ status: 'declined', decline_reason: input.reason, decided_at: now }).where('id', '=', r.id).where('status', '=', 'open').executeTakeFirst();
    if (Number(done.numUpdatedRows) !== 1) fail('CONFLICT', 'This request was decided meanwhile. Reload the queue.');
    await updateCertificate(trx, r.certificate_id, { requested_issuer: null, updated_at: now });
    await appendEvent(trx, {
      certificate_id: r.certificate_id,
      kind: 'declined',
      actor: { role: 'issuer', wallet: user.wallet_address, name },
      source: 'attesta',
      message: `Declined by ${name}, shown ${claimsText(shown)}: “${input.reason}”`,
      details: { request_id: r.id, claims: shown, reason: input.reason },
      at: now,
    });
    await appendAudit(trx, { actor_wallet: user.wallet_address, actor_role: 'issuer', action: 'issuer.decline', target: r.certificate_id, details: { request_id: r.id, reason: input.reason } });
  });
  const c = await getCertificate(svc.db, r.certificate_id);
  svc.bus.publish({ certificate_id: c.id, verification_status: c.verification_status, step: null, step_status: null, updated_at: c.updated_at });
  return { request_id: r.id, status: 'declined' as const };
}

/** The holder's requests of a certificate (with the institution's name, a decline's reason, why one was withdrawn). */
export async function requestsOfCertificate(svc: Pick<Services, 'db'>, certificateId: string) {
  return svc.db
    .selectFrom('confirmation_request as r')
    .leftJoin('issuer_profile as p', 'p.authority', 'r.issuer_authority')
    .select(['r.id', 'r.issuer_authority', 'p.name as issuer_name', 'r.status', 'r.decline_reason', 'r.withdrawn_reason', 'r.created_at', 'r.decided_at'])
    .where('r.certificate_id', '=', certificateId)
    .orderBy('r.created_at', 'desc')
    .orderBy('r.id', 'desc')
    .execute();
}
