import { createHash } from 'node:crypto';
import type { UTApi } from 'uploadthing/server';
import { BlobStoreError, validateKey, type BlobStore } from './types.js';

export interface UploadThingBlobStoreOptions {
  /** UPLOADTHING_TOKEN: base64 JSON `{apiKey, appId, regions, ingestHost?}`. */
  token: string;
  /** Override the REST API (default https://api.uploadthing.com); tests point it at the fake. */
  apiUrl?: string;
  /** Override the ingest server (default from the token's region). */
  ingestUrl?: string;
  /** Where files are served; default `https://<appId>.ufs.sh` like the SDK. Urls are `${fileUrlBase}/f/<id>`. */
  fileUrlBase?: string;
  fetch?: typeof globalThis.fetch;
  logLevel?: 'All' | 'Fatal' | 'Error' | 'Warning' | 'Info' | 'Debug' | 'Trace' | 'None';
}

/**
 * UploadThing assigns its own file keys, so each of our keys is stored under a customId derived
 * from it (sha256 hex: URL-safe, ≤ 128 chars, stable). No mapping table is needed, and any server
 * behind a load balancer finds the same file.
 */
export function customIdFor(key: string): string {
  return createHash('sha256').update(validateKey(key)).digest('hex');
}

function appIdFromToken(token: string): string {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64').toString('utf8')) as { appId?: unknown; apiKey?: unknown };
    if (typeof parsed.appId === 'string' && typeof parsed.apiKey === 'string') return parsed.appId;
  } catch {
    // fall through
  }
  throw new BlobStoreError('UPLOADTHING_TOKEN is not a valid UploadThing token (expected base64 JSON with apiKey and appId). Copy it again from the UploadThing dashboard.');
}

/**
 * Uploads through UploadThing's server SDK (UTApi); reads back through the public file URL. The SDK
 * (with Effect, ~0.6 s to load) is imported when this store is made, not by every server: an
 * installation on the embedded defaults never loads it. A token that is not one fails here at once.
 */
export function createUploadThingBlobStore(opts: UploadThingBlobStoreOptions): BlobStore & { utapi: () => Promise<UTApi> } {
  const appId = appIdFromToken(opts.token);
  const doFetch = opts.fetch ?? globalThis.fetch;
  const sdk = import('uploadthing/server');
  const api = sdk.then(
    ({ UTApi }) =>
      new UTApi({
        token: opts.token,
        ...(opts.apiUrl ? { apiUrl: opts.apiUrl } : {}),
        ...(opts.ingestUrl ? { ingestUrl: opts.ingestUrl } : {}),
        fetch: doFetch,
        logLevel: opts.logLevel ?? 'Error',
      }),
  );
  api.catch(() => {}); // awaited (and a failure to load reported) at the first use
  const fileBase = (opts.fileUrlBase ?? `https://${appId}.ufs.sh`).replace(/\/+$/, '');
  const urlFor = (key: string) => `${fileBase}/f/${customIdFor(key)}`;

  const fail = (what: string, err: unknown): never => {
    const detail = err instanceof Error ? err.message : typeof err === 'object' && err && 'message' in err ? String((err as { message: unknown }).message) : String(err);
    throw new BlobStoreError(`UploadThing ${what} failed: ${detail}. Check UPLOADTHING_TOKEN and that the server can reach UploadThing.`, { cause: err });
  };

  async function remove(key: string): Promise<void> {
    try {
      await (await api).deleteFiles(customIdFor(key), { keyType: 'customId' });
    } catch (err) {
      fail('delete', err);
    }
  }

  return {
    utapi: () => api,
    async put(key, bytes, contentType) {
      const customId = customIdFor(key);
      // customIds are unique at UploadThing: replacing a key means deleting the old file first.
      await remove(key);
      const name = key.split('/').join('_');
      let result;
      try {
        const { UTFile } = await sdk;
        result = await (await api).uploadFiles(new UTFile([bytes as BlobPart], name, { type: contentType, customId }));
      } catch (err) {
        return fail('upload', err);
      }
      if (result.error || !result.data) return fail('upload', result.error);
      return { key, url: result.data.ufsUrl || urlFor(key) };
    },
    async get(key) {
      let res: Response;
      try {
        res = await doFetch(urlFor(key));
      } catch (err) {
        return fail('download', err);
      }
      if (res.status === 404) return null;
      if (!res.ok) return fail('download', new Error(`HTTP ${res.status}`));
      return new Uint8Array(await res.arrayBuffer());
    },
    delete: remove,
    async exists(key) {
      let res: Response;
      try {
        res = await doFetch(urlFor(key), { method: 'HEAD' });
      } catch (err) {
        return fail('lookup', err);
      }
      if (res.status === 404) return false;
      if (!res.ok) return fail('lookup', new Error(`HTTP ${res.status}`));
      return true;
    },
  };
}
