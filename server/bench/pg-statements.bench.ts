// npm run bench:pg-statements — what keeping PostgreSQL statements prepared (PreparingClient in
// server/src/db) buys the cold verify's one lookup: the stored verdict by hash, every call another of
// 100,000 rows, 8 at a time, through Kysely on a pool of node-postgres's own client (every statement
// parsed and planned again) and on PreparingClient, alternately, on a throwaway cluster
// (server/test/pg). Prints a table; exits 1 when kept statements are not at least 1.2× as fast.
import { createHash } from 'node:crypto';
import os from 'node:os';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { openDatabase } from '../src/db';
import { PreparingClient } from '../src/db/postgres';
import type { Database } from '../src/db/schema';
import { startPgCluster } from '../test/pg/cluster';
import { median, tableLines } from './report';

const ROWS = 100_000;
const CONCURRENCY = 8;
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 3000);
const ROUNDS = 4;
const TARGET = 1.2;

const cluster = await startPgCluster();
process.on('exit', () => cluster.stop());
const admin = new pg.Client({ connectionString: cluster.adminUrl });
await admin.connect();
await admin.query('create database statements');
await admin.end();
const url = new URL(cluster.adminUrl);
url.pathname = '/statements';

// The table as the migrations make it, holding verdicts of the stored size (~1.8 kB).
const hash = (k: number) => createHash('sha256').update(`pg-statements:${k}`).digest('hex');
{
  const { db } = await openDatabase({ kind: 'postgres', url: url.toString() });
  const body = JSON.stringify({ valid: true, note: 'x'.repeat(1800) });
  const at = new Date().toISOString();
  for (let k = 0; k < ROWS; k += 1000) {
    const rows = Array.from({ length: 1000 }, (_, i) => ({
      sha256: hash(k + i), body, stale_at: null, cert_id: `c${k + i}`, user_id: 'u', record_address: `r${k + i}`, issuer_authority: null, issuer_address: null, computed_at: at,
    }));
    await db.insertInto('public_verdict').values(rows).execute();
  }
  await db.destroy();
}

const pool = (Client: typeof pg.Client) => new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ Client, connectionString: url.toString(), max: 10 }) }) });
const clients = [
  { name: 'parsed each time (pg.Client)', db: pool(pg.Client), rps: [] as number[], p99: [] as number[] },
  { name: 'kept prepared (PreparingClient)', db: pool(PreparingClient), rps: [] as number[], p99: [] as number[] },
];
let next = 0;
for (let round = 0; round < ROUNDS; round++) {
  for (const c of clients) {
    // The verdict store's lookup, compiled once as the server does.
    const lookup = c.db.selectFrom('public_verdict').select(['body', 'stale_at']).where('sha256', '=', '').compile();
    const latencies: number[] = [];
    const end = performance.now() + DURATION_MS;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (performance.now() < end) {
          const t = performance.now();
          const { rows } = await c.db.executeQuery({ ...lookup, parameters: [hash((next++ * 7919) % ROWS)] });
          if (rows.length !== 1) throw new Error('a stored verdict was not found');
          latencies.push(performance.now() - t);
        }
      }),
    );
    latencies.sort((a, b) => a - b);
    c.rps.push(latencies.length / (DURATION_MS / 1000));
    c.p99.push(latencies[Math.floor(latencies.length * 0.99)]);
  }
}
for (const c of clients) await c.db.destroy();

console.log(`PostgreSQL lookup of a stored verdict by hash, ${ROWS.toLocaleString()} rows, ${CONCURRENCY} at a time, ${ROUNDS} alternating rounds of ${DURATION_MS} ms; ${os.cpus().length} CPUs, load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}\n`);
const table = [['statements', 'lookups/s per round', 'median/s', 'p99 ms (median)'], ...clients.map((c) => [c.name, c.rps.map((r) => r.toFixed(0)).join(' '), median(c.rps).toFixed(0), median(c.p99).toFixed(2)])];
for (const line of tableLines(table)) console.log(line);
const gain = median(clients[1].rps) / median(clients[0].rps);
console.log(`\nkept prepared: ${gain.toFixed(2)}× (target ≥ ${TARGET}×): ${gain >= TARGET ? 'met' : 'NOT met'}`);
process.exit(gain >= TARGET ? 0 : 1);
