import type { Config } from '../config';
import { blobStoreConfigFromEnv, createBlobStore, type BlobStore } from './storage/index.js';

export type { BlobStore };

/** The blob store from configuration: UploadThing when UPLOADTHING_TOKEN is set, else <dataDir>/uploads. */
export function openBlobStore(config: Config): BlobStore & { kind: 'uploadthing' | 'local' } {
  const publicBaseUrl = config.publicOrigin ?? `http://localhost:${config.port}`;
  return createBlobStore(blobStoreConfigFromEnv(config.env as NodeJS.ProcessEnv, { dataDir: config.dataDir, publicBaseUrl }));
}
