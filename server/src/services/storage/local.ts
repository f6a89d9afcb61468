import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { keyToUrlPath, validateKey, type BlobStore, type StoredBlob } from './types.js';

export interface LocalBlobStoreOptions {
  /** Directory that holds the files (created on first write). */
  dir: string;
  /** The server's public origin, e.g. `http://localhost:3000`. */
  publicBaseUrl: string;
  /** Route the server serves blobs under. Default `/files`, so urls are `${publicBaseUrl}/files/<key>`. */
  routePrefix?: string;
}

/** Files in a directory. Writes are atomic (temp file + rename), so readers never see half a file. */
export function createLocalBlobStore(
  opts: LocalBlobStoreOptions,
): BlobStore & { pathFor(key: string): string; list(prefix: string): Promise<StoredBlob[]>; removeStaleTemp(before: number): Promise<number> } {
  const root = resolve(opts.dir);
  const base = opts.publicBaseUrl.replace(/\/+$/, '') + '/' + (opts.routePrefix ?? '/files').replace(/^\/+|\/+$/g, '');

  const pathFor = (key: string): string => {
    validateKey(key);
    const full = resolve(root, ...key.split('/'));
    // Belt and braces: validateKey already refuses anything that could leave root.
    if (!full.startsWith(root + sep)) throw new Error(`Storage key escapes the storage directory: ${key}`);
    return full;
  };

  return {
    pathFor,
    async put(key, bytes) {
      const target = pathFor(key);
      await mkdir(dirname(target), { recursive: true });
      const tmp = join(dirname(target), `.tmp-${randomBytes(8).toString('hex')}`);
      try {
        await writeFile(tmp, bytes, { flag: 'wx' });
        await rename(tmp, target);
      } catch (err) {
        await rm(tmp, { force: true });
        throw err;
      }
      return { key, url: `${base}/${keyToUrlPath(key)}` };
    },
    async get(key) {
      try {
        return new Uint8Array(await readFile(pathFor(key)));
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },
    async delete(key) {
      await rm(pathFor(key), { force: true });
    },
    /** Keys under a folder prefix (`photos/`) with their write time; temporary files are not keys. */
    async list(prefix) {
      const folder = prefix.replace(/\/+$/, '');
      const start = folder ? pathFor(folder) : root;
      const out: StoredBlob[] = [];
      for await (const f of filesUnder(start)) {
        if (f.name.startsWith('.tmp-')) continue;
        const rel = f.path.slice(start.length + 1).split(sep).join('/');
        out.push({ key: folder ? `${folder}/${rel}` : rel, modifiedAt: f.modifiedAt });
      }
      return out;
    },
    /** Deletes the temporary files of writes killed mid-way (older than `before`, ms since epoch). */
    async removeStaleTemp(before) {
      let removed = 0;
      for await (const f of filesUnder(root)) {
        if (!f.name.startsWith('.tmp-') || f.modifiedAt >= before) continue;
        await rm(f.path, { force: true });
        removed++;
      }
      return removed;
    },
    async exists(key) {
      try {
        return (await stat(pathFor(key))).isFile();
      } catch (err) {
        if (isMissing(err)) return false;
        throw err;
      }
    },
  };
}

function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR';
}

/** Every file below `dir` (recursively) with its write time; a missing directory has none. */
async function* filesUnder(dir: string): AsyncGenerator<{ path: string; name: string; modifiedAt: number }> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    if (isMissing(err)) return;
    throw err;
  }
  for (const e of entries) {
    const full = join(dir, e.name);
    if (e.isDirectory()) yield* filesUnder(full);
    else if (e.isFile()) yield { path: full, name: e.name, modifiedAt: (await stat(full)).mtimeMs };
  }
}
