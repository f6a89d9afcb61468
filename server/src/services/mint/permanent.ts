import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { JWKInterface } from 'arweave/node/lib/wallet.js';
import type { Config } from '../../config';
import { createPermanentStore, type PermanentStore } from '../permanent';

/** A permanent store plus a key naming where its URLs point (cache key of `permanent_copy`). */
export interface NamedPermanentStore extends PermanentStore {
  /** e.g. `local:https://attesta.example` or `arweave`: a copy cached for another key is uploaded again. */
  key: string;
}

/**
 * The configured permanent stores of a server (config.permanent: Arweave, or `${dataDir}/permanent`
 * served at `${publicBaseUrl}/permanent/<id>`), one per public base URL, built on first use.
 */
export class PermanentStores {
  private readonly byBase = new Map<string, NamedPermanentStore>();

  constructor(private readonly config: Pick<Config, 'dataDir' | 'permanent'>) {}

  /** The store whose URLs start at `publicBaseUrl` (the permanent origin, never a request's). */
  for(publicBaseUrl: string): NamedPermanentStore {
    let named = this.byBase.get(publicBaseUrl);
    if (!named) {
      const p = this.config.permanent;
      const store = createPermanentStore({ ...p, arweaveJwk: p.arweaveJwk as JWKInterface | undefined, dataDir: this.config.dataDir, publicBaseUrl });
      named = Object.assign(store, { key: store.kind === 'local' ? `local:${publicBaseUrl}` : `arweave:${p.arweaveGatewayUrl ?? p.arweaveUrl}` });
      this.byBase.set(publicBaseUrl, named);
    }
    return named;
  }
}

export const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * Stores bytes once per store: a retry (or a second certificate with the same bytes) reuses the
 * recorded copy instead of uploading again. Two racing callers may both upload; the first row wins
 * and both get a valid URL.
 */
export async function putOnce(db: Kysely<Database>, store: NamedPermanentStore, bytes: Uint8Array, contentType: string, tags: Record<string, string> = {}) {
  const sha = sha256Hex(bytes);
  const hit = await db.selectFrom('permanent_copy').select(['object_id', 'url']).where('content_sha256', '=', sha).where('store', '=', store.key).executeTakeFirst();
  if (hit) return { id: hit.object_id, url: hit.url, sha256: sha };
  const { id, url } = await store.put(bytes, contentType, { 'Content-SHA256': sha, ...tags });
  await db
    .insertInto('permanent_copy')
    .values({ content_sha256: sha, store: store.key, object_id: id, url, content_type: contentType, size: bytes.length, created_at: new Date().toISOString() })
    .onConflict((c) => c.columns(['content_sha256', 'store']).doNothing())
    .execute();
  const row = await db.selectFrom('permanent_copy').select(['object_id', 'url']).where('content_sha256', '=', sha).where('store', '=', store.key).executeTakeFirstOrThrow();
  return { id: row.object_id, url: row.url, sha256: sha };
}
