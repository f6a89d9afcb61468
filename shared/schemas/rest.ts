// REST API v1 (SEED-SPEC.md §7 "Documented API"): request and response shapes. The server validates
// with them and generates its OpenAPI document from them (z.toJSONSchema), so the two cannot drift.
import { z } from 'zod';
import { CERTIFICATE_STATUSES, LOG_STATUSES, MESSAGES, TRUST_TIERS } from '../constants';
import { certificateDetails } from './certificate';
import { certificateId, requiredText, sha256Hex, solanaAddress, uploadedFile } from './common';
import { declineInput, issueCertificateFields, ISSUED_STATUSES, REQUEST_STATUSES, requestId, revokeByIssuerInput } from './institutions';
import { updateProfileInput } from './profile';

// ── Errors ──────────────────────────────────────────────────────────────────────────────────────
export const restErrorCodes = [
  'bad_request',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'precondition_failed',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  'internal_error',
] as const;
export type RestErrorCode = (typeof restErrorCodes)[number];

export const restError = z
  .object({
    error: z.object({
      code: z.string().describe(`Machine-readable: ${restErrorCodes.join(', ')}`),
      message: z.string().describe('Human-readable, safe to show'),
      fields: z.record(z.string(), z.string()).optional().describe('Per-field messages of a 400 (field name → message)'),
    }),
  });
export type RestErrorBody = z.infer<typeof restError>;

// ── Authentication ──────────────────────────────────────────────────────────────────────────────
export const restNonceRequest = z.object({ wallet_address: solanaAddress.describe('The Solana wallet (base58) that will sign') });
export const restNonceResponse = z.object({
  message: z.string().describe('Sign exactly this text with the wallet (ed25519), then POST it to /api/v1/auth/connect'),
  nonce: z.string(),
  expires_at: z.string().describe('ISO time; the message is single-use and valid for 5 minutes'),
});

export const restConnectRequest = z.object({
  wallet_address: solanaAddress,
  signature: z
    .string({ error: 'A signature is required' })
    .trim()
    .regex(/^[1-9A-HJ-NP-Za-km-z]{64,90}$/, { error: 'The signature must be base58' })
    .describe('base58 ed25519 signature of message'),
  message: z.string({ error: 'The signed message is required' }).min(1, { error: 'The signed message is required' }).max(2000).describe('The message from /api/v1/auth/nonce, unchanged'),
});
export const restUser = z.object({ id: z.string(), wallet_address: z.string(), full_name: z.string() });
export const restConnectResponse = z.object({
  token: z.string().describe('Bearer token for the other endpoints (until disconnect or expiry)'),
  expires_at: z.string(),
  user: restUser,
});
export const restDisconnectResponse = z.object({ success: z.literal(true) });

// ── Profile ─────────────────────────────────────────────────────────────────────────────────────
export const restProfile = z.object({
  id: z.string(),
  wallet_address: z.string(),
  full_name: z.string().describe('Empty until set. Verification looks for it in every certificate you add: write it as your certificates do.'),
  email: z.string().nullable(),
});
export const restUpdateProfileRequest = updateProfileInput;

// ── Certificates ────────────────────────────────────────────────────────────────────────────────
const status = z.enum(CERTIFICATE_STATUSES);

export const restListCertificatesQuery = z.object({
  status: z.enum(['all', ...CERTIFICATE_STATUSES]).optional().describe('Filter by verification status'),
  search: z.string().trim().max(200).optional().describe('Matches title, institution or program'),
});
/** What a verifier reads now about one of your certificates (its public verdict), beside its recorded status. */
const publicStanding = {
  valid: z
    .boolean()
    .describe(
      'What a verifier reads now (the public verdict, GET /api/v1/verify/hash/{sha256}): false for a certificate that is not verified, and for one verified on record whose institution is suspended, that expired, or whose confirmation does not cover the claims shown (see note)',
    ),
  tier: z
    .enum(TRUST_TIERS)
    .describe(
      "platform_verified = checked by Attesta only, not confirmed by the institution; issuer_confirmed = the institution's own key signed the record (whether its domain is proven: the public verdict's issuer.domain_proven, GET /api/v1/verify/hash/{sha256}); none = no positive verdict",
    ),
  note: z
    .string()
    .nullable()
    .describe(
      'In words, as the public verdict says it: why a certificate verified on record is not valid ("Expired on <date>.", "<Institution>\'s registration is suspended."…), what its confirmation does not cover, or whose check it is (with what the platform\'s check flagged); null when there is nothing to add',
    ),
};

