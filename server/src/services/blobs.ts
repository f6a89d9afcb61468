import type { Kysely } from 'kysely';
import type { Config } from '../config';
import { isPostgres } from '../db/dialect';
import type { Database } from '../db/schema';
import { createBlobStore, type BlobStore } from './storage/index.js';

export type { BlobStore };

/** The blob store from configuration (config.storage): UploadThing when UPLOADTHING_TOKEN is set, else <dataDir>/uploads. */
export function openBlobStore(config: Pick<Config, 'storage'>): BlobStore & { kind: 'uploadthing' | 'local' } {
  return createBlobStore(config.storage);
}

/** Folders of blobs that rows own, and the column naming each blob. Other folders are never swept. */
const OWNED = [
  { prefix: 'certificates/', table: 'certificate', column: 'file_key' },
  { prefix: 'photos/', table: 'user', column: 'profile_image_key' },
] as const;

export interface SweepResult {
  removed: string[];
  tempRemoved: number;
  /** False when the store cannot list its keys (UploadThing): nothing was checked. */
  listed: boolean;
}

/**
 * Removes blobs no committed row references: a process killed after a blob write and before its
 * DB transaction committed (create, photo upload), or after a photo replacement committed and before
 * the old photo was deleted. Only blobs written before `before` are considered, so an upload in
 * flight (its blob written, its row not yet committed) is never taken: at start-up, before the
 * server listens, `before` = now is safe for a data dir one process owns (as SQLite's is); stores
 * shared by several servers must pass now minus a grace period longer than any upload.
 */
export async function sweepOrphanBlobs(svc: { db: Kysely<Database>; blobs: BlobStore }, opts: { before?: number } = {}): Promise<SweepResult> {
  const before = opts.before ?? Date.now();
  const { db, blobs } = svc;
  if (!blobs.list) return { removed: [], tempRemoved: 0, listed: false };
  const removed: string[] = [];
  for (const { prefix, table, column } of OWNED) {
    const candidates = (await blobs.list(prefix)).filter((b) => b.modifiedAt < before).map((b) => b.key);
    for (let i = 0; i < candidates.length; i += 500) {
      const batch = candidates.slice(i, i + 500);
      const referenced = new Set(
        (await db.selectFrom(table).select(`${column} as key`).where(column, 'in', batch).execute()).map((r) => (r as { key: string | null }).key),
      );
      for (const key of batch) {
        if (referenced.has(key)) continue;
        await blobs.delete(key);
        removed.push(key);
      }
    }
  }
  const tempRemoved = (await blobs.removeStaleTemp?.(before)) ?? 0;
  return { removed, tempRemoved, listed: true };
}

/** Longer than any upload's blob-write-to-commit window (an RPC anchor waits up to ~90 s for its blockhash). */
export const ORPHAN_GRACE_MS = 10 * 60_000;

/**
 * Sweeps orphaned blobs at start and then every ORPHAN_GRACE_MS. On SQLite the process owns its
 * data dir (as VerificationQueue.releaseOrphans assumes), so at start, before it serves a request,
 * every blob already there is past any upload of a live process. On PostgreSQL another server may
 * still be running on the same data dir (rolling restart): only blobs older than the grace period go.
 */
export async function startOrphanBlobSweeper(svc: { db: Kysely<Database>; blobs: BlobStore }, graceMs = ORPHAN_GRACE_MS) {
  const initial = await sweepOrphanBlobs(svc, { before: isPostgres(svc.db) ? Date.now() - graceMs : Date.now() });
  if (initial.removed.length || initial.tempRemoved) console.warn(`Attesta: removed ${initial.removed.length + initial.tempRemoved} orphaned upload file(s) of an interrupted upload.`);
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = sweepOrphanBlobs(svc, { before: Date.now() - graceMs }).catch((e) => console.error('orphan blob sweep:', e));
  }, graceMs);
  timer.unref();
  return {
    initial,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
