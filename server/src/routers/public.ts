import { MESSAGES } from '../../../shared/constants';
import { publicViewInput, verifyByHashInput, verifyByIdInput, verifyFileInput } from '../../../shared/schemas/certificate';
import { findCertificate, findWithHolder } from '../db/certificates';
import { fail } from '../lib/errors';
import { toPublicCertificateDto } from '../services/certificates/dto';
import { sha256Hex } from '../services/files/index.js';
import { publicProcedure, router } from '../trpc';

const certificateOrNotFound = async (db: Parameters<typeof findCertificate>[0], id: string) => (await findCertificate(db, id)) ?? fail('NOT_FOUND', MESSAGES.verificationIdNotFound);

/** No sign-in: what a verifier (employer) can see and check. */
export const publicRouter = router({
  view: publicProcedure.input(publicViewInput).query(async ({ ctx, input }) => {
    const row = (await findWithHolder(ctx.db, { id: input.certificateId, userId: input.userId })) ?? fail('NOT_FOUND', MESSAGES.certificateNotFound);
    return toPublicCertificateDto(row, row, ctx.origin);
  }),

  verifyById: publicProcedure.input(verifyByIdInput).query(async ({ ctx, input }) => {
    const cert = await certificateOrNotFound(ctx.db, input.certificateId);
    return ctx.verdicts.verdictFor({ sha256: cert.sha256, cert, origin: ctx.origin });
  }),

  /** Works for any anchored hash, also ones this server never stored (the chain is the source). */
  verifyByHash: publicProcedure.input(verifyByHashInput).query(({ ctx, input }) => ctx.verdicts.verdictFor({ sha256: input.sha256, origin: ctx.origin })),

  /** FormData { file, certificateId? }: hashes the bytes as given (no conversion) and compares. */
  verifyFile: publicProcedure.input(verifyFileInput).mutation(async ({ ctx, input }) => {
    const bytes = new Uint8Array(await input.file.arrayBuffer());
    if (bytes.length > 25 * 1024 * 1024) fail('PAYLOAD_TOO_LARGE', 'File is too large. The maximum size is 25 MB.');
    const actual = sha256Hex(bytes);
    if (input.certificateId) {
      const cert = await certificateOrNotFound(ctx.db, input.certificateId);
      return ctx.verdicts.verdictFor({ sha256: cert.sha256, cert, fileSha256: actual, origin: ctx.origin });
    }
    return ctx.verdicts.verdictFor({ sha256: actual, fileSha256: actual, origin: ctx.origin });
  }),
});
