import { sql, type Kysely } from 'kysely';

// Frozen: never edit after release; add a new dated file instead.
// The public verdict says what was checked in more words: `reason_text` (the reason in plain words),
// a note at the platform_verified tier ("Checked by Attesta only, not confirmed by <institution>."), and
// the revocation reason of code 10 ("revoked by the institution named on the record"). Verdicts stored by
// hash (public_verdict) are served as stored, so the ones computed before this upgrade would go on
// without them: every stored verdict is taken away and its hash, with every certificate's, marked for the
// verdict store to compute again (services/certificates/verdict-store.ts). Until it has, a request
// computes the verdict itself, as for any hash not stored.

export async function up(db: Kysely<any>): Promise<void> {
  // Stored verdicts first (a hash may have one without a certificate row: a deleted row's), then every certificate.
  await sql`insert into public_verdict_dirty (sha256) select sha256 from public_verdict where sha256 not in (select sha256 from public_verdict_dirty)`.execute(db);
  await sql`insert into public_verdict_dirty (sha256) select distinct sha256 from certificate where sha256 not in (select sha256 from public_verdict_dirty)`.execute(db);
  await db.deleteFrom('public_verdict').execute();
}

export async function down(): Promise<void> {
  // Nothing to undo: the store computes the verdicts again either way.
}
