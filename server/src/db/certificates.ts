import { sql, type Kysely } from 'kysely';
import type { CertificateStatsDto } from '../../../shared/schemas/dto';
import type { CertificateStatusName } from '../../../shared/constants';
import { DomainError } from '../lib/errors';
import { isPostgres } from './dialect';
import type { CertificateRow, CertificateUpdate, Database, NewCertificate } from './schema';

// The certificate repository: every read and write of the `certificate` table that more than one
// place needs. Plain functions of a Kysely handle, so they run inside a caller's transaction too.

type Db = Kysely<Database>;

/**
 * `verification_status <> 'superseded'` with the value in the SQL text, not bound: it is the WHERE of
 * the partial unique index on live hashes, and SQLite proves a partial index usable from literals
 * only — with a bound value it re-plans the statement at every call (~20 µs of a ~30 µs lookup).
 */
const LIVE = sql.lit<CertificateRow['verification_status']>('superseded');

type Claims = Pick<CertificateRow, 'title' | 'institution_name' | 'program_name' | 'issue_date'>;

/** What the holder claims a certificate is (verified against the document's text). */
export const claimsOf = (c: Claims): Claims => ({ title: c.title, institution_name: c.institution_name, program_name: c.program_name, issue_date: c.issue_date });

/** A certificate waiting for its (next) verification run: no verdict, no details, no tier. */
export const AWAITING_VERIFICATION = { verification_status: 'pending', verification_details: null, tier: 'none' } as const;

/** A row no institution has issued, confirmed or been asked about (yet). */
export const NO_INSTITUTION = { issuer_authority: null, requested_issuer: null, claims_confirmed: 0, revocation_note: null } as const;

/** Two claims are the same claims: every field as written (a copy of the claims is compared with the row's). */
export const sameClaims = (a: Claims, b: Claims): boolean =>
  a.title === b.title && a.institution_name === b.institution_name && a.program_name === b.program_name && a.issue_date === b.issue_date;

/**
 * Holds the certificate's row until the transaction ends, so that two transactions that each read it
 * and then decide (a holder changing the details, an institution's confirmation being sent) run one
 * after the other: PostgreSQL locks the row (SELECT … FOR UPDATE); SQLite needs nothing, one connection
 * runs one transaction at a time. Returns the row as it is now.
 */
export async function lockCertificate(trx: Db, id: string): Promise<CertificateRow | undefined> {
  const q = trx.selectFrom('certificate').selectAll().where('id', '=', id);
  return (isPostgres(trx) ? q.forUpdate() : q).executeTakeFirst();
}

