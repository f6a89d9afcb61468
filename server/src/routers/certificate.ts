import { TRPCError, tracked } from '@trpc/server';
import { sql } from 'kysely';
import { certificateByIdInput, createCertificateInput, listCertificatesInput, onStatusInput, updateClaimsInput } from '../../../shared/schemas/certificate';
import type { CertificateStatsDto } from '../../../shared/schemas/dto';
import type { Context, Session } from '../context';
import { verificationAttempts } from '../services/certificates/attempts';
import { toCertificateDto, toLogDto } from '../services/certificates/dto';
import { createCertificate } from '../services/certificates/intake';
import { protectedProcedure, router } from '../trpc';

/** Own certificates only: someone else's id is indistinguishable from a missing one. */
async function ownCertificate(ctx: Context & { session: Session }, id: string) {
  const row = await ctx.db.selectFrom('certificate').selectAll().where('id', '=', id).where('user_id', '=', ctx.session.user.id).executeTakeFirst();
  if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: 'Certificate not found' });
  return row;
}

export const certificateRouter = router({
  /** FormData: title, institution_name, program_name, issue_date, certificate_file. */
  create: protectedProcedure.input(createCertificateInput).mutation(async ({ ctx, input }) => {
    const row = await createCertificate(ctx, ctx.session.user, input);
    return toCertificateDto(row, ctx.origin);
  }),

  list: protectedProcedure.input(listCertificatesInput).query(async ({ ctx, input }) => {
    let q = ctx.db.selectFrom('certificate').selectAll().where('user_id', '=', ctx.session.user.id);
    if (input?.status && input.status !== 'all') q = q.where('verification_status', '=', input.status);
    const term = input?.search?.trim();
    if (term) {
      // Both sides lower-cased (SQLite's LIKE folds ASCII only, PostgreSQL's not at all); the wildcards
      // the user typed are escaped with '!' (no backslash: its quoting differs between the databases).
      const like = `%${term.toLowerCase().replace(/[!%_]/g, (c) => `!${c}`)}%`;
      q = q.where((eb) =>
        eb.or(
          (['title', 'institution_name', 'program_name'] as const).map((col) => eb(sql`lower(${sql.ref(col)})`, 'like', sql`${like} escape '!'`)),
        ),
      );
    }
    const rows = await q.orderBy('created_at', 'desc').orderBy('id').limit(input?.limit ?? 200).execute();
    return rows.map((r) => toCertificateDto(r, ctx.origin));
  }),

  byId: protectedProcedure.input(certificateByIdInput).query(async ({ ctx, input }) => toCertificateDto(await ownCertificate(ctx, input.id), ctx.origin)),

  logs: protectedProcedure.input(certificateByIdInput).query(async ({ ctx, input }) => {
    await ownCertificate(ctx, input.id);
    const rows = await ctx.db.selectFrom('verification_log').selectAll().where('certificate_id', '=', input.id).orderBy('created_at').orderBy('id').execute();
    return rows.map(toLogDto);
  }),

  /** The verification runs of a certificate, oldest first, each with its own steps (one job = one attempt). */
  attempts: protectedProcedure.input(certificateByIdInput).query(async ({ ctx, input }) => verificationAttempts(ctx.db, await ownCertificate(ctx, input.id))),

  stats: protectedProcedure.query(async ({ ctx }): Promise<CertificateStatsDto> => {
    const r = await ctx.db
      .selectFrom('certificate')
      .select((eb) => [
        eb.fn.countAll<number>().as('total'),
        eb.fn.countAll<number>().filterWhere('verification_status', '=', 'verified').as('verified'),
        eb.fn.countAll<number>().filterWhere('verification_status', '=', 'pending').as('pending'),
        eb.fn.countAll<number>().filterWhere('verification_status', '=', 'rejected').as('rejected'),
        eb.fn.countAll<number>().filterWhere('nft_mint_address', 'is not', null).as('minted'),
      ])
      .where('user_id', '=', ctx.session.user.id)
      .executeTakeFirstOrThrow();
    return { total: Number(r.total), verified: Number(r.verified), pending: Number(r.pending), rejected: Number(r.rejected), minted: Number(r.minted) };
  }),

  /** The seed's Check Status: (re)starts verification of a pending certificate. */
  startVerification: protectedProcedure.input(certificateByIdInput).mutation(async ({ ctx, input }) => {
    const cert = await ownCertificate(ctx, input.id);
    if (cert.verification_status !== 'pending') return { status: cert.verification_status, job_id: null as string | null };
    const job = await ctx.queue.enqueue(cert.id);
    ctx.queue.kick();
    return { status: cert.verification_status, job_id: job.id as string | null };
  }),

  /** The seed's Try Again: a rejected certificate is verified again from the start. */
  retryVerification: protectedProcedure.input(certificateByIdInput).mutation(async ({ ctx, input }) => {
    const cert = await ownCertificate(ctx, input.id);
    if (cert.verification_status === 'verified') throw new TRPCError({ code: 'BAD_REQUEST', message: 'This certificate is already verified.' });
    const job = await ctx.queue.enqueue(cert.id);
    ctx.queue.kick();
    return { status: cert.verification_status, job_id: job.id };
  }),

  /**
   * The holder corrects the claimed details (title, institution, program, issue date) of a rejected
   * certificate, or of a pending one no run is working on (content not readable, retries given up):
   * the same file is verified again against them. Verified, revoked and superseded certificates, and
   * one being verified right now, keep their details (CONFLICT).
   */
  updateClaims: protectedProcedure.input(updateClaimsInput).mutation(async ({ ctx, input }) => {
    const cert = await ownCertificate(ctx, input.id);
    const refuse = (message: string) => new TRPCError({ code: 'CONFLICT', message });
    if (cert.verification_status === 'verified') throw refuse('A verified certificate keeps the details it was verified with.');
    if (cert.verification_status === 'revoked' || cert.verification_status === 'superseded') {
      throw refuse(`A ${cert.verification_status} certificate's details can no longer be changed.`);
    }
    const now = new Date().toISOString();
    const job = await ctx.db.transaction().execute(async (trx) => {
      // Checked inside the transaction that queues the new run, so two edits cannot both start one.
      const active = await trx.selectFrom('verification_job').select('id').where('certificate_id', '=', cert.id).where('status', 'in', ['queued', 'running']).executeTakeFirst();
      if (active) throw refuse('This certificate is being verified right now. Wait for the result before changing its details.');
      const changed = await trx
        .updateTable('certificate')
        .set({
          title: input.title,
          institution_name: input.institution_name,
          program_name: input.program_name,
          issue_date: input.issue_date,
          verification_status: 'pending',
          verification_details: null,
          tier: 'none',
          updated_at: now,
        })
        .where('id', '=', cert.id)
        .where('updated_at', '=', cert.updated_at)
        .executeTakeFirst();
      if (Number(changed.numUpdatedRows) !== 1) throw refuse('This certificate changed meanwhile. Reload it and try again.');
      return ctx.queue.enqueue(cert.id, trx);
    });
    ctx.queue.kick();
    ctx.bus.publish({ certificate_id: cert.id, verification_status: 'pending', step: null, step_status: null, updated_at: now });
    const row = await ctx.db.selectFrom('certificate').selectAll().where('id', '=', cert.id).executeTakeFirstOrThrow();
    return { certificate: toCertificateDto(row, ctx.origin), job_id: job.id };
  }),

  /** Live status over SSE; the first event is the current state, so reconnects never miss the end. */
  onStatus: protectedProcedure.input(onStatusInput).subscription(async function* ({ ctx, input, signal }) {
    const cert = await ownCertificate(ctx, input.id);
    const events = ctx.bus.subscribe(cert.id, signal);
    const current = await ctx.db.selectFrom('certificate').select(['verification_status', 'updated_at']).where('id', '=', cert.id).executeTakeFirstOrThrow();
    let n = 0;
    yield tracked(`${cert.id}:${n++}`, { certificate_id: cert.id, verification_status: current.verification_status, step: null as string | null, step_status: null as string | null, updated_at: current.updated_at });
    for await (const e of events) yield tracked(`${cert.id}:${n++}`, e);
  }),
});
