/** Where uploaded files live (certificates, converted PDFs, profile photos). */
export interface BlobStore {
  put(key: string, bytes: Uint8Array, contentType: string): Promise<{ key: string; url: string }>;
  /** The bytes, or null when there is no such key. */
  get(key: string): Promise<Uint8Array | null>;
  /** Removing a missing key is not an error. */
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  /** Keys under a folder prefix with their write time, where the backend can list (the local store). */
  list?(prefix: string): Promise<StoredBlob[]>;
  /** Deletes temporary files of writes that were killed mid-way, older than `before` (ms since epoch). */
  removeStaleTemp?(before: number): Promise<number>;
}

export interface StoredBlob {
  key: string;
  /** Last write, ms since epoch. */
  modifiedAt: number;
}

/** A key the stores refuse (path traversal, absolute, NUL, backslash, empty, too long). */
export class InvalidBlobKeyError extends Error {
  constructor(key: string, reason: string) {
    super(`Invalid storage key ${JSON.stringify(key.slice(0, 80))}: ${reason}.`);
    this.name = 'InvalidBlobKeyError';
  }
}

/** The storage backend failed (network, quota, remote error); message says what to check. */
export class BlobStoreError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'BlobStoreError';
  }
}

export const MAX_KEY_LENGTH = 512;

/**
 * Keys are relative, slash-separated paths such as `certificates/<id>/original.pdf`. Anything that
 * could escape the store's directory or mean different things on different systems is refused.
 */
export function validateKey(key: string): string {
  if (typeof key !== 'string' || key.length === 0) throw new InvalidBlobKeyError(String(key), 'it is empty');
  if (key.length > MAX_KEY_LENGTH) throw new InvalidBlobKeyError(key, `it is longer than ${MAX_KEY_LENGTH} characters`);
  if (key.includes('\0')) throw new InvalidBlobKeyError(key, 'it contains a NUL byte');
  if (key.includes('\\')) throw new InvalidBlobKeyError(key, 'it contains a backslash');
  if (key.startsWith('/') || /^[a-zA-Z]:/.test(key)) throw new InvalidBlobKeyError(key, 'it is an absolute path');
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f]/.test(key)) throw new InvalidBlobKeyError(key, 'it contains control characters');
  for (const part of key.split('/')) {
    if (part === '' ) throw new InvalidBlobKeyError(key, 'it has an empty path segment');
    if (part === '.' || part === '..') throw new InvalidBlobKeyError(key, 'it contains "." or ".." segments');
    if (part.startsWith('.tmp-')) throw new InvalidBlobKeyError(key, 'segments may not start with ".tmp-"');
  }
  return key;
}

/** Encodes each segment for a URL path, keeping the slashes. */
export function keyToUrlPath(key: string): string {
  return key.split('/').map(encodeURIComponent).join('/');
}
