import { z } from 'zod';
import { CERTIFICATE_STATUSES, MESSAGES } from '../constants';
import { certificateId, formDataInput, requiredText, sha256Hex, uploadedFile } from './common';

/** The Certificate Details form (SEED-SPEC.md §5), also used by the app's form. */
export const certificateDetails = z.object({
  title: requiredText(MESSAGES.titleRequired),
  institution_name: requiredText(MESSAGES.institutionRequired),
  program_name: requiredText(MESSAGES.programRequired),
  issue_date: z
    .string({ error: MESSAGES.issueDateRequired })
    .trim()
    .min(1, { error: MESSAGES.issueDateRequired })
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'Issue date must be a date (YYYY-MM-DD)' })
    .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), {
      error: 'Issue date must be a date (YYYY-MM-DD)',
    }),
});
export type CertificateDetails = z.infer<typeof certificateDetails>;

export const createCertificateFields = certificateDetails.extend({
  certificate_file: uploadedFile(MESSAGES.fileRequired),
});
/** FormData: title, institution_name, program_name, issue_date, certificate_file. */
export const createCertificateInput = formDataInput(createCertificateFields);

export const certificateStatusFilter = z.enum(['all', ...CERTIFICATE_STATUSES]);

export const listCertificatesInput = z
  .object({
    search: z.string().trim().max(200).optional(),
    status: certificateStatusFilter.optional(),
    /**
     * What a verifier reads now (the public verdict): `valid` keeps the certificates it reads as valid,
     * `not_valid` those verified on record that it reads as not valid (institution suspended, expired…);
     * `verified`, `platform_checked` and `domain_not_proven` those its badge names so (holder-mark.ts):
     * "Verified" (an institution whose domain is proven signed it), "Checked by Attesta only", "Issuer
     * domain not proven".
     */
    standing: z.enum(['valid', 'not_valid', 'verified', 'platform_checked', 'domain_not_proven']).optional(),
    limit: z.number().int().min(1).max(200).optional(),
  })
  .optional();
export type ListCertificatesInput = z.infer<typeof listCertificatesInput>;

export const certificateByIdInput = z.object({ id: certificateId });

/**
 * The holder corrects what they claimed (a mistyped title, institution or program): the same file is
 * verified again against the new details. The same fields and messages as the create form.
 */
export const updateClaimsInput = certificateDetails.extend({ id: certificateId });
export type UpdateClaimsInput = z.infer<typeof updateClaimsInput>;

export const publicViewInput = z.object({ userId: z.string().trim().min(1).max(64), certificateId });
export const verifyByIdInput = z.object({ certificateId });
export const verifyByHashInput = z.object({ sha256: sha256Hex });
export const verifyFileFields = z.object({
  file: uploadedFile('A file is required'),
  certificateId: certificateId.optional().or(z.literal('').transform(() => undefined)),
});
export const verifyFileInput = formDataInput(verifyFileFields);

export const onStatusInput = z.object({ id: certificateId, lastEventId: z.string().nullish() });
