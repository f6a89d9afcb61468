// The one error the domain (services) throws for a refusal a caller should see. It knows no
// transport: tRPC (trpc.ts) and REST (rest/errors.ts) each translate it at their edge — status,
// envelope and Retry-After. Anything else thrown is an internal error.

export type DomainErrorCode =
  | 'BAD_REQUEST'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'PRECONDITION_FAILED'
  | 'PAYLOAD_TOO_LARGE'
  | 'TOO_MANY_REQUESTS'
  | 'BAD_GATEWAY'
  | 'GATEWAY_TIMEOUT';

export class DomainError extends Error {
  readonly code: DomainErrorCode;
  /** TOO_MANY_REQUESTS: seconds until a retry can succeed (the edges send it as Retry-After). */
  readonly retryAfterSec?: number;
  /**
   * The certificate the refusal is about, when the caller may open it (a duplicate upload: the owner's
   * own certificate of that file). The app's edge (tRPC) sends it as `data.certificateId`; REST keeps
   * its documented `{error:{code,message}}` and leaves it out.
   */
  readonly certificateId?: string;

  constructor(code: DomainErrorCode, message: string, opts: { retryAfterSec?: number; cause?: unknown; certificateId?: string } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'DomainError';
    this.code = code;
    if (opts.retryAfterSec !== undefined) this.retryAfterSec = opts.retryAfterSec;
    if (opts.certificateId !== undefined) this.certificateId = opts.certificateId;
  }
}

/** Throws a DomainError (for `x ?? fail(...)` and one-line guards). */
export function fail(code: DomainErrorCode, message: string, opts?: { retryAfterSec?: number; cause?: unknown; certificateId?: string }): never {
  throw new DomainError(code, message, opts);
}

/** The DomainError behind `e` (itself, or the cause an edge wrapped it in), if any. */
export function domainErrorOf(e: unknown): DomainError | null {
  for (let c: unknown = e, i = 0; c && i < 3; c = (c as { cause?: unknown }).cause, i++) {
    if (c instanceof DomainError) return c;
  }
  return null;
}
