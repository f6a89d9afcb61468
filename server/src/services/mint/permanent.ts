import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { createPermanentStore, permanentStoreConfigFromEnv, type PermanentStore } from '../permanent';
import type { Services } from '../index';
import { mintDb } from './schema';

/** A permanent store plus a key naming where its URLs point (cache key of `permanent_copy`). */
export interface NamedPermanentStore extends PermanentStore {
  /** e.g. `local:https://attesta.example` or `arweave`: a copy cached for another key is uploaded again. */
  key: string;
}

/** Configured stores, built once per server (services object) and public base URL. */
const configured = new WeakMap<object, Map<string, NamedPermanentStore>>();

/**
 * The permanent store for a mint: `services.permanent` when the server provides one, else the
 * configured one (ARWEAVE_* env, or `${dataDir}/permanent` served at `${origin}/permanent/<id>`).
 * `origin` is the permanent origin (./origin.ts `permanentOrigin`), never a request's.
 */
export function permanentStoreFor(svc: Services & { permanent?: PermanentStore & { key?: string; kind?: string } }, origin: string): NamedPermanentStore {
  const p = svc.permanent;
  if (p) return { put: (b, t, tags) => p.put(b, t, tags), get: (id) => p.get(id), key: p.key ?? p.kind ?? 'custom' };
  const publicBaseUrl = svc.config.publicOrigin ?? origin;
  let byBase = configured.get(svc);
  if (!byBase) configured.set(svc, (byBase = new Map()));
  let named = byBase.get(publicBaseUrl);
  if (!named) {
    const store = createPermanentStore(permanentStoreConfigFromEnv(svc.config.env as NodeJS.ProcessEnv, { dataDir: svc.config.dataDir, publicBaseUrl }));
    named = Object.assign(store, { key: store.kind === 'local' ? `local:${publicBaseUrl}` : `arweave:${svc.config.env.ARWEAVE_GATEWAY_URL ?? svc.config.env.ARWEAVE_URL}` });
    byBase.set(publicBaseUrl, named);
  }
  return named;
}

export const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * Stores bytes once per store: a retry (or a second certificate with the same bytes) reuses the
 * recorded copy instead of uploading again. Two racing callers may both upload; the first row wins
 * and both get a valid URL.
 */
export async function putOnce(db: Kysely<Database>, store: NamedPermanentStore, bytes: Uint8Array, contentType: string, tags: Record<string, string> = {}) {
  const mdb = mintDb(db);
  const sha = sha256Hex(bytes);
  const hit = await mdb.selectFrom('permanent_copy').select(['object_id', 'url']).where('content_sha256', '=', sha).where('store', '=', store.key).executeTakeFirst();
  if (hit) return { id: hit.object_id, url: hit.url, sha256: sha };
  const { id, url } = await store.put(bytes, contentType, { 'Content-SHA256': sha, ...tags });
  await mdb
    .insertInto('permanent_copy')
    .values({ content_sha256: sha, store: store.key, object_id: id, url, content_type: contentType, size: bytes.length, created_at: new Date().toISOString() })
    .onConflict((c) => c.columns(['content_sha256', 'store']).doNothing())
    .execute();
  const row = await mdb.selectFrom('permanent_copy').select(['object_id', 'url']).where('content_sha256', '=', sha).where('store', '=', store.key).executeTakeFirstOrThrow();
  return { id: row.object_id, url: row.url, sha256: sha };
}
