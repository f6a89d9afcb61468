import type { FaultPoint } from '../config';
import type { BlobStore } from './storage/index.js';

/**
 * Test-only crash points for server/test/faults.test.ts, chosen at composition (compose.ts) from
 * ATTESTA_FAULT. Production has none: `hit` is a no-op and the blob store is not wrapped. With a
 * point configured, the process kills itself with SIGKILL right there, as a power cut or the OOM
 * killer would (no finally blocks, no shutdown hooks, no rollback code runs). Points:
 * - `after-blob-put`      a blob (certificate file or profile photo) is stored, nothing else yet
 * - `before-blob-delete`  a blob is about to be removed (the old photo after a replacement commits)
 * - `before-commit`       create: rows and the anchor are written in the open DB transaction
 * - `after-commit`        create: committed, the response not sent
 * - `mint-before-send`    mint submit: the attempt is claimed, the signed transaction not sent
 * - `mint-after-send`     mint submit: the chain accepted the mint, the certificate row not updated
 */
export interface FaultPoints {
  hit(point: FaultPoint): void;
}

export const NO_FAULTS: FaultPoints = { hit() {} };

function crash(): never {
  process.kill(process.pid, 'SIGKILL');
  // SIGKILL to oneself is delivered before kill() returns; block anyway so no further line can run.
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10_000);
  throw new Error('unreachable: SIGKILL did not stop the process');
}

export function faultPoints(config: { point: FaultPoint | null }): FaultPoints {
  const { point } = config;
  if (!point) return NO_FAULTS;
  return {
    hit(p) {
      if (p === point) crash();
    },
  };
}

/** The blob store with the `after-blob-put` and `before-blob-delete` points around its writes. */
export function withFaultPoints<S extends BlobStore>(store: S, faults: FaultPoints): S {
  if (faults === NO_FAULTS) return store;
  return {
    ...store,
    list: store.list?.bind(store),
    removeStaleTemp: store.removeStaleTemp?.bind(store),
    get: store.get.bind(store),
    exists: store.exists.bind(store),
    async put(key: string, bytes: Uint8Array, contentType: string) {
      const r = await store.put(key, bytes, contentType);
      faults.hit('after-blob-put');
      return r;
    },
    async delete(key: string) {
      faults.hit('before-blob-delete');
      return store.delete(key);
    },
  };
}
