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
import type { StorageConfig } from '../../config';
import type { BlobStore } from './types.js';

export { createLocalBlobStore, type LocalBlobStoreOptions } from './local.js';
export { createUploadThingBlobStore, customIdFor, type UploadThingBlobStoreOptions } from './uploadthing.js';
export { BlobStoreError, InvalidBlobKeyError, validateKey, keyToUrlPath, MAX_KEY_LENGTH, type BlobStore, type StoredBlob } from './types.js';

/** config.storage (UPLOADTHING_* read by config.ts), plus a fetch for tests. */
export type BlobStoreConfig = StorageConfig & { fetch?: typeof globalThis.fetch };

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
