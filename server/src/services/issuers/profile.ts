import { PublicKey } from '@solana/web3.js';
import { IssuerStatus, type IssuerAccount } from '../../../../shared/program/codec';
import { registerIssuerIx } from '../../../../shared/program/instructions';
import { ISSUER_STATUS_NAMES } from '../../../../shared/program/names';
import { appendAudit } from '../../db/audit';
import type { IssuerProfileRow, ProofStatus, UserRow } from '../../db/schema';
import { fail } from '../../lib/errors';
import type { Services } from '../index';
import { payloadOf, prepareAction, type ActionFlow, type PreparedAction } from '../wallet-tx/actions';
import { announceInstitutionChange } from './certificates';
import { checkDomainProof, InvalidDomainError, normalizeDomain, proofInstructions, type DomainProofResult, type ProofFinding } from './domain-proof';
import { issuerOf } from './roles';

// The institution's profile: registration (register_issuer, signed by the institution's own wallet,
// paid by the platform) and the domain proof the chain cannot hold.

type Svc = Pick<Services, 'db' | 'chain' | 'walletTx' | 'bus' | 'blobs' | 'config' | 'devAccounts' | 'verdicts'>;

/** A typed domain → its normal form, or BAD_REQUEST saying what to enter. */
export function domainOrFail(input: string): string {
  try {
    return normalizeDomain(input);
  } catch (e) {
    if (e instanceof InvalidDomainError) fail('BAD_REQUEST', e.message);
    throw e;
  }
}

export async function prepareRegister(svc: Svc, user: UserRow, input: { name: string; domain: string }): Promise<PreparedAction> {
  const domain = domainOrFail(input.domain);
  const authority = new PublicKey(user.wallet_address);
  if (await svc.chain.readIssuer(authority)) fail('CONFLICT', 'This wallet is already registered as an institution.');
  return prepareAction(svc, user, {
    kind: 'register_issuer',
    instructions: [registerIssuerIx(svc.chain.programId, { authority, payer: svc.chain.operator, name: input.name, uri: domain })],
    signer: authority,
    payload: { name: input.name, domain },
  });
}

export const registerFlow: ActionFlow = {
  async finish(_svc, trx, a, signature) {
    const p = payloadOf<{ name: string; domain: string }>(a);
    await trx
      .insertInto('issuer_profile')
      .values({ authority: a.signer, domain: p.domain, name: p.name, registered_at: new Date().toISOString(), proof_status: 'unproven', proof_method: null, proven_at: null, checked_at: null, findings: null })
      .onConflict((c) => c.column('authority').doNothing())
      .execute();
    await appendAudit(trx, { actor_wallet: a.signer, actor_role: 'issuer', action: 'issuer.register', target: a.signer, signature, details: p });
    return { authority: a.signer, status: 'pending' as const };
  },
};

/**
 * The profile of an issuer; one registered outside the product (the demo seed, another client) has an
 * unproven one from its on-chain uri until its first domain check stores it (reads never write).
 */
export async function profileOf(svc: Pick<Services, 'db'>, authority: string, issuer: IssuerAccount): Promise<IssuerProfileRow> {
  const row = await svc.db.selectFrom('issuer_profile').selectAll().where('authority', '=', authority).executeTakeFirst();
  if (row) return row;
  let domain = issuer.uri;
  try {
    domain = normalizeDomain(issuer.uri);
  } catch {
    /* not a domain: kept as it is, it cannot be proven */
  }
  return { authority, domain, name: issuer.name, registered_at: new Date(Number(issuer.registeredAt) * 1000).toISOString(), proof_status: 'unproven', proof_method: null, proven_at: null, checked_at: null, findings: null };
}

export function proofDto(p: IssuerProfileRow) {
  return {
    domain: p.domain,
    status: p.proof_status,
    method: p.proof_method,
    proven_at: p.proven_at,
    checked_at: p.checked_at,
    findings: p.findings ? (JSON.parse(p.findings) as ProofFinding[]) : [],
    /** What to publish, exactly (either one). */
    publish: proofInstructions(p.domain, p.authority),
  };
}

