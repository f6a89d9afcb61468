import { createHash, randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PermanentStoreError, type PermanentStore } from './types.js';

export interface LocalPermanentStoreOptions {
  dir: string;
  /** The server's public origin; urls are `${publicBaseUrl}/permanent/<id>`. */
  publicBaseUrl: string;
}

export interface PermanentObject {
  bytes: Uint8Array;
  contentType: string;
  tags: Record<string, string>;
}

const ID_RE = /^[0-9a-f]{64}$/;

/** Ids of the local store are the lowercase hex SHA-256 of the content. */
export function isPermanentId(id: unknown): id is string {
  return typeof id === 'string' && ID_RE.test(id);
}

/**
 * Reads an object for serving at `/permanent/<id>`: null for an invalid or unknown id (so the route
 * can answer 404 without touching the filesystem for odd input). Throws if the stored bytes no longer
 * hash to their id, because serving them would break the promise of a permanent copy.
 */
export async function readPermanent(dir: string, id: string): Promise<PermanentObject | null> {
  if (!isPermanentId(id)) return null;
  let bytes: Buffer;
  try {
    bytes = await readFile(join(dir, id));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  if (createHash('sha256').update(bytes).digest('hex') !== id) {
    throw new PermanentStoreError(`Permanent object ${id} is corrupted on disk (its bytes no longer match its hash).`);
  }
  let meta: { contentType?: string; tags?: Record<string, string> } = {};
  try {
    meta = JSON.parse(await readFile(join(dir, `${id}.json`), 'utf8'));
  } catch {
    // metadata is advisory; the bytes are what is permanent
  }
  return { bytes: new Uint8Array(bytes), contentType: meta.contentType ?? 'application/octet-stream', tags: meta.tags ?? {} };
}

/**
 * Content-addressed and write-once: the id is the SHA-256 of the bytes, a second put of the same
 * bytes returns the same id and never rewrites the file. Files are published with link(), which
 * fails if the target exists, so concurrent writers cannot replace each other's object.
 */
export function createLocalPermanentStore(opts: LocalPermanentStoreOptions): PermanentStore & { dir: string } {
  const base = opts.publicBaseUrl.replace(/\/+$/, '');
  const urlFor = (id: string) => `${base}/permanent/${id}`;

  async function publish(path: string, data: Uint8Array | string): Promise<void> {
    const tmp = join(opts.dir, `.tmp-${randomBytes(8).toString('hex')}`);
    await writeFile(tmp, data, { flag: 'wx' });
    try {
      await link(tmp, path);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') return;
      // Filesystems without hard links: check-then-rename (still atomic for readers).
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV') throw err;
      if (!(await stat(path).catch(() => null))) await rename(tmp, path);
    } finally {
      await rm(tmp, { force: true });
    }
  }

  return {
    dir: opts.dir,
    async put(bytes, contentType, tags = {}) {
      const id = createHash('sha256').update(bytes).digest('hex');
      await mkdir(opts.dir, { recursive: true });
      // Metadata first: once the object exists, its metadata does too.
      await publish(join(opts.dir, `${id}.json`), JSON.stringify({ contentType, tags, size: bytes.length }));
      await publish(join(opts.dir, id), bytes);
      return { id, url: urlFor(id) };
    },
    async get(id) {
      return (await readPermanent(opts.dir, id))?.bytes ?? null;
    },
  };
}
