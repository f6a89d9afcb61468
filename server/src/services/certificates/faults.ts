/**
 * Test-only crash points for server/test/faults.test.ts. Inert in production: nothing happens
 * unless the ATTESTA_FAULT environment variable names the point, and then the process kills itself
 * with SIGKILL right there, as a power cut or the OOM killer would (no finally blocks, no shutdown
 * hooks, no rollback code runs). Points:
 * - `after-blob-put`      a blob (certificate file or profile photo) is stored, nothing else yet
 * - `before-blob-delete`  a blob is about to be removed (the old photo after a replacement commits)
 * - `before-commit`       create: rows and the anchor are written in the open DB transaction
 * - `after-commit`        create: committed, the response not sent
 * - `mint-before-send`    mint submit: the attempt is claimed, the signed transaction not sent
 * - `mint-after-send`     mint submit: the chain accepted the mint, the certificate row not updated
 */
export type FaultPoint = 'after-blob-put' | 'before-blob-delete' | 'before-commit' | 'after-commit' | 'mint-before-send' | 'mint-after-send';

export function faultPoint(point: FaultPoint): void {
  if (process.env.ATTESTA_FAULT !== point) return;
  process.kill(process.pid, 'SIGKILL');
  // SIGKILL to oneself is delivered before kill() returns; block anyway so no further line can run.
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10_000);
}
