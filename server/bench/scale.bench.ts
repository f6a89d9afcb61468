// npm run bench:scale [-- --full] [--n 10000,100000] [--db sqlite,postgres] [--reuse [--postgres-from-sqlite]] [--server-root DIR[,DIR2]] [--rounds R] [--accounts M] [--pg-shared-buffers SIZE]
//
// Cost in the number of certificates: fills a data dir with N anchored and verified certificates
// through the real chain code (EmbeddedChain.anchorCertificate + recordVerification, journaled, in
// batched DB transactions, with their certificate rows, and their stored public verdicts computed as
// the server's verdict store does) in this process, then starts the real server
// on it (a child process, as `npm start` would) and prints per N: time to the first /healthz answer,
// RSS after start and after the load, /healthz, the tRPC trivial procedure and public verify by hash
// (REST), cold (every request a different certificate) and warm (one certificate), and the database
// size — on SQLite and on PostgreSQL (a throwaway cluster from Debian's binaries, server/test/pg).
// Throughput and the issue's p99 are measured closed loop, as the issue measured them (8 connections,
// each sending as soon as it has its answer). Beside them, for information and not a target, the cold
// verify's p99 at a quarter of /healthz's rate sent on a schedule (load.ts `paced`): the latency a
// steady load meets, where every pause of the server (a collection, a busy core) queues the requests
// that arrive meanwhile, which a closed loop at saturation does not show. Also for information: a verify
// of a hash nobody anchored (a forged or altered document; every request another), which no stored
// verdict answers: computed from the chain, its record's address derived.
// N = 10,000 and 100,000 by default; --full adds 1,000,000. Exits 1 when a target is missed.
// Measured in a steady state, whatever ran before: PostgreSQL vacuumed and analysed, the stored verdicts
// read into the OS's page cache (SQLite) or PostgreSQL's shared buffers (a quarter of the memory, as a
// dedicated server is set up; --pg-shared-buffers SIZE to change it), and the cold verifies after four
// seconds of cold verifies (V8 optimising).
//
// --reuse keeps the fills (--fill-only: only make them) in $TMPDIR/attesta-scale/ and reuses them: SQLite's as
// data dirs, PostgreSQL's as databases of a cluster kept there too (postgres-cluster/); a fill stopped part-way
// (killed: a batch is one transaction) goes on where it stopped, and a larger fill starts from a copy of the
// largest smaller one kept there (1,000,000 from 100,000). With --postgres-from-sqlite a PostgreSQL fill is instead
// copied row for row from the kept SQLite fill of the same N (copy-fill.ts): minutes, where filling PostgreSQL
// through the anchoring code takes ~2.8 hours at 1,000,000. --server-root runs the server of another checkout on
// the same data (before/after figures); with two (`--server-root OLD,NEW`) each N is measured with both,
// alternately (A B, then B A, …, --rounds R times): how before and after run on the same data and the same hour.
// --accounts M tops the largest N's chain up to M accounts with funded holder wallets (system accounts, written
// straight to the chain's table, not through transactions: a certificate anchors one account, so 3,000,000
// accounts through the anchoring code would take ~7 hours): start-up and reads must not grow with the table.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Keypair, PublicKey, SystemProgram } from '@solana/web3.js';
import { sql } from 'kysely';
import pg from 'pg';
import { openDatabase, type DatabaseTarget, type Db } from '../src/db';
import type { NewCertificate } from '../src/db/schema';
import { journalLandedTransactions } from '../src/json-rpc/journal';
import { CACHE_TTL_MS as VERDICT_CACHE_TTL_MS } from '../src/services/certificates/verdict';
import { VerdictStore } from '../src/services/certificates/verdict-store';
import { startPgCluster, type PgCluster } from '../test/pg/cluster';
import { copySqliteToPostgres } from './copy-fill';
import { openData } from './data-dir';
import { loadGenerator, serverArgs, type LoadResult } from './load';
import { tableLines } from './report';

