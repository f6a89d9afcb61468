import type { Kysely } from 'kysely';
import { newId } from '../lib/ids';
import type { AuditLogRow, AuditRole, Database } from './schema';

// The audit log is append-only: this file only inserts and reads it. Nothing in the code base updates
// or deletes audit_log rows (server/test/institutions.test.ts greps for it).

type Db = Kysely<Database>;

export interface AuditEntry {
  actor_wallet: string;
  actor_role: AuditRole;
  action: string;
  target?: string | null;
  signature?: string | null;
  details?: Record<string, unknown> | null;
}

export async function appendAudit(db: Db, e: AuditEntry): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      id: newId('a_'),
      at: new Date().toISOString(),
      actor_wallet: e.actor_wallet,
      actor_role: e.actor_role,
      action: e.action,
      target: e.target ?? null,
      signature: e.signature ?? null,
      details: e.details ? JSON.stringify(e.details) : null,
    })
    .execute();
}

/** Newest first; `before` is the cursor the previous page returned (`<at>|<id>`). */
export async function auditPage(db: Db, opts: { limit?: number; before?: string } = {}): Promise<{ entries: AuditLogRow[]; next: string | null }> {
  const limit = opts.limit ?? 50;
  let q = db.selectFrom('audit_log').selectAll();
  const [at, id] = (opts.before ?? '').split('|');
  if (at && id) q = q.where((eb) => eb.or([eb('at', '<', at), eb.and([eb('at', '=', at), eb('id', '<', id)])]));
  const rows = await q.orderBy('at', 'desc').orderBy('id', 'desc').limit(limit + 1).execute();
  const entries = rows.slice(0, limit);
  return { entries, next: rows.length > limit ? `${entries.at(-1)!.at}|${entries.at(-1)!.id}` : null };
}
