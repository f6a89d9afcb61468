import { PublicKey } from '@solana/web3.js';
import { CertificateStatus, IssuerStatus, TrustTier, fromHex, isExpired } from '../../../../shared/program/codec';
import { confirmCertificateIx, requestConfirmationIx } from '../../../../shared/program/instructions';
import { checkedHolderName, parseVerificationDetails } from '../../../../shared/schemas/details';
import { appendAudit } from '../../db/audit';
import { claimsOf, findCertificate, getCertificate, ownOrNotFound, updateCertificate } from '../../db/certificates';
import type { ConfirmationRequestRow, UserRow } from '../../db/schema';
import { fail } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { certificateFileUrl, verificationUrl } from '../certificates/dto';
import type { Services } from '../index';
import { payloadOf, prepareAction, type ActionFlow, type PreparedAction } from '../wallet-tx/actions';
import { issuerConfirmedDetails, requireProven, walletOrFail } from './issue';
import { profileOf } from './profile';
import { approvedIssuerOf } from './roles';

// Confirmation requests: the holder asks an approved institution to confirm a certificate (consenting to
// share the file with it; request_confirmation, signed by the holder); the institution confirms on chain
// (confirm_certificate, signed by its wallet) or declines with a reason the holder reads (off chain).

type Svc = Pick<Services, 'db' | 'chain' | 'walletTx' | 'bus' | 'blobs' | 'config' | 'devAccounts'>;

const NOT_FOUND = 'Confirmation request not found';

/** Approved institutions the holder may ask about a certificate; the one its claims name first. */
export async function issuersFor(svc: Svc, user: UserRow, id: string) {
  const cert = await ownOrNotFound(svc.db, user.id, id);
  const claimed = cert.institution_name.trim().toLowerCase();
  const approved = (await svc.chain.listIssuers()).filter((i) => i.status === IssuerStatus.Approved);
  const out = [];
  for (const i of approved) {
    const authority = i.authority.toBase58();
    const profile = await profileOf(svc, authority, i);
    out.push({ authority, name: i.name, domain: profile.domain, domain_proven: profile.proof_status === 'proven', matches_claim: i.name.trim().toLowerCase() === claimed });
  }
  return out.sort((a, b) => Number(b.matches_claim) - Number(a.matches_claim) || Number(b.domain_proven) - Number(a.domain_proven) || a.name.localeCompare(b.name));
}

