import path from 'node:path';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { expect } from 'vitest';
import { BUILD_LOCK, ROOT } from '../../../tests/e2e/helpers/server';
import { PRODUCTION_NODE_FLAGS } from '../../bench/load';
import { waitFor } from '../helpers';
import { testDatabaseEnv } from '../pg/database';

const children = new Set<ChildProcess>();

/** Kills every child server still alive (afterAll). */
export function killChildren() {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
}

export interface ChildServer {
  url: string;
  child: ChildProcess;
  /** How the process ended: the signal that killed it, or its exit code. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): string;
  kill(): Promise<void>;
}

let built = false;

/**
 * Node's arguments for the server's production build, as `npm start` runs it (its flags, then
 * dist/server/main.mjs), rebuilt first when it is missing or older than its sources (`server/build.mjs
 * --if-stale`, ~0.2 s). It starts in ~2.3 s where the sources through tsx take ~3.8 s, and these tests
 * start dozens of servers.
 */
export function productionArgs(): string[] {
  if (!built) {
    execFileSync('flock', [BUILD_LOCK, process.execPath, 'server/build.mjs', '--if-stale'], { cwd: ROOT, stdio: 'inherit' });
    built = true;
  }
  return [...PRODUCTION_NODE_FLAGS, 'dist/server/main.mjs'];
}

/**
 * The real server (its production build) in its own process, so a SIGKILL — from the test or from an
 * ATTESTA_FAULT crash point — stops it the way a crash would.
 */
export async function startChildServer(dataDir: string, env: Record<string, string> = {}): Promise<ChildServer> {
  // PORT=0 and the address from the start-up line: a port picked beforehand can be taken by another
  // test process on a shared machine before the child binds it.
  const child = spawn(process.execPath, productionArgs(), {
    cwd: ROOT,
    // The database of the current test project (SQLite in the data dir, or its own PostgreSQL database).
    env: { ...process.env, ATTESTA_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', ATTESTA_DEMO_DATA: 'false', LOG_LEVEL: 'warn', ...(await testDatabaseEnv(dataDir)), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const url = await waitFor(async () => {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`child server exited at start:\n${out}`);
    return /Attesta listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
  }, 90_000, 100).catch((e) => {
    child.kill('SIGKILL');
    throw new Error(`child server did not start: ${e}\n${out}`);
  });
  expect((await fetch(`${url}/healthz`)).ok).toBe(true);
  return {
    url,
    child,
    exited,
    output: () => out,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