export const restCertificateSummary = z.object({
  id: z.string(),
  title: z.string(),
  institution_name: z.string(),
  verification_status: status,
  issue_date: z.string(),
  ...publicStanding,
});
export const restCertificateListResponse = z.object({ certificates: z.array(restCertificateSummary) });

/** multipart/form-data: the seed's field is `file` (the app's form calls it certificate_file). */
export const restCreateCertificateFields = certificateDetails.extend({
  file: uploadedFile(MESSAGES.fileRequired).meta({
    type: 'string',
    format: 'binary',
    description: 'PDF, JPG, PNG or WEBP, at most 10 MB; images are converted to PDF before hashing',
  }),
});
export const restCreateCertificateResponse = z.object({
  id: z.string(),
  status: status.describe('Always pending: verification starts at once'),
  verification_url: z.string().describe('Public link anyone can open to check the certificate'),
});

export const restCertificateResponse = z.object({
  id: z.string(),
  title: z.string(),
  institution_name: z.string(),
  program_name: z.string(),
  issue_date: z.string(),
  verification_status: status.describe('The recorded status; whether it is valid now: valid'),
  ...publicStanding,
  verification_url: z.string(),
  sha256: z.string().describe('SHA-256 of the stored PDF, as anchored on chain'),
  nft_mint_address: z.string().optional().describe('Present once minted'),
  arweave_url: z.string().optional().describe('Permanent copy; present once minted'),
});

export const restIdParams = z.object({ id: certificateId });
export const restCertificateIdParams = z.object({ certificateId });

// ── Verification ────────────────────────────────────────────────────────────────────────────────
export const REST_EVENT_KINDS = ['issued', 'confirmation_requested', 'request_withdrawn', 'confirmed', 'declined', 'revoked', 'superseded'] as const;
export const restVerificationLog = z.object({
  id: z.string(),
  verification_step: z
    .string()
    .describe(
      `A step of one of the platform's verification runs: hash_verification, document_checks, issuer_verification, chain_record. Or what an institution, the operator or the holder did, an entry of its own (with actor and signature): ${REST_EVENT_KINDS.join(', ')}`,
    ),
  status: z.enum(LOG_STATUSES).describe('Of an entry that is no step: success for an issue or a confirmation, pending for a request, failed for a decline, a withdrawal, a revocation or a supersede'),
  details: z.object({ message: z.string() }).catchall(z.unknown()),
  actor: z
    .object({ role: z.enum(['holder', 'issuer', 'operator', 'platform', 'unknown']), wallet: z.string().nullable(), name: z.string().nullable(), domain: z.string().nullable() })
    .optional()
    .describe('Entries that are no step: who acted (an institution with its name and domain, the operator, the platform key, the holder)'),
  signature: z.string().nullable().optional().describe('Entries that are no step: the transaction that recorded it on chain (null for a decline or a withdrawal, written off chain)'),
  created_at: z.string(),
});
export const restVerifyResponse = z.object({
  status: status.describe('The recorded status; whether it is valid now: valid'),
  ...publicStanding,
  details: z.object({}).catchall(z.unknown()).optional().describe('The verdict details (reason, tier, issuer) once decided'),
  verification_logs: z.array(restVerificationLog),
});
export const restVerifyStatusResponse = z.object({
  status: status.describe('The recorded status; whether it is valid now: valid'),
  ...publicStanding,
  last_checked: z.string().describe('ISO time of the latest verification activity'),
  verification_logs: z.array(restVerificationLog),
});

