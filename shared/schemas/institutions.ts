import { z } from 'zod';
import { MAX_ISSUER_NAME } from '../constants';
import { certificateDetails } from './certificate';
import { certificateId, formDataInput, solanaAddress, uploadedFile } from './common';

// Inputs of the institution portal (issuer.*), the holder's confirmation request and the operator
// console (operator.*); notes/institutions-design.md.

const utf8Bytes = (s: string) => new TextEncoder().encode(s).length;

export const registerIssuerInput = z.object({
  name: z
    .string({ error: 'The institution’s name is required' })
    .trim()
    .min(1, { error: 'The institution’s name is required' })
    .refine((s) => utf8Bytes(s) <= MAX_ISSUER_NAME, { error: `The name must be at most ${MAX_ISSUER_NAME} bytes (shorter, or fewer accented letters)` }),
  domain: z.string({ error: 'The institution’s domain is required' }).trim().min(1, { error: 'The institution’s domain is required' }).max(253, { error: 'A domain is at most 253 characters' }),
});

const isoDate = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: message })
    .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), { error: message });

/** FormData: title, program_name, issue_date, holder_wallet, expires_on (optional), certificate_file. The institution is the issuer itself. */
export const issueCertificateFields = certificateDetails.omit({ institution_name: true }).extend({
  holder_wallet: z.string({ error: 'The holder’s wallet address is required' }).trim().min(1, { error: 'The holder’s wallet address is required' }).max(64, { error: 'Not a valid Solana address' }),
  expires_on: z.preprocess((v) => (v === '' || v === null ? undefined : v), isoDate('The expiry must be a date (YYYY-MM-DD)').optional()),
  certificate_file: uploadedFile('A certificate file (PDF or image) is required'),
});
export const issueCertificateInput = formDataInput(issueCertificateFields);

/** A signed prepared transaction coming back from the wallet (a legacy transaction: ≤ 1644 base64 characters). */
export const submitSignedInput = z.object({ signedTransaction: z.string({ error: 'The signed transaction is required' }).trim().min(1).max(2048, { error: 'Not a signed transaction' }) });

export const requestId = z.string({ error: 'A request ID is required' }).trim().min(1, { error: 'A request ID is required' }).max(64, { error: 'Not a valid request ID' });
export const requestByIdInput = z.object({ requestId });
export const declineInput = z.object({
  requestId,
  reason: z.string({ error: 'Say why you decline (the holder reads it)' }).trim().min(1, { error: 'Say why you decline (the holder reads it)' }).max(500, { error: 'The reason is at most 500 characters' }),
});

export const ISSUER_REVOCATION_REASONS = ['revoked_by_issuer', 'revoked_superseded', 'revoked_holder_request'] as const;
export const revokeByIssuerInput = z.object({
  id: certificateId,
  reason: z.enum(ISSUER_REVOCATION_REASONS, { error: `The reason is one of ${ISSUER_REVOCATION_REASONS.join(', ')}` }),
  note: z.string().trim().max(1000, { error: 'The note is at most 1000 characters' }).optional(),
});

export const REQUEST_STATUSES = ['open', 'confirmed', 'declined', 'withdrawn'] as const;
export const listRequestsInput = z.object({ status: z.enum(['all', ...REQUEST_STATUSES]).optional() }).optional();

export const ISSUED_STATUSES = ['verified', 'revoked', 'superseded'] as const;
export const listIssuedInput = z
  .object({ search: z.string().trim().max(200).optional(), status: z.enum(['all', ...ISSUED_STATUSES]).optional(), limit: z.number().int().min(1).max(200).optional() })
  .optional();

export const requestConfirmationInput = z.object({ id: certificateId, issuer: solanaAddress, consent: z.literal(true, { error: 'Consent to share the file with the institution is required' }) });
export const issuersForInput = z.object({ id: certificateId });

export const ISSUER_STATUS_FILTER = ['all', 'pending', 'approved', 'suspended'] as const;
export const operatorIssuersInput = z.object({ status: z.enum(ISSUER_STATUS_FILTER).optional() }).optional();
export const setIssuerStatusInput = z.object({ authority: solanaAddress, status: z.enum(['approved', 'suspended'], { error: 'The status is approved or suspended' }) });
export const operatorRevokePreviewInput = z.object({ id: certificateId });
export const operatorRevokeInput = z.object({
  id: certificateId,
  note: z.string({ error: 'A note is required: say what the fraud is' }).trim().min(1, { error: 'A note is required: say what the fraud is' }).max(1000, { error: 'The note is at most 1000 characters' }),
});
export const auditInput = z
  .object({ limit: z.number().int().min(1).max(100).optional(), before: z.string().trim().max(100).optional() })
  .optional();
