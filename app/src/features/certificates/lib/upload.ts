// certificate.create is a multipart tRPC mutation. It is posted with XMLHttpRequest rather than the
// tRPC client because only XHR reports real upload progress for a request body.

export interface TrpcErrorShape {
  message: string;
  code?: string;
  httpStatus?: number;
}

export class UploadError extends Error {
  constructor(
    message: string,
    readonly code?: string,
    readonly httpStatus?: number,
    /** The holder's own certificate the refusal is about (a file they already added): to open it. */
    readonly certificateId?: string,
  ) {
    super(message);
  }
}

/** Unwraps tRPC's `{result:{data}}` / `{error}` envelope (with or without a `json` transformer layer). */
export function readTrpcEnvelope<T>(body: unknown, httpStatus: number): T {
  const env = body as { result?: { data?: unknown }; error?: unknown } | null;
  if (env?.result && 'data' in env.result) {
    const data = env.result.data as { json?: unknown } | undefined;
    return (data && typeof data === 'object' && 'json' in data ? data.json : data) as T;
  }
  type ErrorBody = { message?: string; data?: { code?: string; httpStatus?: number; certificateId?: unknown } };
  const raw = (env?.error ?? {}) as ErrorBody & { json?: unknown };
  const err = (raw.json ?? raw) as ErrorBody;
  const certificateId = typeof err.data?.certificateId === 'string' ? err.data.certificateId : undefined;
  throw new UploadError(err.message || `Request failed (${httpStatus})`, err.data?.code, err.data?.httpStatus ?? httpStatus, certificateId);
}

export interface PostFormOptions {
  /** Fraction 0..1 of the request body sent so far. */
  onUploadProgress?: (fraction: number) => void;
  /** Called once the last byte is sent and the server is working on the request. */
  onUploaded?: () => void;
  signal?: AbortSignal;
}

export function postTrpcForm<T>(procedure: string, form: FormData, opts: PostFormOptions = {}): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/trpc/${procedure}`);
    xhr.withCredentials = true;
    xhr.responseType = 'text';
    xhr.setRequestHeader('trpc-accept', 'application/json');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) opts.onUploadProgress?.(e.loaded / e.total);
    };
    xhr.upload.onload = () => opts.onUploaded?.();
    xhr.onerror = () => reject(new UploadError('Network error: the upload did not reach the server'));
    xhr.onabort = () => reject(new UploadError('The upload was cancelled'));
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        reject(new UploadError(`Unexpected response (${xhr.status})`, undefined, xhr.status));
        return;
      }
      try {
        resolve(readTrpcEnvelope<T>(body, xhr.status));
      } catch (e) {
        reject(e);
      }
    };
    opts.signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(form);
  });
}