export function issuerDto(authority: string, issuer: IssuerAccount, profile: IssuerProfileRow) {
  return {
    authority,
    name: issuer.name,
    domain: profile.domain,
    status: ISSUER_STATUS_NAMES[issuer.status],
    registered_at: new Date(Number(issuer.registeredAt) * 1000).toISOString(),
    proof: proofDto(profile),
  };
}

/** The caller's institution, or null when the wallet has not registered one. */
export async function issuerMe(svc: Svc, user: UserRow) {
  const issuer = await svc.chain.readIssuer(new PublicKey(user.wallet_address));
  if (!issuer) return null;
  const profile = await profileOf(svc, user.wallet_address, issuer);
  const demo = !!svc.devAccounts?.isDemoInstitution(user.wallet_address);
  return {
    ...issuerDto(user.wallet_address, issuer, profile),
    /** The local installation's demo institution (may act without a domain proof here, see requireProven). */
    demo,
    /** Whether issuing and confirming are open to it now (approved, and its domain proven or the demo's). */
    may_act: issuer.status === IssuerStatus.Approved && (profile.proof_status === 'proven' || demo),
  };
}

/** Stores a check's outcome: proven, or (a proof that held before and fails now) lapsed, else unproven. */
async function storeProof(svc: Pick<Services, 'db' | 'bus' | 'verdicts'>, profile: IssuerProfileRow, r: DomainProofResult): Promise<ProofStatus> {
  const status: ProofStatus = r.proven ? 'proven' : profile.proof_status === 'unproven' ? 'unproven' : 'lapsed';
  const checked = { proof_status: status, proof_method: r.method, proven_at: r.proven ? r.checkedAt : profile.proven_at, checked_at: r.checkedAt, findings: JSON.stringify(r.findings) };
  await svc.db
    .insertInto('issuer_profile')
    .values({ ...profile, ...checked })
    .onConflict((c) => c.column('authority').doUpdateSet(checked))
    .execute();
  if (status !== profile.proof_status) {
    // Its certificates' verdicts say whether its domain is proven: none cached may outlive the change,
    // and the pages open on them are told (they read the verdict again).
    svc.verdicts.forget();
    await announceInstitutionChange(svc, profile.authority);
  }
  return status;
}

/** Checks the domain proof now (both methods) and stores the outcome, with what each method found and what to publish. */
export async function checkDomain(svc: Svc, user: UserRow) {
  const issuer = await issuerOf(svc, user);
  const profile = await profileOf(svc, user.wallet_address, issuer);
  const r = await checkDomainProof(svc.config.institutions.domainProof, profile.domain, user.wallet_address);
  await storeProof(svc, profile, r);
  await appendAudit(svc.db, { actor_wallet: user.wallet_address, actor_role: 'issuer', action: 'issuer.check_domain', target: profile.domain, details: { proven: r.proven, method: r.method } });
  return issuerDto(user.wallet_address, issuer, await profileOf(svc, user.wallet_address, issuer));
}

/**
 * The periodic re-check: proofs (proven or lapsed) last checked more than `olderThanMs` ago are checked
 * again; a proof that fails lapses (the institution cannot issue or confirm until it holds again), one
 * that holds again is proven. Each change is in the audit log (the platform's action).
 */
export async function recheckDomains(svc: Pick<Services, 'db' | 'chain' | 'config' | 'bus' | 'verdicts'>, opts: { olderThanMs: number; limit?: number }) {
  const before = new Date(Date.now() - opts.olderThanMs).toISOString();
  const due = await svc.db
    .selectFrom('issuer_profile')
    .selectAll()
    .where('proof_status', 'in', ['proven', 'lapsed'])
    .where((eb) => eb.or([eb('checked_at', 'is', null), eb('checked_at', '<', before)]))
    .orderBy('checked_at')
    .limit(opts.limit ?? 100)
    .execute();
  const changed: { authority: string; status: ProofStatus }[] = [];
  for (const p of due) {
    const r = await checkDomainProof(svc.config.institutions.domainProof, p.domain, p.authority);
    const status = await storeProof(svc, p, r);
    if (status === p.proof_status) continue;
    changed.push({ authority: p.authority, status });
    await appendAudit(svc.db, { actor_wallet: svc.chain.operator.toBase58(), actor_role: 'platform', action: `platform.domain_${status}`, target: p.authority, details: { domain: p.domain, findings: r.findings } });
  }
  return { checked: due.length, changed };
}