export async function prepareRequest(svc: Svc, user: UserRow, input: { id: string; issuer: string }): Promise<PreparedAction> {
  const cert = await ownOrNotFound(svc.db, user.id, input.id);
  if (cert.verification_status === 'revoked' || cert.verification_status === 'superseded') fail('CONFLICT', `This certificate is ${cert.verification_status}: it cannot be confirmed.`);
  if (cert.tier === 'issuer_confirmed') fail('CONFLICT', 'This certificate is already confirmed by an institution.');
  const authority = walletOrFail(input.issuer, 'The institution’s address');
  const issuer = await svc.chain.readIssuer(authority);
  if (!issuer || issuer.status !== IssuerStatus.Approved) fail('BAD_REQUEST', 'This institution is not an approved institution on Attesta. Pick one from the list of approved institutions.');
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

export const requestFlow: ActionFlow = {
  async finish(_svc, trx, a, signature) {
    const p = payloadOf<{ certificate_id: string; issuer: string; claims: Record<string, string> }>(a);
    const now = new Date().toISOString();
    // A new request replaces the open one (on chain too: the record names the institution asked last).
    await trx.updateTable('confirmation_request').set({ status: 'withdrawn', decided_at: now }).where('certificate_id', '=', p.certificate_id).where('status', '=', 'open').execute();
    const id = newId('q_');
    await trx
      .insertInto('confirmation_request')
      .values({ id, certificate_id: p.certificate_id, holder_user_id: a.user_id, issuer_authority: p.issuer, status: 'open', claims: JSON.stringify(p.claims), request_signature: signature, decline_reason: null, created_at: now, decided_at: null, decision_signature: null })
      .execute();
    await updateCertificate(trx, p.certificate_id, { requested_issuer: p.issuer, updated_at: now });
    await appendAudit(trx, { actor_wallet: a.signer, actor_role: 'holder', action: 'holder.request_confirmation', target: p.certificate_id, signature, details: { issuer: p.issuer } });
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

const openOrFail = (r: ConfirmationRequestRow) => {
  if (r.status !== 'open') fail('CONFLICT', `This request is already ${r.status}.`);
};

/** The institution's queue (open first, newest first), with the claims, the platform's finding and the file. */
export async function listRequests(svc: Svc, user: UserRow, origin: string, status: 'all' | ConfirmationRequestRow['status'] = 'open') {
  let q = svc.db
    .selectFrom('confirmation_request as r')
    .innerJoin('certificate as c', 'c.id', 'r.certificate_id')
    .innerJoin('user as u', 'u.id', 'r.holder_user_id')
    .select(['r.id', 'r.certificate_id', 'r.status', 'r.claims', 'r.decline_reason', 'r.created_at', 'r.decided_at', 'r.decision_signature', 'c.verification_status', 'c.verification_details', 'c.sha256', 'c.holder_wallet', 'c.user_id', 'u.full_name'])
    .where('r.issuer_authority', '=', user.wallet_address);
  if (status !== 'all') q = q.where('r.status', '=', status);
  const rows = await q.orderBy('r.created_at', 'desc').orderBy('r.id').limit(200).execute();
  return rows.map((r) => ({
    id: r.id,
    certificate_id: r.certificate_id,
    status: r.status,
    claims: JSON.parse(r.claims) as Record<string, string>,
    holder_name: r.full_name,
    holder_wallet: r.holder_wallet,
    sha256: r.sha256,
    platform_status: r.verification_status,
    decline_reason: r.decline_reason,
    created_at: r.created_at,
    decided_at: r.decided_at,
    decision_signature: r.decision_signature,
    // The file is served to the institution asked while the request is open (http/files.ts).
    file_url: r.status === 'open' ? certificateFileUrl(origin, r.certificate_id) : null,
    verification_url: verificationUrl(origin, r.user_id, r.certificate_id),
  }));
}

export async function prepareConfirm(svc: Svc, user: UserRow, requestId: string): Promise<PreparedAction> {
  const r = await ownRequest(svc, user, requestId);
  openOrFail(r);
  const issuer = await approvedIssuerOf(svc, user);
  requireProven(svc, await profileOf(svc, user.wallet_address, issuer));
  const cert = (await findCertificate(svc.db, r.certificate_id)) ?? fail('NOT_FOUND', NOT_FOUND);
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

export const confirmFlow: ActionFlow = {
  async finish(svc, trx, a, signature) {
    const p = payloadOf<{ request_id: string; certificate_id: string }>(a);
    const authority = new PublicKey(a.signer);
    const issuer = (await svc.chain.readIssuer(authority))!;
    const profile = await profileOf({ db: trx }, a.signer, issuer);
    const now = new Date();
    const before = await getCertificate(trx, p.certificate_id);
    const holderName = checkedHolderName(parseVerificationDetails(before.verification_details));
    await updateCertificate(trx, p.certificate_id, {
      verification_status: 'verified',
      tier: 'issuer_confirmed',
      verification_details: JSON.stringify(issuerConfirmedDetails({ authority: a.signer, issuer, profile, at: now, issued: false, holderName })),
      // It confirmed the claims as the holder stated them; the institution shown is its own name.
      institution_name: issuer.name,
      issuer_authority: a.signer,
      requested_issuer: null,
      claims_confirmed: 1,
      verify_signature: signature,
      updated_at: now.toISOString(),
    });
    await trx.updateTable('verification_job').set({ status: 'done', locked_until: null, updated_at: now.toISOString() }).where('certificate_id', '=', p.certificate_id).where('status', '=', 'queued').execute();
    await trx.updateTable('confirmation_request').set({ status: 'confirmed', decided_at: now.toISOString(), decision_signature: signature }).where('id', '=', p.request_id).execute();
    await appendAudit(trx, { actor_wallet: a.signer, actor_role: 'issuer', action: 'issuer.confirm', target: p.certificate_id, signature, details: { request_id: p.request_id } });
    return { certificate_id: p.certificate_id, request_id: p.request_id };
  },
  async after(svc, a) {
    const c = await getCertificate(svc.db, a.certificate_id!);
    svc.bus.publish({ certificate_id: c.id, verification_status: c.verification_status, step: null, step_status: null, updated_at: c.updated_at });
  },
};

/** Declines an open request with the reason the holder reads; nothing on chain. */
export async function declineRequest(svc: Svc, user: UserRow, input: { requestId: string; reason: string }) {
  const r = await ownRequest(svc, user, input.requestId);
  openOrFail(r);
  const now = new Date().toISOString();
  await svc.db.transaction().execute(async (trx) => {
    const done = await trx.updateTable('confirmation_request').set({ status: 'declined', decline_reason: input.reason, decided_at: now }).where('id', '=', r.id).where('status', '=', 'open').executeTakeFirst();
    if (Number(done.numUpdatedRows) !== 1) fail('CONFLICT', 'This request was decided meanwhile. Reload the queue.');
    await updateCertificate(trx, r.certificate_id, { requested_issuer: null, updated_at: now });
    await appendAudit(trx, { actor_wallet: user.wallet_address, actor_role: 'issuer', action: 'issuer.decline', target: r.certificate_id, details: { request_id: r.id, reason: input.reason } });
  });
  const c = await getCertificate(svc.db, r.certificate_id);
  svc.bus.publish({ certificate_id: c.id, verification_status: c.verification_status, step: null, step_status: null, updated_at: c.updated_at });
  return { request_id: r.id, status: 'declined' as const };
}

/** The holder's requests of a certificate (with an institution's decline reason). */
export async function requestsOfCertificate(svc: Pick<Services, 'db'>, certificateId: string) {
  return svc.db.selectFrom('confirmation_request').select(['id', 'issuer_authority', 'status', 'decline_reason', 'created_at', 'decided_at']).where('certificate_id', '=', certificateId).orderBy('created_at', 'desc').execute();
}
