import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

// A throwaway PostgreSQL server for the test run: Debian's `postgresql` binaries, a cluster in a temp
// dir, trust auth on loopback only, durability off (fsync) since the data dies with the run.

export interface PgCluster {
  /** Superuser URL of the `postgres` database, for creating a database per test server. */
  adminUrl: string;
  stop(): void;
}

/** The newest /usr/lib/postgresql/<v>/bin holding initdb (Debian keeps them off PATH), or PG_BIN. */
export function findPgBin(): string | null {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return null;
  const versions = fs
    .readdirSync(root)
    .filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(root, versions[0], 'bin') : null;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/**
 * Starts a throwaway cluster, or with `keepIn` the cluster kept in that directory (made there the first
 * time, left there by stop(): the scale bench's fills outlive a run). Durability stays off either way:
 * a kept cluster survives its server being stopped or killed, not the machine losing power.
 * `sharedBuffers` (PostgreSQL's units, e.g. '4GB') applies to this start; the test run's clusters keep
 * 64 MB, enough for what a test writes.
 */
export async function startPgCluster(opts: { keepIn?: string; sharedBuffers?: string } = {}): Promise<PgCluster> {
  const bin = findPgBin();
  if (!bin) throw new Error('PostgreSQL is not installed: apt-get install postgresql (or set PG_BIN to its bin directory)');
  const dir = opts.keepIn ?? fs.mkdtempSync(path.join(os.tmpdir(), 'attesta-pg-'));
  fs.mkdirSync(dir, { recursive: true });
  const data = path.join(dir, 'data');
  // PostgreSQL refuses to run as root: run it as the `postgres` system user the Debian package creates.
  const asRoot = process.getuid?.() === 0;
  const kept = fs.existsSync(path.join(data, 'PG_VERSION'));
  if (asRoot && !kept) execFileSync('chown', ['-R', 'postgres:postgres', dir]);
  const run = (cmd: string, args: string[]) => {
    const r = asRoot
      ? spawnSync('runuser', ['-u', 'postgres', '--', path.join(bin, cmd), ...args], { encoding: 'utf8' })
      : spawnSync(path.join(bin, cmd), args, { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${cmd} failed (${r.status}): ${r.stderr || r.stdout}`);
  };
  if (kept) {
    // Kept: a server left running by a run that was killed is stopped first (it listens on that run's port).
    try {
      run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
    } catch {
      // not running
    }
  } else run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync']);
  const port = await freePort();
  const serverOptions = [
    `-p ${port}`,
    `-k ${dir}`,
    "-c listen_addresses=127.0.0.1",
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    // Test files run in parallel, each with a few servers of 10 pooled connections.
    '-c max_connections=400',
    `-c shared_buffers=${opts.sharedBuffers ?? '64MB'}`,
  ].join(' ');
  run('pg_ctl', ['-D', data, '-o', serverOptions, '-l', path.join(dir, 'server.log'), '-w', '-t', '60', 'start']);
  return {
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      if (opts.keepIn) {
        run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
        return;
      }
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
