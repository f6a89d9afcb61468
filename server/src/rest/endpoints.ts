// The REST API v1 table: one entry per endpoint drives both the fastify route and its OpenAPI
// operation, so the served document is the API as implemented. Handlers call the same tRPC
// procedures as the web app (createCaller) or the same services (sign-in), never a copy.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { formDataToObject } from '../../../shared/schemas/common';
import {
  restCertificateIdParams,
  restCertificateListResponse,
  restCertificateResponse,
  restConnectRequest,
  restConnectResponse,
  restCreateCertificateFields,
  restCreateCertificateResponse,
  restDisconnectResponse,
  restProfile,
  restUpdateProfileRequest,
  restHashParams,
  restIdParams,
  restListCertificatesQuery,
  restMintPrepareResponse,
  restMintRequest,
  restMintResultResponse,
  restNonceRequest,
  restNonceResponse,
  restVerdict,
  restVerifyResponse,
  restVerifyStatusResponse,
  restDeclineRequest,
  restDeclineResponse,
  restIssueCertificateFields,
  restIssuedListResponse,
  restIssuedQuery,
  restPreparedResponse,
  restRequestIdParams,
  restRequestsQuery,
  restRequestsResponse,
  restRevokeRequest,
  restSubmitRequest,
  restSubmittedResponse,
} from '../../../shared/schemas/rest';
import type { CertificateDto, CertificateEventDto, VerificationLogDto } from '../../../shared/schemas/dto';
import type { Context } from '../context';
import { appRouter } from '../router';
import type { Services } from '../services';
import { DomainError } from '../lib/errors';
import { hasNul, NUL_MESSAGE } from '../lib/nul';
import { verificationUrl } from '../services/certificates/dto';
import { createCertificate } from '../services/certificates/intake';
import { issueNonce, limitNonceByWallet, limitSignInByClient, signIn, signInChainId, signInDomainFor, signInExpectation, signOut } from '../services/auth';
import type { UserRow } from '../db/schema';
import { RestError, badRequest, toRestError } from './errors';

export type Tag = 'Authentication' | 'Profile' | 'Certificates' | 'Verification' | 'NFT Minting' | 'Institutions';

export interface RestAuth {
  user: UserRow;
  kind: 'api_key' | 'connect_token';
  /** api_key: the key id; connect_token: the session's token hash. */
  id: string;
}

export interface HandlerArgs {
  req: FastifyRequest;
  reply: FastifyReply;
  services: Services;
  /** Only on authenticated endpoints. */
  auth: RestAuth;
  ctx: Context;
  caller: ReturnType<typeof appRouter.createCaller>;
}

export interface Endpoint {
  method: 'GET' | 'POST';
  /** OpenAPI form: /api/v1/certificates/{id}. */
  path: string;
  operationId: string;
  tag: Tag;
  summary: string;
  description: string;
  auth: boolean;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: { contentType: 'application/json' | 'multipart/form-data'; schema: z.ZodType; required: boolean };
  /** Success responses by status. */
  responses: Record<number, { description: string; schema: z.ZodType }>;
  /** Documented error statuses (500 is implied). */
  errors: number[];
  /** Served by its own route (./verify-hash.ts, the hot path): documented here, not registered again. */
  external?: boolean;
  handler?: (a: HandlerArgs) => Promise<{ status: number; body: unknown; headers?: Record<string, string> }>;
}

const restProfileOf = (u: { id: string; wallet_address: string; full_name: string; email: string | null }) => ({ id: u.id, wallet_address: u.wallet_address, full_name: u.full_name, email: u.email });

const parse = <T extends z.ZodType>(schema: T, value: unknown): z.output<T> => {
  const r = schema.safeParse(value ?? {});
  if (!r.success) throw badRequest(r.error);
  return r.data;
};

/** Calls a shared procedure; its TRPCErrors become REST errors (fileField: the upload field). */
async function call<T>(fn: () => Promise<T>, fileField?: string): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw toRestError(e, fileField);
  }
}

const ok = (body: unknown, status = 200, headers?: Record<string, string>) => ({ status, body, headers });