const argv = process.argv.slice(2);
const arg = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const FULL = argv.includes('--full');
const REUSE = argv.includes('--reuse');
const FILL_ONLY = argv.includes('--fill-only'); // with --reuse: prepare the fills, measure nothing
// With --reuse: a PostgreSQL fill not kept yet is copied from the kept SQLite fill of the same N (copy-fill.ts).
const FROM_SQLITE = argv.includes('--postgres-from-sqlite');
const SIZES = (arg('n') ?? (FULL ? '10000,100000,1000000' : '10000,100000')).split(',').map(Number);
const DBS = (arg('db') ?? 'sqlite,postgres').split(',') as ('sqlite' | 'postgres')[];
const ROOT = path.resolve(import.meta.dirname, '../..');
const SERVER_ROOTS = (arg('server-root') ?? ROOT).split(',').map((r) => path.resolve(r));
const ROUNDS = Number(arg('rounds') ?? 1);
const serverName = (root: string) => path.basename(root);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 3000);
const BATCH = 250;
const COLD_WARMUP_MS = 4000;
const ACCOUNTS = arg('accounts') ? Number(arg('accounts')) : null;
// PostgreSQL's shared buffers as a dedicated server is set up (a quarter of the memory: PostgreSQL's
// documented starting point), not the test run's 64 MB. At 1,000,000 the verdicts and their key are
// 1.7 GB: in 64 MB every cold lookup read ~1.7 pages in from the OS's cache, and its backend spent
// ~75 % more CPU than at 10,000 (notes/scale-status.md, twentieth round). `--pg-shared-buffers 64MB`
// measures that case.
const PG_SHARED_BUFFERS = arg('pg-shared-buffers') ?? `${Math.floor(os.totalmem() / 4 / 2 ** 20)}MB`;
const SYSTEM_PROGRAM = SystemProgram.programId.toBase58();

// Targets (issue "Scale"): flat start and memory, cold verify a quarter of the ceiling.
const T = { startS: 3, rssMb: 400, coldShare: 0.25, coldP99Ms: 5, warmShare: 0.8, trpcShare: 0.4 };

const mb = (b: number) => b / 1024 / 1024;
const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' ');
const certHash = (k: number) => createHash('sha256').update(`attesta-scale:${k}`).digest();
const cacheRoot = path.join(os.tmpdir(), 'attesta-scale');

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
}

/**
 * SQLite settings for writing a throwaway fill (and its verdicts) once: no fsync, checkpoints every
 * ~400 MB of log instead of every 4 MB, and the indexes' pages kept in this process. Random keys (hashes,
 * addresses, signatures) touch a page of every index per certificate; with SQLite's defaults (a 2 MB
 * cache) the commits and page reads took ~35 % of the fill at 100,000 certificates. The server measured
 * afterwards opens the file with its own settings, as always.
 */
async function writeOnce(db: Db, target: DatabaseTarget) {
  if (target.kind !== 'sqlite') return;
  for (const p of ['synchronous = OFF', 'wal_autocheckpoint = 100000', 'cache_size = -2000000']) await sql.raw(`pragma ${p}`).execute(db);
}