export const restHashParams = z.object({ sha256: sha256Hex });
/** The public verdict of GET /api/v1/verify/hash/{sha256} (same object as the web app's verification page). */
export const restVerdict = z
  .object({
    valid: z
      .boolean()
      .describe(
        "True only when the chain record exists, is verified, not revoked and not expired, its confirming institution (issuer_confirmed tier) is approved, and the claims shown were checked. Valid is not the institution's word on its own: at the platform_verified tier only Attesta checked it, and at the issuer_confirmed tier it is a confirmation by a proven institution only when issuer.domain_proven is true (otherwise the record was signed with a registered key whose domain nobody proved; the note says so)",
      ),
    note: z
      .string()
      .nullable()
      .describe(
        'In words: for a record the chain calls verified, why it is not valid (a suspended institution; a confirmation by another institution than the certificate names), what its confirmation does not cover, or whose check it is ("Checked by Attesta only, not confirmed by <institution>." at the platform_verified tier, followed by what that check flagged); "Expired on <date>." for an expired record; for a pending record whose content could not be read, that it waits for its institution\'s confirmation; null otherwise',
      ),
    flags: z
      .array(z.string())
      .describe(
        "What the platform's document check flagged in the file (signs of editing such as an editing tool or a modification date long after creation, hidden text…), one sentence each, where that check is what the verdict rests on (verified, platform_verified tier); empty otherwise. Flags do not make it invalid on their own (the text names the claims): a verifier should weigh them, and ask the institution",
      ),
    original_sha256: z
      .string()
      .nullable()
      .describe(
        "Set to the hash asked when it is no record's own but the SHA-256 of the image a holder uploaded, which Attesta converted to the PDF recorded on chain (sha256): the verdict is that PDF's, and the link between the two is Attesta's record of the upload, not the chain's. Only for a verified certificate; null otherwise",
      ),
    status: z.enum(['verified', 'rejected', 'revoked', 'superseded', 'expired', 'pending', 'not_found']),
    integrity: z.enum(['match', 'mismatch', 'not_checked']).describe('match: the given file hashes to the record; mismatch: it does not; not_checked: no file was given (or the hash asked is an original upload\'s: see original_sha256)'),
    sha256: z.string().nullable(),
    record_address: z.string().nullable(),
    tier: z
      .enum(TRUST_TIERS)
      .describe(
        "platform_verified = checked by Attesta only (file integrity; the document's text names the claimed title, institution, program and holder), not confirmed by the institution; issuer_confirmed = the institution's own key signed the record; see issuer.status and issuer.domain_proven; none = no positive verdict",
      ),
    reason_code: z.number().describe('0 when none; see reason and reason_text'),
    reason: z.string().nullable().describe('The reason code by name (content_mismatch, revoked_fraud, revoked_superseded…); null when none'),
    reason_text: z.string().nullable().describe('The reason in plain words, as the web app says it (rejected, revoked, superseded; "expired on <date>"); null when none'),
    issuer: z.object({}).catchall(z.unknown()).nullable().describe('The institution whose own key issued or confirmed the record (issuer_confirmed tier only)'),
    confirmation_requested_from: z
      .object({}).catchall(z.unknown()).nullable()
      .describe('The institution the holder asked to confirm the record, while it has not: not a confirmation'),
    holder_wallet: z.string().nullable(),
    verifier: z.string().nullable(),
    nft_mint: z.string().nullable(),
    anchored_at: z.string().nullable(),
    verified_at: z.string().nullable(),
    revoked_at: z.string().nullable(),
    expires_at: z.string().nullable(),
    transactions: z
      .array(z.object({ kind: z.string(), signature: z.string(), slot: z.number().nullable(), created_at: z.string() }))
      .describe("The transactions Attesta sent for the record's certificate (public on chain), whatever its status"),
    certificate: z.object({}).catchall(z.unknown()).nullable(),
    chain: z.object({ mode: z.enum(['embedded', 'rpc']), program_id: z.string() }),
    checked_at: z.string(),
  })
  .catchall(z.unknown());

// ── NFT minting ─────────────────────────────────────────────────────────────────────────────────
export const restMintRequest = z.object({
  signed_transaction: z
    .string({ error: 'signed_transaction must be a base64 string' })
    .trim()
    .min(1, { error: 'signed_transaction must not be empty' })
    .max(2048, { error: 'signed_transaction is too long' })
    .optional()
    .describe('Step 2 only: the transaction of step 1, signed by the holder wallet, base64'),
});
export const restMintPrepareResponse = z.object({
  transaction: z.string().describe('base64 legacy transaction, already signed by the platform (fee payer) and the new mint; the holder signs next'),
  mint_address: z.string(),
  expires_at: z.string().describe('ISO time after which step 2 refuses it; call step 1 again'),
});
export const restMintResultResponse = z.object({
  mint_address: z.string(),
  transaction_signature: z.string().optional(),
  arweave_url: z.string().optional(),
});

