import type { Kysely } from 'kysely';
import { newId } from '../lib/ids';
import type { CertificateEventKind, CertificateEventRole, CertificateEventRow, Database } from './schema';

// A certificate's history beside its verification runs: what institutions, the operator and the holder
// did to it (services/certificates/history.ts says it in words). Append-only: entries are inserted in the
// transaction that writes the change they record, and never updated or deleted.

type Db = Kysely<Database>;

export interface NewCertificateEvent {
  certificate_id: string;
  kind: CertificateEventKind;
  actor: { role: CertificateEventRole; wallet: string | null; name: string | null; domain?: string | null };
  source: 'attesta' | 'chain';
  message: string;
  signature?: string | null;
  details?: Record<string, unknown>;
  at?: string;
}

export async function appendEvent(db: Db, e: NewCertificateEvent): Promise<void> {
  const details = { ...(e.details ?? {}), ...(e.actor.domain ? { actor_domain: e.actor.domain } : {}) };
  await db
    .insertInto('certificate_event')
    .values({
      id: newId('e_'),
      certificate_id: e.certificate_id,
      kind: e.kind,
      actor_role: e.actor.role,
      actor_wallet: e.actor.wallet,
      actor_name: e.actor.name,
      source: e.source,
      message: e.message,
      signature: e.signature ?? null,
      details: Object.keys(details).length ? JSON.stringify(details) : null,
      at: e.at ?? new Date().toISOString(),
    })
    .execute();
}

/** Oldest first. */
export function eventsOf(db: Db, certificateId: string): Promise<CertificateEventRow[]> {
  return db.selectFrom('certificate_event').selectAll().where('certificate_id', '=', certificateId).orderBy('at').orderBy('id').execute();
}