/** How many accounts the embedded chain persisted in the data dir. */
async function accountCount(target: DatabaseTarget): Promise<number> {
  const { db } = await openDatabase(target);
  try {
    return Number((await db.selectFrom('chain_account').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  } finally {
    await db.destroy();
  }
}

/**
 * Tops the chain up to `total` accounts with funded wallets (deterministic addresses, so a run stopped
 * part-way goes on where it stopped). Returns how many it added.
 */
async function padAccounts(target: DatabaseTarget, total: number, log: (s: string) => void): Promise<number> {
  const t0 = performance.now();
  const { db } = await openDatabase(target);
  try {
    let count = Number((await db.selectFrom('chain_account').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const before = count;
    const at = new Date().toISOString();
    for (let k = 0; count < total; ) {
      await db.transaction().execute(async (trx) => {
        for (let end = k + 50_000; k < end && count < total; ) {
          const rows = [];
          for (const stop = Math.min(k + 1000, k + (total - count)); k < stop; k++) {
            const pubkey = new PublicKey(createHash('sha256').update(`attesta-scale-wallet:${k}`).digest()).toBase58();
            rows.push({ pubkey, owner: SYSTEM_PROGRAM, lamports: '1000000000', data: Buffer.alloc(0), executable: 0, rent_epoch: '0', updated_at: at });
          }
          const r = await trx.insertInto('chain_account').values(rows).onConflict((oc) => oc.column('pubkey').doNothing()).executeTakeFirst();
          count += Number(r.numInsertedOrUpdatedRows ?? 0n);
        }
      });
    }
    if (count > before) log(`  added ${(count - before).toLocaleString()} funded wallets: ${count.toLocaleString()} accounts (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
    return count - before;
  } finally {
    await db.destroy();
  }
}

/**
 * Computes the stored public verdicts still to compute (a fill's, or all of an older fill's after the
 * migration that added them), as the server's verdict store does beside requests: before measuring.
 */
async function settleVerdicts(dataDir: string, target: DatabaseTarget, log: (s: string) => void) {
  const t0 = performance.now();
  const { db, chain } = await openData(dataDir, target);
  await writeOnce(db, target);
  const dirty = Number((await db.selectFrom('public_verdict_dirty').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  if (dirty) {
    await new VerdictStore({ db, chain }).settle();
    log(`  stored ${dirty.toLocaleString()} public verdicts in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  if (target.kind === 'postgres') {
    // What autovacuum does to a settled database, done now rather than during the measuring: a
    // fill's or the verdicts' autovacuum (a 2 GB table at 1,000,000) ran beside the cold verifies once.
    const t1 = performance.now();
    await sql`vacuum (analyze)`.execute(db);
    log(`  vacuumed and analysed in ${((performance.now() - t1) / 1000).toFixed(1)} s`);
  }
  await chain.close();
  await db.destroy();
}

/**
 * Reads the stored verdicts and their key index once, so that the cold verifies find them in the OS's
 * page cache, as on a server with memory for its hot table: otherwise what ran before decides. (The
 * 14 GB PostgreSQL fill of 1,000,000 pushed the 12 GB SQLite one out of this machine's 24 GB, and
 * SQLite's cold verify at 1,000,000 read from disk: 11 % of /healthz instead of 54 %.)
 */
async function warmVerdictPages(target: DatabaseTarget, log: (s: string) => void) {
  const t0 = performance.now();
  const { db } = await openDatabase(target);
  try {
    // Also the indexes a verify of a hash nobody anchored reads (its certificate row by hash, an upload
    // it may be the original of, its record's account): cold, each such verify read their pages from
    // disk at 1,000,000 (~0.2 ms a lookup against ~15 µs), and the column measured the disk.
    if (target.kind === 'sqlite') {
      await sql`select sum(length(body)) from public_verdict`.execute(db);
      await sql`select count(*) from public_verdict where sha256 > ''`.execute(db);
      await sql`select count(*) from certificate indexed by certificate_sha256_live_uq where sha256 > '' and verification_status <> 'superseded'`.execute(db);
      await sql`select count(*) from certificate indexed by certificate_original_sha256_idx where original_sha256 > ''`.execute(db);
      await sql`select count(*) from chain_account where pubkey > ''`.execute(db);
    } else {
      // Into PostgreSQL's own buffers, as a server that has been answering for a while holds them (a
      // sequential scan of a large table goes through a small ring of buffers, not into them).
      await sql`create extension if not exists pg_prewarm`.execute(db);
      await sql`select pg_prewarm('public_verdict'), pg_prewarm('public_verdict_pkey')`.execute(db);
      await sql`select pg_prewarm('certificate_sha256_live_uq'), pg_prewarm('certificate_original_sha256_idx'), pg_prewarm('chain_account_pkey')`.execute(db);
    }
  } finally {
    await db.destroy();
  }
  log(`  read the stored verdicts and the lookup indexes into the ${target.kind === 'sqlite' ? "OS's page cache" : 'shared buffers'} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

/**
 * N anchored + verified certificates of one holder, with their rows: what the pipeline leaves behind.
 * `startAt` > 0 continues a fill of that many (certificates 0 … startAt − 1 are there already).
 */
async function fill(dataDir: string, target: DatabaseTarget, n: number, log: (s: string) => void, startAt = 0) {
  const t0 = performance.now();
  const { db, chain } = await openData(dataDir, target);
  await writeOnce(db, target);
  journalLandedTransactions(chain); // as compose.ts: every transaction has its journal rows
  await chain.ensureRegistry();
  let holder: PublicKey;
  if (startAt > 0) {
    holder = new PublicKey((await db.selectFrom('user').select('wallet_address').where('id', '=', 'u_scale').executeTakeFirstOrThrow()).wallet_address);
  } else {
    holder = Keypair.generate().publicKey;
    const now = new Date().toISOString();
    await db
      .insertInto('user')
      .values({ id: 'u_scale', wallet_address: holder.toBase58(), full_name: 'Scale Holder', email: null, profile_image_key: null, profile_image_url: null, created_at: now, updated_at: now })
      .execute();
  }
  let nextLog = startAt;
  for (let from = startAt; from < n; from += BATCH) {
    await db.transaction().execute(async (trx) => {
      const rows: NewCertificate[] = [];
      for (let k = from; k < Math.min(n, from + BATCH); k++) {
        const hash = certHash(k);
        const id = `c_scale_${k}`;
        const a = await chain.anchorCertificate({ hash, holder }, { db: trx, kind: 'anchor_certificate', certificateId: id });
        const v = await chain.recordVerification({ hash, verified: true, reasonCode: 0 }, { db: trx, kind: 'record_verification', certificateId: id });
        const at = new Date().toISOString();
        rows.push({
          id, user_id: 'u_scale', title: `Scale Certificate ${k}`, institution_name: 'Loopback University', program_name: 'Scale Studies', issue_date: '2025-01-01',
          verification_status: 'verified', verification_details: null, tier: 'platform_verified', file_key: `certificates/${id}`, file_name: `scale-${k}.pdf`,
          file_mime: 'application/pdf', file_size: 1000, sha256: hash.toString('hex'), original_sha256: null, original_mime: null,
          record_address: chain.certificateAddress(hash).toBase58(), holder_wallet: holder.toBase58(), anchor_signature: a.signature, verify_signature: v.signature,
          arweave_url: null, nft_mint_address: null, mint_signature: null, created_at: at, updated_at: at,
        } as NewCertificate);
      }
      await trx.insertInto('certificate').values(rows).execute();
    });
    // The batch is committed: release its accounts now, or the working set only grows (nothing else
    // runs between batches for the server's timer to do it).
    await chain.settleWorkingSet();
    // And let the event loop turn: LiteSVM's native objects (an account read, a transaction's result)
    // are freed by finalizers Node runs between turns, which a loop of promises alone never reaches —
    // without this the fill's memory grew by ~45 MB per 1,000 certificates (3.2 GB at 70,000); the
    // server turns the loop at every request.
    await new Promise((resolve) => setImmediate(resolve));
    if (from >= nextLog) {
      log(`  filled ${from.toLocaleString()} / ${n.toLocaleString()} (${((performance.now() - t0) / 1000).toFixed(0)} s, load ${load()})`);
      nextLog += Math.max(BATCH, n / 10);
    }
  }
  const stats = chain.workingSetStats();
  await chain.close();
  await db.destroy();
  return { seconds: (performance.now() - t0) / 1000, workingSet: stats };
}

/** How many certificates a fill stopped part-way holds (its batches are whole), or null without one. */
async function filledSoFar(target: DatabaseTarget): Promise<number | null> {
  if (target.kind === 'sqlite' && !fs.existsSync(target.file)) return null;
  const { db } = await openDatabase(target);
  try {
    const r = await db.selectFrom('certificate').select((eb) => eb.fn.countAll<number>().as('n')).where('id', 'like', 'c_scale_%').executeTakeFirstOrThrow();
    return Number(r.n) || null;
  } finally {
    await db.destroy();
  }
}

/** The largest complete fill (SQLite, or PostgreSQL's data dir) kept under --reuse that is smaller than n. */
function largestKeptFill(n: number, kind: 'sqlite' | 'postgres' = 'sqlite'): number | null {
  if (!fs.existsSync(cacheRoot)) return null;
  const kept = fs
    .readdirSync(cacheRoot)
    .map((d) => new RegExp(`^${kind}-(\\d+)$`).exec(d))
    .filter((m): m is RegExpExecArray => !!m && fs.existsSync(path.join(cacheRoot, m[0], 'filled')))
    .map((m) => Number(m[1]))
    .filter((m) => m < n);
  return kept.length ? Math.max(...kept) : null;
}

function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+)\s+kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : NaN;
}

async function dbSize(dataDir: string, target: DatabaseTarget): Promise<number> {
  if (target.kind === 'sqlite') {
    return fs
      .readdirSync(dataDir)
      .filter((f) => f.startsWith('attesta.sqlite'))
      .reduce((s, f) => s + fs.statSync(path.join(dataDir, f)).size, 0);
  }
  const c = new pg.Client({ connectionString: target.url });
  await c.connect();
  try {
    return Number((await c.query('select pg_database_size(current_database()) as n')).rows[0].n);
  } finally {
    await c.end();
  }
}

interface Row {
  db: string;
  n: number;
  /** Accounts the embedded chain holds (chain_account rows): what start-up must not grow with. */
  accounts: number;
  fillS: number | null;
  startS: number;
  rssStart: number;
  rssLoad: number;
  /** The checkout whose server was measured. */
  server: string;
  healthz: LoadResult;
  trpc: LoadResult;
  cold: LoadResult;
  /** Cold verifies sent at the target share of `healthz`'s rate (open loop): the latency at that load. */
  coldPaced: LoadResult;
  warm: LoadResult;
  /** Every request a hash nobody anchored (a forged or altered document): computed from the chain, nothing stored. */
  unknown: LoadResult;
  dbBytes: number;
  load: string;
}

async function measure(dbKind: string, n: number, dataDir: string, target: DatabaseTarget, fillS: number | null, serverRoot: string): Promise<Row> {
  const accounts = await accountCount(target);
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, ATTESTA_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', ATTESTA_DEMO_DATA: 'false', LOG_LEVEL: 'warn' };
  if (target.kind === 'postgres') env.DATABASE_URL = target.url;
  else delete env.DATABASE_URL;
  const t0 = performance.now();
  const child: ChildProcess = spawn(process.execPath, serverArgs(serverRoot), { cwd: serverRoot, env, stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise((r) => child.once('exit', r));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
      if (await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok).catch(() => false)) break;
      if (performance.now() - t0 > 600_000) throw new Error('server did not answer within 10 minutes');
      await new Promise((r) => setTimeout(r, 20));
    }
    const startS = (performance.now() - t0) / 1000;
    await new Promise((r) => setTimeout(r, 2000)); // start-up's background work settles
    const rssStart = rssOf(child.pid!);
    const gen = loadGenerator(port, CONCURRENCY);
    const healthz = await gen.load(() => '/healthz', { durationMs: DURATION_MS });
    const trpc = await gen.load(() => '/trpc/health', { durationMs: DURATION_MS });
    // Cold: every request another certificate, in an order unrelated to how they were filled (a
    // stride coprime to n). First COLD_WARMUP_MS of them unmeasured: the first seconds of cold verifies
    // after a start are V8 optimising the path (on two busy cores 1,100 → 2,900 req/s over the first
    // 4–6 s at 1,000,000), the same at every N, not a cost of N (#15, tenth round). Then a pause longer
    // than the server keeps a verdict, and at most n measured, going on after the warm-up's hashes:
    // none of them can be a cached answer, and from 100,000 up none was asked before in this run (at
    // 10,000 the warm-up asks every hash; the whole table is in memory at that size anyway).
    const stride = [1_000_003, 999_983, 7_919].find((p) => n % p !== 0)!;
    const coldPath = (i: number) => `/api/v1/verify/hash/${certHash((i * stride + 17) % n).toString('hex')}`;
    const warmup = await gen.load(coldPath, { durationMs: COLD_WARMUP_MS, warmupMs: 0 });
    await new Promise((r) => setTimeout(r, VERDICT_CACHE_TTL_MS + 100));
    const cold = await gen.load((i) => coldPath(warmup.n + i), { durationMs: DURATION_MS, warmupMs: 0, maxRequests: n });
    // At the throughput target's rate (a quarter of /healthz's), sent on a schedule; every hash again
    // one not asked within the verdict cache's lifetime.
    await new Promise((r) => setTimeout(r, VERDICT_CACHE_TTL_MS + 100));
    const coldPaced = await gen.paced((i) => coldPath(warmup.n + cold.n + i), { rate: T.coldShare * healthz.rps, durationMs: DURATION_MS });
    const one = certHash(0).toString('hex');
    const warm = await gen.load(() => `/api/v1/verify/hash/${one}`, { durationMs: DURATION_MS });
    const unknownPath = (i: number) => `/api/v1/verify/hash/${createHash('sha256').update(`attesta-scale-unanchored:${i}`).digest('hex')}`;
    const unknown = await gen.load(unknownPath, { durationMs: DURATION_MS, warmupMs: 1000 });
    gen.close();
    const rssLoad = rssOf(child.pid!);
    return { server: serverRoot, db: dbKind, n, accounts, fillS, startS, rssStart, rssLoad, healthz, trpc, cold, coldPaced, warm, unknown, dbBytes: await dbSize(dataDir, target), load: load() };
  } finally {
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}

async function adminQuery(c: PgCluster, text: string) {
  const admin = new pg.Client({ connectionString: c.adminUrl });
  await admin.connect();
  try {
    return await admin.query(text);
  } finally {
    await admin.end();
  }
}

function databaseUrl(c: PgCluster, n: number): string {
  const url = new URL(c.adminUrl);
  url.pathname = `/scale_${n}`;
  return url.toString();
}

/**
 * --reuse on PostgreSQL: the fill of n kept in the kept cluster (database scale_<n>, data dir
 * postgres-<n> under the cache root, markers as for SQLite), made or finished now. A fill stopped
 * part-way goes on where it stopped; a new one starts from a copy of the largest smaller complete fill
 * (`create database … template`), as SQLite's do.
 */
async function keptPostgresFill(c: PgCluster, n: number): Promise<{ dataDir: string; target: DatabaseTarget; fillS: number | null }> {
  const dataDir = path.join(cacheRoot, `postgres-${n}`);
  const target: DatabaseTarget = { kind: 'postgres', url: databaseUrl(c, n) };
  const exists = async (k: number) => !!(await adminQuery(c, `select 1 from pg_database where datname = 'scale_${k}'`)).rowCount;
  if (fs.existsSync(path.join(dataDir, 'filled')) && (await exists(n))) {
    console.log(`postgres, N = ${n.toLocaleString()}: reusing database scale_${n} and ${dataDir}`);
    return { dataDir, target, fillS: null };
  }
  const sqliteFill = path.join(cacheRoot, `sqlite-${n}`);
  if (FROM_SQLITE && fs.existsSync(path.join(sqliteFill, 'filled'))) {
    console.log(`postgres, N = ${n.toLocaleString()}: copying the SQLite fill ${sqliteFill}`);
    const t0 = performance.now();
    fs.rmSync(dataDir, { recursive: true, force: true });
    await adminQuery(c, `drop database if exists scale_${n}`);
    await adminQuery(c, `create database scale_${n}`);
    // The data dir's other files (the operator's key) with it: the chain's accounts are that operator's.
    fs.cpSync(sqliteFill, dataDir, { recursive: true, filter: (f) => !path.basename(f).startsWith('attesta.sqlite') && path.basename(f) !== 'filled' });
    await copySqliteToPostgres(path.join(sqliteFill, 'attesta.sqlite'), target.url, console.log);
    const seconds = (performance.now() - t0) / 1000;
    fs.writeFileSync(path.join(dataDir, 'filled'), JSON.stringify({ n, seconds, copiedFrom: sqliteFill }));
    console.log(`postgres, N = ${n.toLocaleString()}: copied in ${seconds.toFixed(1)} s`);
    return { dataDir, target, fillS: seconds };
  }
  let base = fs.existsSync(path.join(dataDir, 'filling')) && (await exists(n)) ? await filledSoFar(target) : null;
  if (base === null) {
    fs.rmSync(dataDir, { recursive: true, force: true });
    await adminQuery(c, `drop database if exists scale_${n}`);
    base = largestKeptFill(n, 'postgres');
    if (base !== null && (await exists(base))) {
      await adminQuery(c, `create database scale_${n} template scale_${base}`);
      fs.cpSync(path.join(cacheRoot, `postgres-${base}`), dataDir, { recursive: true });
      fs.rmSync(path.join(dataDir, 'filled'));
    } else {
      base = null;
      await adminQuery(c, `create database scale_${n}`);
      fs.mkdirSync(dataDir, { recursive: true });
    }
    fs.writeFileSync(path.join(dataDir, 'filling'), '');
  }
  return { dataDir, target, fillS: await fillKept('postgres', dataDir, target, n, base) };
}

/** A kept fill made or finished from `base` (null: from empty), then marked `filled`; its seconds. */
async function fillKept(kind: 'sqlite' | 'postgres', dataDir: string, target: DatabaseTarget, n: number, base: number | null): Promise<number> {
  console.log(`${kind}, N = ${n.toLocaleString()}: filling${base ? ` on from ${base.toLocaleString()}` : ''}`);
  const f = await fill(dataDir, target, n, console.log, base ?? 0);
  fs.writeFileSync(path.join(dataDir, 'filled'), JSON.stringify({ n, seconds: f.seconds, from: base ?? 0 }));
  fs.rmSync(path.join(dataDir, 'filling'));
  const made = n - (base ?? 0);
  console.log(`${kind}, N = ${n.toLocaleString()}: filled ${made.toLocaleString()} in ${f.seconds.toFixed(1)} s (${(made / f.seconds).toFixed(0)} certificates/s; working set ${JSON.stringify(f.workingSet)})`);
  return f.seconds;
}

const rows: Row[] = [];
let cluster: PgCluster | null = null;
const temp: string[] = [];
const cleanup = () => {
  cluster?.stop();
  cluster = null;
  for (const d of temp) fs.rmSync(d, { recursive: true, force: true });
};
process.on('exit', cleanup);
process.on('SIGINT', () => process.exit(130));

console.log(`Attesta scale bench — N = ${SIZES.map((n) => n.toLocaleString()).join(', ')} on ${DBS.join(', ')}; server from ${SERVER_ROOTS.join(' and ')}; ${os.cpus().length} CPUs, load average ${load()}`);
for (const dbKind of DBS) {
  // With --reuse the PostgreSQL fills are kept too, in a cluster of their own under the cache root.
  if (dbKind === 'postgres') {
    cluster = await startPgCluster({ sharedBuffers: PG_SHARED_BUFFERS, ...(REUSE ? { keepIn: path.join(cacheRoot, 'postgres-cluster') } : {}) });
    console.log(`postgres: shared_buffers ${PG_SHARED_BUFFERS}`);
  }
  for (const n of SIZES) {
    let dataDir: string;
    let target: DatabaseTarget;
    let fillS: number | null = null;
    if (dbKind === 'sqlite') {
      dataDir = REUSE ? path.join(cacheRoot, `sqlite-${n}`) : fs.mkdtempSync(path.join(os.tmpdir(), 'attesta-scale-'));
      target = { kind: 'sqlite', file: path.join(dataDir, 'attesta.sqlite') };
      if (!REUSE) temp.push(dataDir);
      if (!fs.existsSync(path.join(dataDir, 'filled'))) {
        // A kept fill stopped part-way (killed: a batch is one transaction) goes on where it stopped.
        let base = REUSE && fs.existsSync(path.join(dataDir, 'filling')) ? await filledSoFar(target) : null;
        if (base === null) {
          fs.rmSync(dataDir, { recursive: true, force: true });
          base = REUSE ? largestKeptFill(n) : null;
          if (base) {
            fs.cpSync(path.join(cacheRoot, `sqlite-${base}`), dataDir, { recursive: true });
            fs.rmSync(path.join(dataDir, 'filled'));
          } else fs.mkdirSync(dataDir, { recursive: true });
          fs.writeFileSync(path.join(dataDir, 'filling'), '');
        }
        fillS = await fillKept('sqlite', dataDir, target, n, base);
      } else console.log(`sqlite, N = ${n.toLocaleString()}: reusing ${dataDir}`);
    } else if (REUSE) {
      ({ dataDir, target, fillS } = await keptPostgresFill(cluster!, n));
    } else {
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'attesta-scale-'));
      temp.push(dataDir);
      await adminQuery(cluster!, `create database scale_${n}`);
      target = { kind: 'postgres', url: databaseUrl(cluster!, n) };
      console.log(`postgres, N = ${n.toLocaleString()}: filling`);
      const f = await fill(dataDir, target, n, console.log);
      fillS = f.seconds;
      console.log(`postgres, N = ${n.toLocaleString()}: filled in ${f.seconds.toFixed(1)} s (${(n / f.seconds).toFixed(0)} certificates/s)`);
    }
    if (ACCOUNTS && n === Math.max(...SIZES)) await padAccounts(target, ACCOUNTS, console.log);
    await settleVerdicts(dataDir, target, console.log);
    if (FILL_ONLY) continue;
    await warmVerdictPages(target, console.log);
    for (let round = 0; round < ROUNDS; round++) {
      // Alternately A B, B A, …: neither server always runs on the caches the other warmed.
      for (const root of round % 2 ? [...SERVER_ROOTS].reverse() : SERVER_ROOTS) {
        const r = await measure(dbKind, n, dataDir, target, fillS, root);
        rows.push(r);
        console.log(
          `${dbKind}, N = ${n.toLocaleString()}${SERVER_ROOTS.length > 1 ? ` (${serverName(root)})` : ''}: start ${r.startS.toFixed(2)} s, rss ${mb(r.rssStart).toFixed(0)} → ${mb(r.rssLoad).toFixed(0)} MB, ` +
            `healthz ${r.healthz.rps.toFixed(0)}/s p99 ${r.healthz.p99.toFixed(2)} ms, cold ${r.cold.rps.toFixed(0)}/s p99 ${r.cold.p99.toFixed(2)} ms, at ${r.coldPaced.rps.toFixed(0)}/s p99 ${r.coldPaced.p99.toFixed(2)} ms, warm ${r.warm.rps.toFixed(0)}/s, unknown hash ${r.unknown.rps.toFixed(0)}/s p99 ${r.unknown.p99.toFixed(2)} ms (load ${r.load})`,
        );
      }
    }
  }
  if (dbKind === 'postgres') {
    cluster?.stop();
    cluster = null;
  }
}

// The table, then the targets.
const pct = (a: LoadResult, b: LoadResult) => `${((a.rps / b.rps) * 100).toFixed(0)}%`;
const table = [
  [...(SERVER_ROOTS.length > 1 ? ['server'] : []), 'db', 'certificates', 'accounts', 'fill s', 'start s', 'rss start MB', 'rss load MB', 'healthz req/s', 'healthz p99 ms', 'tRPC trivial', 'cold verify req/s', 'cold p99 ms', `cold at ${T.coldShare * 100} %: req/s`, 'p99 ms', 'warm verify req/s', 'warm p99 ms', 'unknown hash req/s', 'p99 ms', 'db MB', 'load avg'],
  ...rows.map((r) => [
    ...(SERVER_ROOTS.length > 1 ? [serverName(r.server)] : []), r.db, r.n.toLocaleString(), r.accounts.toLocaleString(), r.fillS === null ? 'reused' : r.fillS.toFixed(0), r.startS.toFixed(2), mb(r.rssStart).toFixed(0), mb(r.rssLoad).toFixed(0),
    r.healthz.rps.toFixed(0), r.healthz.p99.toFixed(2), `${r.trpc.rps.toFixed(0)} (${pct(r.trpc, r.healthz)})`, `${r.cold.rps.toFixed(0)} (${pct(r.cold, r.healthz)})`, r.cold.p99.toFixed(2),
    r.coldPaced.rps.toFixed(0), r.coldPaced.p99.toFixed(2),
    `${r.warm.rps.toFixed(0)} (${pct(r.warm, r.healthz)})`, r.warm.p99.toFixed(2), `${r.unknown.rps.toFixed(0)} (${pct(r.unknown, r.healthz)})`, r.unknown.p99.toFixed(2), mb(r.dbBytes).toFixed(0), r.load,
  ]),
];
console.log('');
for (const line of tableLines(table)) console.log(line);

const misses: string[] = [];
for (const r of rows) {
  const at = `${r.db} N=${r.n.toLocaleString()}`;
  if (r.startS > T.startS) misses.push(`${at}: start ${r.startS.toFixed(2)} s > ${T.startS} s`);
  if (mb(r.rssStart) > T.rssMb) misses.push(`${at}: rss after start ${mb(r.rssStart).toFixed(0)} MB > ${T.rssMb} MB`);
  if (mb(r.rssLoad) > T.rssMb) misses.push(`${at}: rss after load ${mb(r.rssLoad).toFixed(0)} MB > ${T.rssMb} MB`);
  if (r.cold.rps < T.coldShare * r.healthz.rps) misses.push(`${at}: cold verify ${pct(r.cold, r.healthz)} of /healthz < ${T.coldShare * 100}%`);
  if (r.cold.p99 >= T.coldP99Ms) misses.push(`${at}: cold verify p99 ${r.cold.p99.toFixed(2)} ms ≥ ${T.coldP99Ms} ms`);
  if (r.warm.rps < T.warmShare * r.healthz.rps) misses.push(`${at}: warm verify ${pct(r.warm, r.healthz)} of /healthz < ${T.warmShare * 100}%`);
  if (r.trpc.rps < T.trpcShare * r.healthz.rps) misses.push(`${at}: tRPC trivial ${pct(r.trpc, r.healthz)} of /healthz < ${T.trpcShare * 100}%`);
}
// Flat: the largest N within 1.5× (+0.5 s, +50 MB) of the smallest, cold share within 2/3 of it.
for (const dbKind of DBS) {
  const mine = rows.filter((r) => r.db === dbKind && r.server === SERVER_ROOTS.at(-1)).sort((a, b) => a.n - b.n);
  if (mine.length < 2) continue;
  const [lo, hi] = [mine[0], mine.at(-1)!];
  const span = `${dbKind} ${lo.n.toLocaleString()} → ${hi.n.toLocaleString()}`;
  if (hi.startS > lo.startS * 1.5 + 0.5) misses.push(`${span}: start not flat (${lo.startS.toFixed(2)} → ${hi.startS.toFixed(2)} s)`);
  if (mb(hi.rssStart) > mb(lo.rssStart) * 1.5 + 50) misses.push(`${span}: rss not flat (${mb(lo.rssStart).toFixed(0)} → ${mb(hi.rssStart).toFixed(0)} MB)`);
  if (hi.cold.rps / hi.healthz.rps < ((lo.cold.rps / lo.healthz.rps) * 2) / 3) misses.push(`${span}: cold verify not flat (${pct(lo.cold, lo.healthz)} → ${pct(hi.cold, hi.healthz)})`);
}
console.log(`\ntargets: start ≤ ${T.startS} s, rss ≤ ${T.rssMb} MB, both flat in N; cold verify ≥ ${T.coldShare * 100}% of /healthz with p99 < ${T.coldP99Ms} ms, flat in N; warm ≥ ${T.warmShare * 100}%; tRPC trivial ≥ ${T.trpcShare * 100}%`);
if (misses.length) {
  console.log(`NOT met (${misses.length}):`);
  for (const m of misses) console.log(`  ${m}`);
} else console.log('all met');
cleanup();
process.exit(misses.length ? 1 : 0);