const EVENT_STATUS: Record<CertificateEventDto['kind'], VerificationLogDto['status']> = {
  issued: 'success',
  confirmed: 'success',
  confirmation_requested: 'pending',
  request_withdrawn: 'failed',
  declined: 'failed',
  revoked: 'failed',
  superseded: 'failed',
};

/**
 * The certificate's log as the web app shows it: the steps of every verification run, and what
 * institutions, the operator and the holder did (entries of their own, with actor and signature),
 * oldest first.
 */
const logsOut = (logs: VerificationLogDto[], events: CertificateEventDto[]) =>
  [
    ...logs.map((l) => ({ id: l.id, verification_step: l.verification_step, status: l.status, details: l.details, created_at: l.created_at })),
    ...events.map((e) => ({
      id: e.id,
      verification_step: e.kind,
      status: EVENT_STATUS[e.kind],
      details: {
        message: e.message,
        source: e.source,
        ...(e.claims_confirmed !== undefined ? { claims_confirmed: e.claims_confirmed } : {}),
        ...(e.claims ? { claims: e.claims } : {}),
        ...(e.reason ? { reason: e.reason } : {}),
      },
      actor: e.actor,
      signature: e.signature,
      created_at: e.at,
    })),
  ].sort((a, b) => a.created_at.localeCompare(b.created_at));

function certificateOut(c: CertificateDto): z.infer<typeof restCertificateResponse> {
  return {
    id: c.id,
    title: c.title,
    institution_name: c.institution_name,
    program_name: c.program_name,
    issue_date: c.issue_date,
    verification_status: c.verification_status,
    ...standingOut(c),
    verification_url: c.verification_url,
    sha256: c.sha256,
    ...(c.nft_mint_address ? { nft_mint_address: c.nft_mint_address } : {}),
    ...(c.arweave_url ? { arweave_url: c.arweave_url } : {}),
  };
}

/** What a verifier reads now about a certificate (its public verdict): valid, its tier, and the verdict's note. */
function standingOut(c: CertificateDto) {
  return { valid: c.public_valid, tier: c.tier, note: c.public_note };
}

/** A multipart body as FormData (415 when it is not one, 400 when unreadable). */
async function formOf(req: FastifyRequest, what: string): Promise<FormData> {
  if (!Buffer.isBuffer(req.body)) throw new RestError(415, 'unsupported_media_type', `Send ${what} as multipart/form-data.`);
  try {
    return await new Request('http://rest.local/', { method: 'POST', headers: { 'content-type': String(req.headers['content-type']) }, body: req.body as unknown as BodyInit }).formData();
  } catch {
    throw new RestError(400, 'bad_request', 'The multipart form could not be read.');
  }
}

const INSTITUTION_HELP = 'With the API key of the institution’s wallet (a wallet that is no registered institution is a 403).';
const TWO_STEPS = 'Two steps, because the institution wallet signs it (the platform pays the fees): this answers 202 with the transaction; add the wallet’s signature (change nothing else) and send it to POST /api/v1/issuer/transactions before expires_at.';

const AUTH_HELP = 'Send `Authorization: Bearer <API key or connect token>` (API keys are created on the profile page).';

