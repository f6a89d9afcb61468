import { PublicKey } from '@solana/web3.js';
import { IssuerStatus } from '../../../../shared/program/codec';
import { ISSUER_STATUS_NAMES } from '../../../../shared/program/names';
import { appendAudit, auditPage } from '../../db/audit';
import type { UserRow } from '../../db/schema';
import { fail } from '../../lib/errors';
import type { Services } from '../index';
import { announceInstitutionChange } from '../issuers/certificates';
import { issuerDto, profileOf } from '../issuers/profile';

// The operator console: issuers by status with their domain proof, approve/suspend (set_issuer_status,
// signed by the server's operator key, the registry admin), the audit log. Revoking for fraud is in
// services/issuers/revoke.ts beside the institution's own revocation.

type Svc = Pick<Services, 'db' | 'chain' | 'bus'>;

export async function listIssuers(svc: Svc & Pick<Services, 'devAccounts'>, status: 'all' | 'pending' | 'approved' | 'suspended' = 'all') {
  const out = [];
  for (const i of await svc.chain.listIssuers()) {
    const name = ISSUER_STATUS_NAMES[i.status];
    if (status !== 'all' && name !== status) continue;
    const authority = i.authority.toBase58();
    const profile = await profileOf(svc, authority, i);
    // As issuer.me says it to the institution: the local demo institution, and whether it may issue and confirm now.
    const demo = !!svc.devAccounts?.isDemoInstitution(authority);
    out.push({ ...issuerDto(authority, i, profile), demo, may_act: i.status === IssuerStatus.Approved && (profile.proof_status === 'proven' || demo) });
  }
  // Pending first (they wait for the operator), then by name.
  const rank = { pending: 0, approved: 1, suspended: 2 } as const;
  return out.sort((a, b) => rank[a.status] - rank[b.status] || a.name.localeCompare(b.name));
}

/** Approves (only with a proven domain) or suspends an issuer. */
export async function setIssuerStatus(svc: Svc, user: UserRow, input: { authority: string; status: 'approved' | 'suspended' }) {
  const authority = new PublicKey(input.authority);
  const issuer = (await svc.chain.readIssuer(authority)) ?? fail('NOT_FOUND', 'No institution is registered with this address.');
  const profile = await profileOf(svc, input.authority, issuer);
  const status = input.status === 'approved' ? IssuerStatus.Approved : IssuerStatus.Suspended;
  if (issuer.status === status) fail('CONFLICT', `This institution is already ${input.status}.`);
  if (status === IssuerStatus.Approved && profile.proof_status !== 'proven') {
    fail('PRECONDITION_FAILED', `The domain ${profile.domain} is not proven (${profile.proof_status}). The institution must publish its proof and check it before it can be approved.`);
  }
  await svc.db.transaction().execute(async (trx) => {
    let receipt: Awaited<ReturnType<Svc['chain']['setIssuerStatus']>> | null = null;
    try {
      receipt = await svc.chain.setIssuerStatus({ authority, status }, { db: trx, kind: 'set_issuer_status' });
      await appendAudit(trx, { actor_wallet: user.wallet_address, actor_role: 'operator', action: `operator.${input.status === 'approved' ? 'approve' : 'suspend'}`, target: input.authority, signature: receipt.signature, details: { name: issuer.name, domain: profile.domain } });
    } catch (e) {
      receipt?.undo?.();
      throw e;
    }
  });
  await announceInstitutionChange(svc, input.authority);
  const after = (await svc.chain.readIssuer(authority))!;
  return issuerDto(input.authority, after, profile);
}

export async function auditLog(svc: Pick<Services, 'db'>, opts: { limit?: number; before?: string } = {}) {
  const page = await auditPage(svc.db, opts);
  return { entries: page.entries.map((e) => ({ ...e, details: e.details ? (JSON.parse(e.details) as Record<string, unknown>) : null })), next: page.next };
}