/** The row a certificate id names, anyone's. */
export function findCertificate(db: Db, id: string): Promise<CertificateRow | undefined> {
  return db.selectFrom('certificate').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The row of a certificate that must exist (a job's, one just written). */
export function getCertificate(db: Db, id: string): Promise<CertificateRow> {
  return db.selectFrom('certificate').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** One of `userId`'s certificates; someone else's id is indistinguishable from a missing one. */
export function findOwn(db: Db, userId: string, id: string): Promise<CertificateRow | undefined> {
  return db.selectFrom('certificate').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}

/** findOwn, or NOT_FOUND with `message` (the same answer for someone else's certificate as for a missing one). */
export async function ownOrNotFound(db: Db, userId: string, id: string, message = 'Certificate not found'): Promise<CertificateRow> {
  const row = await findOwn(db, userId, id);
  if (!row) throw new DomainError('NOT_FOUND', message);
  return row;
}

/**
 * Every row of a file (by its SHA-256): at most one live row, and any number of superseded ones (earlier
 * claims an institution's issuance to the rightful holder overrode); the chain follower reconciles them all.
 */
export function findBySha256(db: Db, sha256: string): Promise<CertificateRow[]> {
  return db.selectFrom('certificate').selectAll().where('sha256', '=', sha256).execute();
}

/**
 * The live (not superseded) row of a file, if anyone added it: who holds it. The database keeps live
 * hashes unique (a partial unique index); superseded rows keep their hash and do not count.
 */
export function liveRowOfSha256(db: Db, sha256: string): Promise<Pick<CertificateRow, 'id' | 'user_id' | 'holder_wallet' | 'verification_status'> | undefined> {
  return db
    .selectFrom('certificate')
    .select(['id', 'user_id', 'holder_wallet', 'verification_status'])
    .where('sha256', '=', sha256)
    .where('verification_status', '<>', LIVE)
    .executeTakeFirst();
}

export type CertificateWithHolder = CertificateRow & { full_name: string; profile_image_url: string | null };

/**
 * A certificate with its holder's public name and photo: by id, by id of a given holder (share links),
 * or by file hash and the wallet the chain record names as its holder — the live row of that holder
 * only, never an earlier claimant's (superseded) row of the same file.
 */
export function findWithHolder(db: Db, by: { id: string; userId?: string } | { sha256: string; holderWallet?: string }): Promise<CertificateWithHolder | undefined> {
  let q = db
    .selectFrom('certificate')
    .innerJoin('user', 'user.id', 'certificate.user_id')
    .selectAll('certificate')
    .select(['user.full_name', 'user.profile_image_url']);
  if ('sha256' in by) {
    // At most one row of a hash is not superseded (index certificate_sha256_live_uq): without
    // `holderWallet`, that live row whoever holds it.
    q = q.where('certificate.sha256', '=', by.sha256).where('certificate.verification_status', '<>', LIVE);
    if (by.holderWallet !== undefined) q = q.where('certificate.holder_wallet', '=', by.holderWallet);
  } else {
    q = q.where('certificate.id', '=', by.id);
    if (by.userId !== undefined) q = q.where('certificate.user_id', '=', by.userId);
  }
  return q.executeTakeFirst();
}

/**
 * The verified certificate whose holder uploaded the image with this SHA-256 (`original_sha256`: the
 * upload, before Attesta converted it to the PDF it recorded), the earliest if several; one lookup on
 * certificate_original_sha256_idx (a hash that is nobody's upload finds nothing in the index).
 */
export function findVerifiedByOriginal(db: Db, originalSha256: string): Promise<Pick<CertificateRow, 'id' | 'sha256'> | undefined> {
  return db
    .selectFrom('certificate')
    .select(['id', 'sha256'])
    .where('original_sha256', '=', originalSha256)
    .where('verification_status', '=', 'verified')
    .orderBy('created_at')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
}

/** `userId`'s certificates, newest first, filtered by status and a search over title, institution and program. */
export function listOwn(db: Db, userId: string, filter: { status?: CertificateStatusName | 'all'; search?: string; limit?: number } = {}): Promise<CertificateRow[]> {
  let q = db.selectFrom('certificate').selectAll().where('user_id', '=', userId);
  if (filter.status && filter.status !== 'all') q = q.where('verification_status', '=', filter.status);
  const term = filter.search?.trim();
  if (term) {
    // Both sides lower-cased (SQLite's LIKE folds ASCII only, PostgreSQL's not at all); the wildcards
    // the user typed are escaped with '!' (no backslash: its quoting differs between the databases).
    const like = `%${term.toLowerCase().replace(/[!%_]/g, (c) => `!${c}`)}%`;
    q = q.where((eb) => eb.or((['title', 'institution_name', 'program_name'] as const).map((col) => eb(sql`lower(${sql.ref(col)})`, 'like', sql`${like} escape '!'`))));
  }
  return q.orderBy('created_at', 'desc').orderBy('id').limit(filter.limit ?? 200).execute();
}

/** How many of `userId`'s certificates are in each state (and minted); `verified` by their rows (the router splits them by what a verifier reads). */
export async function ownStats(db: Db, userId: string): Promise<Pick<CertificateStatsDto, 'total' | 'verified' | 'pending' | 'rejected' | 'minted'>> {
  const r = await db
    .selectFrom('certificate')
    .select((eb) => [
      eb.fn.countAll<number>().as('total'),
      eb.fn.countAll<number>().filterWhere('verification_status', '=', 'verified').as('verified'),
      eb.fn.countAll<number>().filterWhere('verification_status', '=', 'pending').as('pending'),
      eb.fn.countAll<number>().filterWhere('verification_status', '=', 'rejected').as('rejected'),
      eb.fn.countAll<number>().filterWhere('nft_mint_address', 'is not', null).as('minted'),
    ])
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return { total: Number(r.total), verified: Number(r.verified), pending: Number(r.pending), rejected: Number(r.rejected), minted: Number(r.minted) };
}

/** The file hashes of rows whose on-chain record is among `recordAddresses` (chain follower). */
export async function sha256sOfRecords(db: Db, recordAddresses: string[]): Promise<string[]> {
  if (!recordAddresses.length) return [];
  return (await db.selectFrom('certificate').select('sha256').distinct().where('record_address', 'in', recordAddresses).execute()).map((r) => r.sha256);
}

export function insertCertificate(db: Db, row: NewCertificate): Promise<unknown> {
  return db.insertInto('certificate').values(row).execute();
}

/**
 * Updates a row; with `ifUnchangedSince` only when its `updated_at` still is that value (an
 * optimistic check: a flow writing the same row meanwhile wins). True when the row was updated.
 */
export async function updateCertificate(db: Db, id: string, set: CertificateUpdate, opts: { ifUnchangedSince?: string; ifStatus?: CertificateStatusName } = {}): Promise<boolean> {
  let q = db.updateTable('certificate').set(set).where('id', '=', id);
  if (opts.ifUnchangedSince !== undefined) q = q.where('updated_at', '=', opts.ifUnchangedSince);
  if (opts.ifStatus !== undefined) q = q.where('verification_status', '=', opts.ifStatus);
  return Number((await q.executeTakeFirst()).numUpdatedRows) > 0;
}
