/**
 * Storage: where uploaded files live, behind one `BlobStore` interface
 * (`put(key, bytes, contentType) → {key, url}`, `get(key) → bytes | null`, `delete`, `exists`).
 *
 * - `createLocalBlobStore({dir, publicBaseUrl, routePrefix?})`: the embedded default; files under
 *   `dir`, atomic writes, urls `${publicBaseUrl}/files/<key>` (the server serves that route).
 * - `createUploadThingBlobStore({token, apiUrl?, ingestUrl?, fileUrlBase?, fetch?})`: production, via
 *   uploadthing's UTApi; tested offline against server/test/fakes/uploadthing-server.ts.
 * - `createBlobStore({dataDir, publicBaseUrl, uploadthingToken?, ...})`: UploadThing when a token is
 *   given, else `${dataDir}/uploads`.
 * Keys are relative slash paths (`certificates/<id>/original.pdf`); `..`, absolute paths, NUL and
 * backslashes throw `InvalidBlobKeyError`. Backend failures throw `BlobStoreError`.
 */
import { join } from 'node:path';
import { createLocalBlobStore } from './local.js';
import { createUploadThingBlobStore } from './uploadthing.js';
import type { BlobStore } from './types.js';

export { createLocalBlobStore, type LocalBlobStoreOptions } from './local.js';
export { createUploadThingBlobStore, customIdFor, type UploadThingBlobStoreOptions } from './uploadthing.js';
export { BlobStoreError, InvalidBlobKeyError, validateKey, keyToUrlPath, MAX_KEY_LENGTH, type BlobStore, type StoredBlob } from './types.js';

export interface BlobStoreConfig {
  dataDir: string;
  /** The server's public origin, e.g. http://localhost:3000. */
  publicBaseUrl: string;
  uploadthingToken?: string;
  uploadthingApiUrl?: string;
  uploadthingIngestUrl?: string;
  uploadthingFileUrlBase?: string;
  fetch?: typeof globalThis.fetch;
}

/** Reads the UPLOADTHING_* variables (token, API/ingest URL overrides) into a BlobStoreConfig. */
export function blobStoreConfigFromEnv(env: NodeJS.ProcessEnv, base: { dataDir: string; publicBaseUrl: string }): BlobStoreConfig {
  return {
    ...base,
    uploadthingToken: env.UPLOADTHING_TOKEN || undefined,
    uploadthingApiUrl: env.UPLOADTHING_API_URL || undefined,
    uploadthingIngestUrl: env.UPLOADTHING_INGEST_URL || undefined,
    uploadthingFileUrlBase: env.UPLOADTHING_FILE_URL_BASE || undefined,
  };
}

export function createBlobStore(config: BlobStoreConfig): BlobStore & { kind: 'uploadthing' | 'local' } {
  if (config.uploadthingToken) {
    return Object.assign(
      createUploadThingBlobStore({
        token: config.uploadthingToken,
        apiUrl: config.uploadthingApiUrl,
        ingestUrl: config.uploadthingIngestUrl,
        fileUrlBase: config.uploadthingFileUrlBase,
        fetch: config.fetch,
      }),
      { kind: 'uploadthing' as const },
    );
  }
  return Object.assign(createLocalBlobStore({ dir: join(config.dataDir, 'uploads'), publicBaseUrl: config.publicBaseUrl }), { kind: 'local' as const });
}
