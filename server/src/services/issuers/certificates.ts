import { sql } from 'kysely';
import type { UserRow } from '../../db/schema';
import { toCertificateDto } from '../certificates/dto';
import { standingsOf } from '../certificates/standing';
import type { Services } from '../index';

// The institution's certificates: those it issued or confirmed (certificate.issuer_authority), with a
// search, a status filter and counts; each links to its public view.

export async function issuedCertificates(svc: Pick<Services, 'db' | 'chain'>, user: UserRow, origin: string, filter: { search?: string; status?: 'all' | 'verified' | 'revoked' | 'superseded'; limit?: number } = {}) {
  const mine = svc.db.selectFrom('certificate').where('issuer_authority', '=', user.wallet_address);
  let q = mine.selectAll();
  if (filter.status && filter.status !== 'all') q = q.where('verification_status', '=', filter.status);
  const term = filter.search?.trim();
  if (term) {
    // As db/certificates.ts listOwn: both sides lower-cased, the user's wildcards escaped with '!'.
    const like = `%${term.toLowerCase().replace(/[!%_]/g, (c) => `!${c}`)}%`;
    q = q.where((eb) => eb.or((['title', 'program_name', 'holder_wallet'] as const).map((col) => eb(sql`lower(${sql.ref(col)})`, 'like', sql`${like} escape '!'`))));
  }
  const rows = await q.orderBy('created_at', 'desc').orderBy('id').limit(filter.limit ?? 200).execute();
  const c = await mine
    .select((eb) => [
      eb.fn.countAll<number>().as('total'),
      eb.fn.countAll<number>().filterWhere('verification_status', '=', 'verified').as('verified'),
      eb.fn.countAll<number>().filterWhere('verification_status', '=', 'revoked').as('revoked'),
      eb.fn.countAll<number>().filterWhere('verification_status', '=', 'superseded').as('superseded'),
    ])
    .executeTakeFirstOrThrow();
  const open = await svc.db.selectFrom('confirmation_request').select((eb) => eb.fn.countAll<number>().as('n')).where('issuer_authority', '=', user.wallet_address).where('status', '=', 'open').executeTakeFirstOrThrow();
  const standings = await standingsOf(svc, rows);
  return {
    certificates: rows.map((r, i) => toCertificateDto(r, origin, standings[i])),
    counts: { total: Number(c.total), verified: Number(c.verified), revoked: Number(c.revoked), superseded: Number(c.superseded), open_requests: Number(open.n) },
  };
}

/**
 * An institution's standing changed (approved, suspended, its domain proof proven or lapsed): every
 * certificate it issued or confirmed reads differently now though no row of them changed. The pages
 * open on them are told, so a holder sees it live; only watched certificates are looked up.
 */
export async function announceInstitutionChange(svc: Pick<Services, 'db' | 'bus'>, authority: string) {
  const watched = svc.bus.watched();
  if (!watched.length) return;
  const now = new Date().toISOString();
  for (let i = 0; i < watched.length; i += 500) {
    const rows = await svc.db.selectFrom('certificate').select(['id', 'verification_status']).where('issuer_authority', '=', authority).where('id', 'in', watched.slice(i, i + 500)).execute();
    for (const r of rows) svc.bus.publish({ certificate_id: r.id, verification_status: r.verification_status, step: null, step_status: null, updated_at: now });
  }
}