export const ENDPOINTS: Endpoint[] = [
  {
    method: 'POST',
    path: '/api/v1/auth/nonce',
    operationId: 'authNonce',
    tag: 'Authentication',
    summary: 'Get a sign-in message',
    description:
      'Step 1 of connecting a wallet: returns a single-use Sign-In-With-Solana message (valid 5 minutes) for the wallet to sign. It names this server (its ATTESTA_PUBLIC_ORIGIN), its Solana network and the nonce; a server without ATTESTA_PUBLIC_ORIGIN answers 400 when reached at an address other than its own. No authentication.',
    auth: false,
    body: { contentType: 'application/json', schema: restNonceRequest, required: true },
    responses: { 200: { description: 'The message to sign', schema: restNonceResponse } },
    errors: [400, 429],
    async handler({ req, ctx }) {
      await call(async () => limitSignInByClient(ctx, 'nonce'));
      const input = parse(restNonceRequest, req.body);
      // The message names ATTESTA_PUBLIC_ORIGIN or this server's own address, never the request's Host.
      const { domain, uri } = await call(async () => signInDomainFor(ctx.config, req));
      await call(async () => limitNonceByWallet(ctx, input.wallet_address));
      const r = await call(() => issueNonce(ctx.db, { address: input.wallet_address, domain, uri, chainId: signInChainId(ctx.config) }));
      return ok({ message: r.message, nonce: r.nonce, expires_at: r.expiresAt });
    },
  },
  {
    method: 'POST',
    path: '/api/v1/auth/connect',
    operationId: 'authConnect',
    tag: 'Authentication',
    summary: 'Connect a wallet',
    description:
      'Step 2: send the message from /api/v1/auth/nonce with its base58 ed25519 signature. Returns a bearer token (a connect token, valid 30 days or until disconnect) and the user; the account is created on first connect. No authentication.',
    auth: false,
    body: { contentType: 'application/json', schema: restConnectRequest, required: true },
    responses: { 200: { description: 'Connected', schema: restConnectResponse } },
    errors: [400, 401, 429],
    async handler({ req, ctx }) {
      await call(async () => limitSignInByClient(ctx, 'signIn'));
      const input = parse(restConnectRequest, req.body);
      const r = await call(() => signIn(ctx.db, { address: input.wallet_address, message: input.message, signature: input.signature, expect: signInExpectation(ctx.config, req) }));
      return ok({ token: r.token, expires_at: new Date(r.expiresAt).toISOString(), user: { id: r.user.id, wallet_address: r.user.wallet_address, full_name: r.user.full_name } });
    },
  },
  {
    method: 'POST',
    path: '/api/v1/auth/disconnect',
    operationId: 'authDisconnect',
    tag: 'Authentication',
    summary: 'Disconnect',
    description: 'Revokes the connect token used for this call. API keys are not ended here (revoke them on the profile page): calling it with an API key is a 400.',
    auth: true,
    responses: { 200: { description: 'The token no longer works', schema: restDisconnectResponse } },
    errors: [400, 401, 429],
    async handler({ auth, ctx }) {
      if (auth.kind !== 'connect_token') throw new RestError(400, 'bad_request', 'This call ends a connect token. API keys are revoked on the profile page.');
      await signOut(ctx.db, auth.id);
      return ok({ success: true });
    },
  },
  {
    method: 'GET',
    path: '/api/v1/profile',
    operationId: 'getProfile',
    tag: 'Profile',
    summary: 'Your profile',
    description: 'The signed-in wallet\'s profile. `full_name` is empty until you set it, and adding a certificate needs it: verification looks for it in the document.',
    auth: true,
    responses: { 200: { description: 'Your profile', schema: restProfile } },
    errors: [401, 429],
    async handler({ caller }) {
      return ok(restProfileOf(await call(() => caller.profile.get())));
    },
  },
  {
    method: 'POST',
    path: '/api/v1/profile',
    operationId: 'updateProfile',
    tag: 'Profile',
    summary: 'Set your name and e-mail',
    description: 'Sets `full_name` (required, at most 120 characters; write it as your certificates do: verification looks for it in each certificate you add) and `email` (optional; empty or null removes it). The name appears beside your shared certificates. Certificates verified before keep the name their check found.',
    auth: true,
    body: { contentType: 'application/json', schema: restUpdateProfileRequest, required: true },
    responses: { 200: { description: 'The profile as saved', schema: restProfile } },
    errors: [400, 401, 429],
    async handler({ req, caller }) {
      const input = parse(restUpdateProfileRequest, req.body);
      return ok(restProfileOf(await call(() => caller.profile.update({ full_name: input.full_name, email: input.email }))));
    },
  },
  {
    method: 'GET',
    path: '/api/v1/certificates',
    operationId: 'listCertificates',
    tag: 'Certificates',
    summary: 'List your certificates',
    description: 'Your certificates, newest first (at most 200).',
    auth: true,
    query: restListCertificatesQuery,
    responses: { 200: { description: 'Your certificates', schema: restCertificateListResponse } },
    errors: [400, 401, 429],
    async handler({ req, caller }) {
      const q = parse(restListCertificatesQuery, req.query);
      const rows = await call(() => caller.certificate.list({ status: q.status, search: q.search }));
      return ok({
        // Each with what a verifier reads now and whose check it is (valid, tier, note), as GET /api/v1/certificates/{id}.
        certificates: rows.map((c) => ({ id: c.id, title: c.title, institution_name: c.institution_name, verification_status: c.verification_status, issue_date: c.issue_date, ...standingOut(c) })),
      });
    },
  },
  {
    method: 'POST',
    path: '/api/v1/certificates',
    operationId: 'createCertificate',
    tag: 'Certificates',
    summary: 'Add a certificate',
    description:
      'multipart/form-data with the certificate details and the file (PDF, JPG, PNG or WEBP, max 10 MB; images become PDF). The document must name the title, institution, program and you as your profile\'s full name gives it: a wallet whose profile has no full name yet gets 412 (set it with POST /api/v1/profile or on the Profile page of the web app). The file\'s SHA-256 is anchored on chain for your wallet and verification starts at once. A file already added (by you or another wallet) is a 409. Adding is limited per wallet and per client address (a burst, then a steady pace) and per wallet per 24 hours (the same limits as the web app): over them the answer is 429 with Retry-After and a message saying when you can add more.',
    auth: true,
    body: { contentType: 'multipart/form-data', schema: restCreateCertificateFields, required: true },
    responses: { 201: { description: 'Created (pending verification)', schema: restCreateCertificateResponse } },
    errors: [400, 401, 409, 412, 413, 415, 429],
    async handler({ req, auth, ctx }) {
      if (!Buffer.isBuffer(req.body)) throw new RestError(415, 'unsupported_media_type', 'Send the certificate as multipart/form-data.');
      let form: FormData;
      try {
        form = await new Request('http://rest.local/', { method: 'POST', headers: { 'content-type': String(req.headers['content-type']) }, body: req.body as unknown as BodyInit }).formData();
      } catch {
        throw new RestError(400, 'bad_request', 'The multipart form could not be read.');
      }
      const { file, ...details } = parse(restCreateCertificateFields, formDataToObject(form));
      if (hasNul({ ...details, file })) throw toRestError(new DomainError('BAD_REQUEST', NUL_MESSAGE), 'file');
      // The same intake as the web app's certificate.create (limits, checks, anchor, job).
      const c = await call(() => createCertificate(ctx, auth.user, { ...details, certificate_file: file }), 'file');
      return ok({ id: c.id, status: c.verification_status, verification_url: verificationUrl(ctx.origin, c.user_id, c.id) }, 201, {
        location: `/api/v1/certificates/${encodeURIComponent(c.id)}`,
      });
    },
  },
  {
    method: 'GET',
    path: '/api/v1/certificates/{id}',
    operationId: 'getCertificate',
    tag: 'Certificates',
    summary: 'Get a certificate',
    description: 'One of your certificates, with whether a verifier reads it as valid now (valid, tier, note: its public verdict; a certificate verified on record is not valid once expired, or when its institution is suspended). Another user\'s certificate is a 404, the same as a missing one.',
    auth: true,
    params: restIdParams,
    responses: { 200: { description: 'The certificate', schema: restCertificateResponse } },
    errors: [400, 401, 404, 429],
    async handler({ req, caller }) {
      const { id } = parse(restIdParams, req.params);
      return ok(certificateOut(await call(() => caller.certificate.byId({ id }))));
    },
  },
  {
    method: 'POST',
    path: '/api/v1/verify/{certificateId}',
    operationId: 'startVerification',
    tag: 'Verification',
    summary: 'Start or retry verification',
    description:
      'Pending: (re)starts verification. Rejected: verifies again from the start. Verified: nothing to do. The answer says, as the status endpoint does, whether a verifier reads the certificate as valid now (valid, tier, note). Verification runs in the background; poll /api/v1/verify/status/{certificateId}. Runs started again are paced per wallet (with Check Status, Try Again and corrected details in the web app): over the pace the answer is 429 with Retry-After and a message saying when you can start another. The log is the same as the status endpoint\'s.',
    auth: true,
    params: restCertificateIdParams,
    responses: { 200: { description: 'Current status and log', schema: restVerifyResponse } },
    errors: [400, 401, 404, 429],
    async handler({ req, caller }) {
      const { certificateId: id } = parse(restCertificateIdParams, req.params);
      const before = await call(() => caller.certificate.byId({ id }));
      if (before.verification_status === 'pending') await call(() => caller.certificate.startVerification({ id }));
      else if (before.verification_status === 'rejected') await call(() => caller.certificate.retryVerification({ id }));
      const [c, logs, events] = await Promise.all([call(() => caller.certificate.byId({ id })), call(() => caller.certificate.logs({ id })), call(() => caller.certificate.events({ id }))]);
      return ok({ status: c.verification_status, ...standingOut(c), ...(c.verification_details ? { details: c.verification_details } : {}), verification_logs: logsOut(logs, events) });
    },
  },
  {
    method: 'GET',
    path: '/api/v1/verify/status/{certificateId}',
    operationId: 'verificationStatus',
    tag: 'Verification',
    summary: 'Verification status',
    description:
      'The status of one of your certificates, whether a verifier reads it as valid now (valid, tier, note: its public verdict), and its log, oldest first: the steps of every verification run, and what institutions, the operator and you did as entries of their own (an issue, a confirmation request and its withdrawal, a confirmation, a decline, a revocation, a supersede), each with actor and signature. A confirmation says in details.claims_confirmed whether it covers the details shown.',
    auth: true,
    params: restCertificateIdParams,
    responses: { 200: { description: 'Status and log', schema: restVerifyStatusResponse } },
    errors: [400, 401, 404, 429],
    async handler({ req, caller }) {
      const { certificateId: id } = parse(restCertificateIdParams, req.params);
      const [c, logs, events] = await Promise.all([call(() => caller.certificate.byId({ id })), call(() => caller.certificate.logs({ id })), call(() => caller.certificate.events({ id }))]);
      const times = [c.updated_at, ...logs.map((l) => l.created_at), ...events.map((e) => e.at)].sort();
      return ok({ status: c.verification_status, ...standingOut(c), last_checked: times[times.length - 1], verification_logs: logsOut(logs, events) });
    },
  },
  {
    method: 'GET',
    path: '/api/v1/verify/hash/{sha256}',
    operationId: 'verifyByHash',
    tag: 'Verification',
    summary: 'Verify a file hash (public)',
    description:
      "Anyone: the verdict for a SHA-256 read from the on-chain record (status, tier, issuer, holder wallet, NFT, transactions), with what the platform's check flagged where the verdict rests on it (flags) and why it is not valid in words (note, reason_text). The SHA-256 of the image a holder uploaded (before Attesta converted it to the recorded PDF) answers with that certificate's verdict, once it is verified (original_sha256 says so). No authentication and no rate limit per key.",
    auth: false,
    external: true,
    params: restHashParams,
    responses: { 200: { description: 'The verdict (status not_found when nothing is anchored)', schema: restVerdict } },
    errors: [400],
  },
  {
    method: 'POST',
    path: '/api/v1/mint/{certificateId}',
    operationId: 'mintCertificate',
    tag: 'NFT Minting',
    summary: 'Mint a verified certificate as a soulbound NFT',
    description: [
      "Two steps, because the holder's wallet must sign the mint (the platform pays fees and rent).",
      'Step 1: call without a body (or with {}). Answer 202: transaction (base64, already signed by the platform and the new mint), mint_address, expires_at.',
      'Step 2: add the holder wallet\'s signature to that transaction (change nothing else) and call again with {"signed_transaction": "<base64>"} before expires_at. Answer 200: mint_address, transaction_signature, arweave_url (the permanent copy).',
      'Only verified certificates that are not minted yet (otherwise 400 or 409). An expired or altered transaction is refused: start again at step 1.',
    ].join(' '),
    auth: true,
    params: restCertificateIdParams,
    body: { contentType: 'application/json', schema: restMintRequest, required: false },
    responses: {
      200: { description: 'Step 2: minted', schema: restMintResultResponse },
      202: { description: 'Step 1: the transaction for the holder wallet to sign', schema: restMintPrepareResponse },
    },
    errors: [400, 401, 403, 404, 409, 412, 429],
    async handler({ req, caller }) {
      const { certificateId: id } = parse(restCertificateIdParams, req.params);
      const body = parse(restMintRequest, req.body);
      if (!body.signed_transaction) {
        const p = await call(() => caller.mint.prepare({ id }));
        return ok({ transaction: p.transaction, mint_address: p.mint_address, expires_at: p.expires_at }, 202);
      }
      const signed = body.signed_transaction;
      const r = await call(() => caller.mint.submit({ id, signedTransaction: signed }));
      return ok({
        mint_address: r.mint_address,
        ...(r.transaction_signature ? { transaction_signature: r.transaction_signature } : {}),
        ...(r.arweave_url ? { arweave_url: r.arweave_url } : {}),
      });
    },
  },
  {
    method: 'GET',
    path: '/api/v1/issuer/certificates',
    operationId: 'listIssuedCertificates',
    tag: 'Institutions',
    summary: 'List what the institution issued or confirmed',
    description: `The certificates the institution issued or confirmed, newest first (at most 200), with counts by status and of open confirmation requests. ${INSTITUTION_HELP}`,
    auth: true,
    query: restIssuedQuery,
    responses: { 200: { description: 'The institution’s certificates', schema: restIssuedListResponse } },
    errors: [400, 401, 403, 429],
    async handler({ req, caller }) {
      const q = parse(restIssuedQuery, req.query);
      const r = await call(() => caller.issuer.certificates({ status: q.status, search: q.search }));
      return ok({
        certificates: r.certificates.map((c) => ({ id: c.id, title: c.title, program_name: c.program_name, issue_date: c.issue_date, holder_wallet: c.holder_wallet, verification_status: c.verification_status, verification_url: c.verification_url, sha256: c.sha256 })),
        counts: r.counts,
      });
    },
  },
  {
    method: 'POST',
    path: '/api/v1/issuer/certificates',
    operationId: 'issueCertificate',
    tag: 'Institutions',
    summary: 'Issue a certificate to a holder',
    description: `multipart/form-data: title, program_name, issue_date, holder_wallet, optional expires_on (YYYY-MM-DD) and the file (the same checks as an upload). Needs an approved institution with a proven domain. The holder sees it verified and confirmed by the institution once the transaction lands; an earlier unconfirmed claim of the same file by another wallet is superseded. A file the holder already added is refused (409): the holder asks the institution to confirm it instead. ${TWO_STEPS} ${INSTITUTION_HELP}`,
    auth: true,
    body: { contentType: 'multipart/form-data', schema: restIssueCertificateFields, required: true },
    responses: { 202: { description: 'The transaction for the institution wallet to sign', schema: restPreparedResponse } },
    errors: [400, 401, 403, 409, 412, 413, 415, 429],
    async handler({ req, caller }) {
      const form = await formOf(req, 'the certificate');
      const { file, ...details } = parse(restIssueCertificateFields, formDataToObject(form));
      if (hasNul({ ...details, file })) throw toRestError(new DomainError('BAD_REQUEST', NUL_MESSAGE), 'file');
      // As tRPC issuer.issue: an institution and its budget, then the same service.
      const fd = new FormData();
      for (const [k, v] of Object.entries(details)) if (v !== undefined) fd.set(k, v);
      fd.set('certificate_file', file);
      const p = await call(() => caller.issuer.issue(fd), 'file');
      return ok(p, 202);
    },
  },
  {
    method: 'GET',
    path: '/api/v1/issuer/requests',
    operationId: 'listConfirmationRequests',
    tag: 'Institutions',
    summary: 'The confirmation requests addressed to the institution',
    description: `Holders’ requests to confirm their certificates (open ones by default), with the claims as the holder asked (claimed_institution: the institution they name; only it can confirm), the platform’s own check and a link to the file while open. A holder who changes the details withdraws the request (withdrawn_reason says so). ${INSTITUTION_HELP}`,
    auth: true,
    query: restRequestsQuery,
    responses: { 200: { description: 'The queue', schema: restRequestsResponse } },
    errors: [400, 401, 403, 429],
    async handler({ req, caller }) {
      const q = parse(restRequestsQuery, req.query);
      const rows = await call(() => caller.issuer.requests({ status: q.status }));
      return ok({ requests: rows.map(({ decided_at: _d, decision_signature: _s, verification_url: _v, ...r }) => r) });
    },
  },
  {
    method: 'POST',
    path: '/api/v1/issuer/requests/{id}/confirm',
    operationId: 'confirmRequest',
    tag: 'Institutions',
    summary: 'Confirm a holder’s certificate',
    description: `Confirms on chain (confirm_certificate) the certificate of an open request addressed to the institution: it becomes verified and confirmed by the institution, for the details the request shows. A certificate whose details name another institution, or changed since the holder asked, is a 409 (decline it instead). Another institution’s request is a 404. ${TWO_STEPS} ${INSTITUTION_HELP}`,
    auth: true,
    params: restRequestIdParams,
    responses: { 202: { description: 'The transaction for the institution wallet to sign', schema: restPreparedResponse } },
    errors: [400, 401, 403, 404, 409, 412, 429],
    async handler({ req, caller }) {
      const { id } = parse(restRequestIdParams, req.params);
      return ok(await call(() => caller.issuer.confirm({ requestId: id })), 202);
    },
  },
  {
    method: 'POST',
    path: '/api/v1/issuer/requests/{id}/decline',
    operationId: 'declineRequest',
    tag: 'Institutions',
    summary: 'Decline a confirmation request',
    description: `Declines an open request with a reason the holder reads (at most 500 characters); nothing is written on chain. ${INSTITUTION_HELP}`,
    auth: true,
    params: restRequestIdParams,
    body: { contentType: 'application/json', schema: restDeclineRequest, required: true },
    responses: { 200: { description: 'Declined', schema: restDeclineResponse } },
    errors: [400, 401, 403, 404, 409, 429],
    async handler({ req, caller }) {
      const { id } = parse(restRequestIdParams, req.params);
      const body = parse(restDeclineRequest, req.body);
      return ok(await call(() => caller.issuer.decline({ requestId: id, reason: body.reason })));
    },
  },
  {
    method: 'POST',
    path: '/api/v1/issuer/certificates/{id}/revoke',
    operationId: 'revokeIssuedCertificate',
    tag: 'Institutions',
    summary: 'Revoke a certificate',
    description: `Revokes (revoke_certificate) a certificate the institution issued, confirmed or was asked to confirm, with a reason (revoked_by_issuer, revoked_superseded, revoked_holder_request) and an optional note kept off chain. The record stays: every verification shows revoked, when, by whom and why. Anyone else’s certificate is a 404. ${TWO_STEPS} ${INSTITUTION_HELP}`,
    auth: true,
    params: restIdParams,
    body: { contentType: 'application/json', schema: restRevokeRequest, required: true },
    responses: { 202: { description: 'The transaction for the institution wallet to sign', schema: restPreparedResponse } },
    errors: [400, 401, 403, 404, 409, 429],
    async handler({ req, caller }) {
      const { id } = parse(restIdParams, req.params);
      const body = parse(restRevokeRequest, req.body);
      return ok(await call(() => caller.issuer.revoke({ id, reason: body.reason, note: body.note })), 202);
    },
  },
  {
    method: 'POST',
    path: '/api/v1/issuer/transactions',
    operationId: 'submitInstitutionTransaction',
    tag: 'Institutions',
    summary: 'Send a signed institution transaction',
    description: `Step 2 of issue, confirm and revoke: the transaction an institution endpoint prepared, signed by the institution wallet (nothing else changed), base64. It is checked (the very transaction prepared for this wallet, every signature valid), sent and recorded. An altered, foreign or expired transaction is a 400: prepare it again. ${INSTITUTION_HELP}`,
    auth: true,
    body: { contentType: 'application/json', schema: restSubmitRequest, required: true },
    responses: { 200: { description: 'Sent and recorded', schema: restSubmittedResponse } },
    errors: [400, 401, 403, 409, 429],
    async handler({ req, caller }) {
      const body = parse(restSubmitRequest, req.body);
      return ok(await call(() => caller.issuer.submit({ signedTransaction: body.signed_transaction })));
    },
  },
];

export { AUTH_HELP };
