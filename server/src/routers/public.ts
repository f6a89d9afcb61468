import { TRPCError } from '@trpc/server';
import { MESSAGES } from '../../../shared/constants';
import { publicViewInput, verifyByHashInput, verifyByIdInput, verifyFileInput } from '../../../shared/schemas/certificate';
import { toPublicCertificateDto } from '../services/certificates/dto';
import { verdictFor } from '../services/certificates/verdict';
import { sha256Hex } from '../services/files/index.js';
import { publicProcedure, router } from '../trpc';

const notFound = (message: string) => new TRPCError({ code: 'NOT_FOUND', message });

/** No sign-in: what a verifier (employer) can see and check. */
export const publicRouter = router({
  view: publicProcedure.input(publicViewInput).query(async ({ ctx, input }) => {
    const row = await ctx.db
      .selectFrom('certificate')
      .innerJoin('user', 'user.id', 'certificate.user_id')
      .selectAll('certificate')
      .select(['user.full_name', 'user.profile_image_url'])
      .where('certificate.id', '=', input.certificateId)
      .where('certificate.user_id', '=', input.userId)
      .executeTakeFirst();
    if (!row) throw notFound(MESSAGES.certificateNotFound);
    return toPublicCertificateDto(row, row, ctx.origin);
  }),

  verifyById: publicProcedure.input(verifyByIdInput).query(async ({ ctx, input }) => {
    const cert = await ctx.db.selectFrom('certificate').selectAll().where('id', '=', input.certificateId).executeTakeFirst();
    if (!cert) throw notFound(MESSAGES.verificationIdNotFound);
    return verdictFor(ctx, { sha256: cert.sha256, cert, origin: ctx.origin });
  }),

  /** Works for any anchored hash, also ones this server never stored (the chain is the source). */
  verifyByHash: publicProcedure.input(verifyByHashInput).query(({ ctx, input }) => verdictFor(ctx, { sha256: input.sha256, origin: ctx.origin })),

  /** FormData { file, certificateId? }: hashes the bytes as given (no conversion) and compares. */
  verifyFile: publicProcedure.input(verifyFileInput).mutation(async ({ ctx, input }) => {
    const bytes = new Uint8Array(await input.file.arrayBuffer());
    if (bytes.length > 25 * 1024 * 1024) throw new TRPCError({ code: 'PAYLOAD_TOO_LARGE', message: 'File is too large. The maximum size is 25 MB.' });
    const actual = sha256Hex(bytes);
    if (input.certificateId) {
      const cert = await ctx.db.selectFrom('certificate').selectAll().where('id', '=', input.certificateId).executeTakeFirst();
      if (!cert) throw notFound(MESSAGES.verificationIdNotFound);
      return verdictFor(ctx, { sha256: cert.sha256, cert, fileSha256: actual, origin: ctx.origin });
    }
    return verdictFor(ctx, { sha256: actual, fileSha256: actual, origin: ctx.origin });
  }),
});
