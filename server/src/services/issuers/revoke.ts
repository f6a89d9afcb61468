import { PublicKey } from '@solana/web3.js';
import { CertificateStatus, fromHex } from '../../../../shared/program/codec';
import { revokeCertificateIx } from '../../../../shared/program/instructions';
import { ReasonCode } from '../../../../shared/program/reasons';
import { appendAudit } from '../../db/audit';
import { appendEvent } from '../../db/events';
import { findCertificate, getCertificate, updateCertificate } from '../../db/certificates';
import type { AuditRole, CertificateRow, UserRow } from '../../db/schema';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { fail } from '../../lib/errors';
import type { ChainReceipt } from '../chain';
import { chainChange, rowUpdateOf, withdrawOpenRequests } from '../chain-sync/reconcile';
import { chainChangeEvent } from '../certificates/history';
import type { Services } from '../index';
import { payloadOf, prepareAction, type ActionFlow, type PreparedAction } from '../wallet-tx/actions';
import { approvedIssuerOf } from './roles';

// Revocation: the institution revokes what it issued, confirmed or was asked to confirm (the chain
// holds who that is: record.issuer), signed by its wallet; the operator revokes any certificate for
// fraud, signed by the server's key. The record stays; the row says revoked, when, by whom, why, and
// keeps the free-text note off chain.

type Svc = Pick<Services, 'db' | 'chain' | 'walletTx' | 'bus' | 'blobs' | 'config' | 'devAccounts'>;

const NOT_FOUND = 'Certificate not found';

export const ISSUER_REASON_CODES = {
  revoked_by_issuer: ReasonCode.RevokedByIssuer,
  revoked_superseded: ReasonCode.RevokedSuperseded,
  revoked_holder_request: ReasonCode.RevokedHolderRequest,
} as const;

function refuseRevoked(cert: CertificateRow) {
  if (cert.verification_status === 'revoked') fail('CONFLICT', 'This certificate is already revoked.');
  if (cert.verification_status === 'superseded') fail('CONFLICT', 'This certificate was superseded: it no longer counts, there is nothing to revoke.');
}

export async function prepareIssuerRevoke(svc: Svc, user: UserRow, input: { id: string; reason: keyof typeof ISSUER_REASON_CODES; note?: string }): Promise<PreparedAction> {
  await approvedIssuerOf(svc, user);
  const authority = new PublicKey(user.wallet_address);
  const cert = await findCertificate(svc.db, input.id);
  const hash = cert ? fromHex(cert.sha256) : null;
  const record = hash ? await svc.chain.readCertificate(hash) : null;
  // Only what this institution issued, confirmed or was asked about: anyone else's is not found.
  if (!cert || !record || !record.issuer?.equals(authority) || !record.holder.equals(new PublicKey(cert.holder_wallet))) return fail('NOT_FOUND', NOT_FOUND);
  refuseRevoked(cert);
  if (record.status === CertificateStatus.Revoked) fail('CONFLICT', 'This certificate is already revoked.');
  return prepareAction(svc, user, {
    kind: 'revoke_certificate',
    instructions: [revokeCertificateIx(svc.chain.programId, { hash: hash!, authority, reasonCode: ISSUER_REASON_CODES[input.reason] })],
    signer: authority,
    certificateId: cert.id,
    payload: { certificate_id: cert.id, reason: input.reason, note: input.note ?? null },
  });
}