// ── API keys (tRPC, profile page) ───────────────────────────────────────────────────────────────
export const API_KEY_MAX_ACTIVE = 20;
export const apiKeyCreateInput = z.object({ name: requiredText('A name is required', 60) });
export const apiKeyIdInput = z.object({ id: z.string().trim().min(1).max(64) });
export interface ApiKeyDto {
  id: string;
  name: string;
  /** The public part shown in lists: atst_<prefix>_… */
  prefix: string;
  created_at: string;
  last_used_at: string | null;
}

// ── Institutions (issue 14) ─────────────────────────────────────────────────────────────────────
// With the API key of an institution's wallet. What the institution's wallet signs is two steps: the
// endpoint answers 202 with the prepared transaction; the signed transaction goes to
// POST /api/v1/issuer/transactions.
export const restIssueCertificateFields = issueCertificateFields.omit({ certificate_file: true }).extend({
  file: uploadedFile('A certificate file (PDF or image) is required').meta({ type: 'string', format: 'binary', description: 'PDF, JPG, PNG or WEBP, at most 10 MB; images are converted to PDF before hashing' }),
});
export const restIssuedQuery = z.object({
  status: z.enum(['all', ...ISSUED_STATUSES]).optional().describe('Filter by status'),
  search: z.string().trim().max(200).optional().describe('Matches title, program or holder wallet'),
});
export const restRequestsQuery = z.object({ status: z.enum(['all', ...REQUEST_STATUSES]).optional().describe('Filter by request status (default open)') });
export const restRequestIdParams = z.object({ id: requestId });
export const restDeclineRequest = declineInput.omit({ requestId: true });
export const restRevokeRequest = revokeByIssuerInput.omit({ id: true });
export const restSubmitRequest = z.object({
  signed_transaction: z
    .string({ error: 'signed_transaction must be a base64 string' })
    .trim()
    .min(1, { error: 'signed_transaction must not be empty' })
    .max(2048, { error: 'signed_transaction is too long' })
    .describe('A transaction prepared by an institution endpoint, signed by the institution wallet, base64'),
});
export const restPreparedResponse = z.object({
  action_id: z.string(),
  transaction: z.string().describe('base64 legacy transaction, already signed by the platform (fee payer); the institution wallet signs next'),
  expires_at: z.string().describe('ISO time after which it is refused; prepare it again'),
});
export const restSubmittedResponse = z.object({
  action_id: z.string(),
  kind: z.enum(['register_issuer', 'issue_certificate', 'confirm_certificate', 'revoke_certificate']),
  signature: z.string().describe('The transaction signature'),
  result: z.object({}).catchall(z.unknown()).nullable().describe('What it did (certificate_id, request_id, …); null when it was already finished'),
});
export const restIssuedListResponse = z.object({
  certificates: z.array(z.object({ id: z.string(), title: z.string(), program_name: z.string(), issue_date: z.string(), holder_wallet: z.string(), verification_status: z.string(), verification_url: z.string(), sha256: z.string() })),
  counts: z.object({ total: z.number(), verified: z.number(), revoked: z.number(), superseded: z.number(), open_requests: z.number() }),
});
export const restRequestsResponse = z.object({
  requests: z.array(
    z.object({
      id: z.string(),
      certificate_id: z.string(),
      status: z.enum(REQUEST_STATUSES),
      claims: z.record(z.string(), z.string()).describe('What the holder claimed when asking, as the institution is shown it: title, institution_name, program_name, issue_date'),
      claimed_institution: z.string().describe('The institution the claims name: only it can confirm the certificate'),
      names_your_institution: z.boolean().describe('The claims name your institution; when false (a request from before that rule) confirming is refused'),
      details_changed: z.boolean().describe('The holder changed the details since asking: you can confirm only what you were shown (confirming is refused)'),
      withdrawn_reason: z.string().nullable().describe('Why the request was withdrawn, when it was'),
      holder_name: z.string(),
      holder_wallet: z.string(),
      sha256: z.string(),
      platform_status: z.string().describe("The platform's own check of the claims: verified, rejected or pending"),
      decline_reason: z.string().nullable(),
      file_url: z.string().nullable().describe('The file (PDF), while the request is open: GET it with the same Authorization header'),
      created_at: z.string(),
    }),
  ),
});
export const restDeclineResponse = z.object({ request_id: z.string(), status: z.literal('declined') });
