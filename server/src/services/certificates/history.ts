import type { CertificateEventDto } from '../../../../shared/schemas/dto';
import type { ChainParty } from '../../../../shared/schemas/details';
import { eventsOf, type NewCertificateEvent } from '../../db/events';
import type { CertificateEventKind, CertificateEventRow, CertificateRow, Database } from '../../db/schema';
import type { Kysely } from 'kysely';
import type { RowChange } from '../chain-sync/reconcile';

// A certificate's history, beside its verification runs (./attempts.ts): what an institution, the
// operator or the holder did to it, each an entry of its own with who, what, when and the transaction.
// A platform run keeps the outcome it reached itself; an institution's word is never credited to it.

/** Entries written in the same millisecond read in the order they happen. */
const KIND_ORDER: CertificateEventKind[] = ['issued', 'request_withdrawn', 'confirmation_requested', 'confirmed', 'declined', 'revoked', 'superseded'];

type Claims = NonNullable<CertificateEventDto['claims']>;

export function toEventDto(r: CertificateEventRow): CertificateEventDto {
  let d: Record<string, unknown> = {};
  try {
    d = r.details ? (JSON.parse(r.details) as Record<string, unknown>) : {};
  } catch {
    d = {};
  }
  return {
    id: r.id,
    certificate_id: r.certificate_id,
    kind: r.kind,
    actor: { role: r.actor_role, wallet: r.actor_wallet, name: r.actor_name, domain: typeof d.actor_domain === 'string' ? d.actor_domain : null },
    message: r.message,
    signature: r.signature,
    source: r.source,
    ...(typeof d.claims_confirmed === 'boolean' ? { claims_confirmed: d.claims_confirmed } : {}),
    ...(d.claims && typeof d.claims === 'object' ? { claims: d.claims as Claims } : {}),
    ...(typeof d.reason === 'string' ? { reason: d.reason } : {}),
    at: r.at,
  };
}

/** The certificate's history entries, oldest first. */
export async function certificateEvents(db: Kysely<Database>, certificateId: string): Promise<CertificateEventDto[]> {
  const rows = await eventsOf(db, certificateId);
  rows.sort((a, b) => a.at.localeCompare(b.at) || KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind));
  return rows.map(toEventDto);
}

/** "“Bachelor of Arts”, History, Northfield University, 2024-06-01": the details an institution was shown. */
export const claimsText = (c: Claims) => `“${c.title}”, ${c.program_name}, ${c.institution_name}, ${c.issue_date}`;

/** Who a chain party is, as a history entry names it (the registry's admin or a platform verifier: the operator's key). */
function actorOf(p: ChainParty | null): NewCertificateEvent['actor'] {
  if (!p) return { role: 'unknown', wallet: null, name: null };
  return { role: p.role === 'platform' ? 'platform' : p.role, wallet: p.authority, name: p.name, domain: p.domain };
}

/**
 * The history entry of a change the chain made to `row` (./chain-sync/reconcile.ts RowChange): a
 * revocation, a supersede, a confirmation on chain. `source` says whether one of this server's flows
 * sent it (its own words are then given by the flow) or it was followed from the chain.
 */
export function chainChangeEvent(row: Pick<CertificateRow, 'id'>, change: RowChange, opts: { signature?: string | null; source: 'attesta' | 'chain'; actor?: NewCertificateEvent['actor']; reason?: string | null }): NewCertificateEvent {
  const d = change.verification_details;
  const base = { certificate_id: row.id, source: opts.source, signature: opts.signature ?? null, message: d.reason };
  if (d.kind === 'revoked') {
    return { ...base, kind: 'revoked', actor: opts.actor ?? actorOf(d.revoked_by), details: { reason_code: d.reason_code, reason_name: d.reason_name, ...(opts.reason ? { reason: opts.reason } : {}) } };
  }
  if (d.kind === 'superseded') {
    return { ...base, kind: 'superseded', actor: opts.actor ?? actorOf(d.superseded_by), details: { new_holder_wallet: d.new_holder_wallet } };
  }
  const issuer = d.issuer ? { role: 'issuer' as const, wallet: d.issuer.authority, name: d.issuer.name, domain: d.issuer.domain } : { role: 'unknown' as const, wallet: null, name: null };
  return { ...base, kind: 'confirmed', actor: opts.actor ?? issuer, details: { claims_confirmed: d.claims_confirmed === true, content_checked: d.content_checked === true } };
}