/** Writes the chain's revocation onto the row (with the off-chain note) and the audit entry. */
async function recordRevocation(svc: Pick<Services, 'chain'>, trx: Kysely<Database>, p: { certificateId: string; note: string | null; actor: string; role: AuditRole; action: string; signature: string; reason: string }) {
  const row = await getCertificate(trx, p.certificateId);
  const change = await chainChange({ chain: svc.chain, db: trx }, row, await svc.chain.readCertificate(fromHex(row.sha256)));
  const now = new Date().toISOString();
  await updateCertificate(trx, row.id, { ...(change ? rowUpdateOf(change, now) : { updated_at: now }), revocation_note: p.note });
  await trx.updateTable('verification_job').set({ status: 'done', locked_until: null, updated_at: now }).where('certificate_id', '=', row.id).where('status', '=', 'queued').execute();
  await withdrawOpenRequests(trx, row.id, 'The certificate was revoked.', now, { chain: svc.chain });
  // Its entry in the history (unless the follower, or a run, wrote the revocation first: that one stands).
  const told = await trx.selectFrom('certificate_event').select('id').where('certificate_id', '=', row.id).where('kind', '=', 'revoked').executeTakeFirst();
  if (change && !told) {
    const d = change.verification_details;
    const actor =
      p.role === 'operator'
        ? { role: 'operator' as const, wallet: p.actor, name: 'Attesta (the platform operator)' }
        : { role: 'issuer' as const, wallet: p.actor, name: d.kind === 'revoked' ? (d.revoked_by?.name ?? null) : null, domain: d.kind === 'revoked' ? d.revoked_by?.domain : null };
    await appendEvent(trx, { ...chainChangeEvent(row, change, { signature: p.signature, source: 'attesta', actor, reason: p.note }), at: now });
  }
  await appendAudit(trx, { actor_wallet: p.actor, actor_role: p.role, action: p.action, target: row.id, signature: p.signature, details: { reason: p.reason, note: p.note } });
}

async function publishRow(svc: Pick<Services, 'db' | 'bus'>, id: string) {
  const c = await getCertificate(svc.db, id);
  svc.bus.publish({ certificate_id: c.id, verification_status: c.verification_status, step: null, step_status: null, updated_at: c.updated_at });
}

export const revokeFlow: ActionFlow = {
  async finish(svc, trx, a, signature) {
    const p = payloadOf<{ certificate_id: string; reason: string; note: string | null }>(a);
    await recordRevocation(svc, trx, { certificateId: p.certificate_id, note: p.note, actor: a.signer, role: 'issuer', action: 'issuer.revoke', signature, reason: p.reason });
    return { certificate_id: p.certificate_id, status: 'revoked' as const };
  },
  after: (svc, a) => publishRow(svc, a.certificate_id!),
};

/** A certificate the operator may revoke for fraud (not revoked or superseded, its holder's record on chain), or the refusal saying why not. */
async function revocableForFraud(svc: Pick<Services, 'db' | 'chain'>, id: string) {
  const cert = (await findCertificate(svc.db, id)) ?? fail('NOT_FOUND', NOT_FOUND);
  refuseRevoked(cert);
  const hash = fromHex(cert.sha256);
  const record = await svc.chain.readCertificate(hash);
  if (!record || !record.holder.equals(new PublicKey(cert.holder_wallet))) fail('CONFLICT', 'This certificate has no record on chain for its holder; there is nothing to revoke.');
  if (record.status === CertificateStatus.Revoked) fail('CONFLICT', 'This certificate is already revoked.');
  return { cert, hash };
}

/**
 * What the operator is about to revoke, shown before it signs (a revocation cannot be undone, and a
 * mistyped ID names someone else's certificate): the certificate's claims, holder and standing, or the
 * refusal the revocation itself would give.
 */
export async function operatorRevokePreview(svc: Pick<Services, 'db' | 'chain'>, id: string) {
  const { cert } = await revocableForFraud(svc, id);
  return {
    id: cert.id,
    title: cert.title,
    institution_name: cert.institution_name,
    program_name: cert.program_name,
    holder_wallet: cert.holder_wallet,
    verification_status: cert.verification_status,
    minted: cert.nft_mint_address !== null,
  };
}

/** The operator revokes any certificate for fraud (note required), signed by the server's operator key. */
export async function operatorRevoke(svc: Pick<Services, 'db' | 'chain' | 'bus'>, user: UserRow, input: { id: string; note: string }) {
  const { cert, hash } = await revocableForFraud(svc, input.id);
  let receipt: ChainReceipt | null = null;
  try {
    await svc.db.transaction().execute(async (trx) => {
      receipt = await svc.chain.revokeCertificate({ hash, reasonCode: ReasonCode.RevokedFraud }, { db: trx, kind: 'revoke_certificate', certificateId: cert.id });
      await recordRevocation(svc, trx, { certificateId: cert.id, note: input.note, actor: user.wallet_address, role: 'operator', action: 'operator.revoke', signature: receipt.signature, reason: 'revoked_fraud' });
    });
  } catch (e) {
    (receipt as ChainReceipt | null)?.undo?.(); // the rows rolled back: so does the embedded chain
    throw e;
  }
  await publishRow(svc, cert.id);
  return { certificate_id: cert.id, status: 'revoked' as const };
}
