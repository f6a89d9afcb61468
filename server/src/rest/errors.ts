import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import type { FastifyReply } from 'fastify';
import { ZodError } from 'zod';
import type { RestErrorBody, RestErrorCode } from '../../../shared/schemas/rest';
import { domainErrorOf, type DomainError, type DomainErrorCode } from '../lib/errors';
import { FileRejectedError } from '../services/files/inspect';

/** Every REST failure leaves as `{error: {code, message, fields?}}` with the matching HTTP status. */
export class RestError extends Error {
  constructor(
    readonly status: number,
    readonly code: RestErrorCode,
    message: string,
    readonly fields?: Record<string, string>,
    readonly headers?: Record<string, string>,
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'RestError';
  }
}

const CODE_BY_STATUS: Record<number, RestErrorCode> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  412: 'precondition_failed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
};
const codeFor = (status: number): RestErrorCode => CODE_BY_STATUS[status] ?? (status >= 500 ? 'internal_error' : 'bad_request');

/** First message per field (`a.b` for nested paths) — what a form shows next to each field. */
export function zodFields(err: ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of err.issues) {
    const key = issue.path.length ? issue.path.join('.') : '_';
    out[key] ??= issue.message;
  }
  return out;
}

export const badRequest = (err: ZodError) => new RestError(400, 'bad_request', err.issues[0]?.message ?? 'Invalid request', zodFields(err));

const STATUS_OF: Record<DomainErrorCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
  TOO_MANY_REQUESTS: 429,
  BAD_GATEWAY: 502,
  GATEWAY_TIMEOUT: 504,
};

/** A domain refusal at the REST edge: its status, its message, Retry-After when it has one. */
function fromDomain(e: DomainError, fileField?: string): RestError {
  if (e.cause instanceof FileRejectedError) {
    const status = e.cause.code === 'too_large' ? 413 : e.cause.code === 'unsupported_type' ? 415 : 400;
    return new RestError(status, codeFor(status), e.message, fileField ? { [fileField]: e.message } : undefined);
  }
  const status = STATUS_OF[e.code];
  // Internal details never leave the server (they are logged by the caller).
  if (status >= 500) return new RestError(500, 'internal_error', 'Internal server error', undefined, undefined, e);
  // On an upload endpoint the service's only BAD_REQUESTs are about the file (e.g. disguised type).
  if (e.code === 'BAD_REQUEST' && fileField) return new RestError(400, 'bad_request', e.message, { [fileField]: e.message });
  const headers = e.retryAfterSec !== undefined ? { 'retry-after': String(e.retryAfterSec) } : undefined;
  return new RestError(status, codeFor(status), e.message, undefined, headers);
}

/**
 * Maps what the services (DomainError), the tRPC procedures REST calls and fastify throw. `fileField` names the upload field of the
 * endpoint, so a refused file is reported against it (413 when too large, 415 when not a
 * supported type — the same rules and messages as the web app).
 */
export function toRestError(e: unknown, fileField?: string): RestError {
  if (e instanceof RestError) return e;
  if (e instanceof ZodError) return badRequest(e);
  const domain = domainErrorOf(e);
  if (domain) return fromDomain(domain, fileField);
  if (e instanceof TRPCError) {
    if (e.cause instanceof ZodError) return badRequest(e.cause);
    const status = getHTTPStatusCodeFromError(e);
    // Internal details never leave the server (they are logged by the caller).
    if (status >= 500) return new RestError(500, 'internal_error', 'Internal server error', undefined, undefined, e.cause ?? e);
    return new RestError(status, codeFor(status), e.message);
  }
  // fastify's own errors (content-type parsing, body limits) carry statusCode and code.
  const fe = e as { statusCode?: number; code?: string; message?: string };
  if (typeof fe?.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    const status = fe.statusCode;
    const message =
      fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
        ? 'The request is too large (files: max 10 MB).'
        : fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
          ? 'Unsupported Content-Type: send application/json (or multipart/form-data for uploads).'
          : fe.code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH'
            ? 'The Content-Length does not match the body.'
            : (fe.message ?? 'Bad request');
    return new RestError(status, codeFor(status), message);
  }
  return new RestError(500, 'internal_error', 'Internal server error', undefined, undefined, e);
}

export function sendError(reply: FastifyReply, err: RestError) {
  const body: RestErrorBody = { error: { code: err.code, message: err.message, ...(err.fields ? { fields: err.fields } : {}) } };
  if (err.headers) for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
  return reply.code(err.status).type('application/json').send(body);
}
