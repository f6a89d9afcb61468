// Starts the real product (the `npm start` entry) as a child process on a free port with its own
// temporary data dir, serving the built app. Shared by the browser end-to-end tests.
import { spawn, execSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../../..');

export interface RunningServer {
  url: string;
  dataDir: string;
  /** Everything the server printed, for failure messages. */
  output: () => string;
  stop: () => Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** One build of dist/ at a time across test files (also the crash tests' server build). */
export const BUILD_LOCK = path.join(os.tmpdir(), 'attesta-app-build.lock');

/**
 * Builds what `npm start` serves when it is missing or stale (always with ATTESTA_E2E_BUILD=1): the
 * app (app/dist) and the server's production build (dist/server), as its prestart does.
 */
export function ensureBuilt() {
  // Test files run in parallel forks: one build at a time. `app/ensure-built.mjs` and
  // `server/build.mjs --if-stale` (npm start's own checks) rebuild only when a build is missing or
  // older than its sources: a stale build would test old code.
  const lock = BUILD_LOCK;
  const app = process.env.APP_DIST_DIR ? 'true' : process.env.ATTESTA_E2E_BUILD === '1' ? 'npm run build:app' : 'node app/ensure-built.mjs';
  const server = process.env.ATTESTA_E2E_BUILD === '1' ? 'node server/build.mjs' : 'node server/build.mjs --if-stale';
  execSync(`flock ${JSON.stringify(lock)} sh -c ${JSON.stringify(`${app} && ${server}`)}`, {
    cwd: ROOT,
    stdio: 'inherit',
    // vitest sets NODE_ENV=test, which would make Vite ship React's development build: test the real one.
    env: { ...process.env, NODE_ENV: 'production' },
  });
}

/** Whether the server has the tRPC procedure `path` (dotted): tRPC answers an unknown one 404 "No procedure found on path". */
export async function offersProcedure(url: string, path: string): Promise<boolean> {
  const res = await fetch(`${url}/trpc/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
  return !(res.status === 404 && /No procedure found/i.test(body?.error?.message ?? ''));
}

/** The command `npm start` runs, executed directly so stopping it stops the server (no npm wrapper). */
function startCommand(): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
  return pkg.scripts?.start ?? 'tsx server/src/main.ts';
}

export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'attesta-e2e-'));
  const port = await freePort();
  let out = '';
  const child: ChildProcess = spawn('sh', ['-c', `exec ${startCommand()}`], {
    cwd: ROOT,
    detached: true,
    env: {
      ...process.env,
      PATH: `${path.join(ROOT, 'node_modules/.bin')}:${process.env.PATH}`,
      PORT: String(port),
      HOST: '127.0.0.1',
      ATTESTA_DATA_DIR: dataDir,
      ATTESTA_DEMO_DATA: 'false',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Server exited (${child.exitCode}):\n${out}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      process.kill(-child.pid!, 'SIGKILL');
      throw new Error(`Server did not start within 90 s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }

  return {
    url,
    dataDir,
    output: () => out,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        process.kill(-child.pid!, 'SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL');
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
