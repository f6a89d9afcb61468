import { createHash } from 'node:crypto';
import { MESSAGES } from '../../../shared/constants';
import { publicViewInput, verifyByHashInput, verifyByIdInput, verifyFileInput } from '../../../shared/schemas/certificate';
import { findCertificate, findWithHolder } from '../db/certificates';
import { fail } from '../lib/errors';
import { toPublicCertificateDto } from '../services/certificates/dto';
import { publicProcedure, router } from '../trpc';

/**
 * `public.verifyFile` is the anonymous upload: anyone may send a file (up to the 25 MB body limit),
 * and tRPC's FormData parser reads it whole into memory before the procedure runs (~17 MB of RSS per
 * 24 MB upload measured, 30 at once took the server from 202 to 699 MB). So how many are in flight at
 * once is bounded, by client address and in all, before the body is read (http/body-limit.ts
 * registerUploadSlots, registered in app.ts): over either, 429 with Retry-After and why.
 * - 2 per client address (IPv6: its /64; behind TRUST_PROXY, the forwarded address): the app checks
 *   one file at a time, and a second tab or a colleague behind the same NAT still gets through.
 * - 8 in all: at most ~8 × 25 MB of bodies in memory (plus their parsing), while a check of a typical
 *   certificate takes well under a second, so 8 at once still serves many verifiers a second.
 */
export const ANONYMOUS_UPLOADS = { procedures: ['public.verifyFile'], perAddress: 2, total: 8, retryAfterSec: 5 } as const;

/** SHA-256 of an uploaded file, read as a stream (no second copy of the bytes in memory). */
async function sha256OfFile(file: File): Promise<string> {
  const hash = createHash('sha256');
  const reader = file.stream().getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return hash.digest('hex');
    hash.update(value);
  }
}

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
    if (input.file.size > 25 * 1024 * 1024) fail('PAYLOAD_TOO_LARGE', 'File is too large. The maximum size is 25 MB.');
    const actual = await sha256OfFile(input.file);
    if (input.certificateId) {
      const cert = await certificateOrNotFound(ctx.db, input.certificateId);
      return ctx.verdicts.verdictFor({ sha256: cert.sha256, cert, fileSha256: actual, origin: ctx.origin });
    }
    return ctx.verdicts.verdictFor({ sha256: actual, fileSha256: actual, origin: ctx.origin });
  }),
});
