// [DATABASE_URL=postgres://…] npm run bench:soak [--duration 10m] [--rate 20] [--url http://127.0.0.1:3000 [--pid <server pid>]]
// Fixed-rate open-loop mixed load (sign-ins with new wallets, certificate creates with unique real PDFs,
// status polls until verified, public lookups) against one server; per-window latency/errors, the
// server's memory every 10 s, its event-loop delay and the verification backlog; PASS/FAIL targets;
// exit 1 on FAIL. Without --url it starts its own server in a child process (temp data dir, port 0,
// pipeline worker on) that reports over IPC, so memory and event-loop delay are the server's alone —
// not this load generator's (whose PDFs are made before the load starts).
// With --url, start that server with SIGN_IN_RATE_LIMIT_PER_IP and CERTIFICATE_RATE_LIMIT_PER_IP raised
// (e.g. 1000000): every simulated holder comes from this machine's one address.
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { certForm, makeClient, makePdf, signIn, startTestServer, tmpDataDir } from '../test/helpers';
import { tableLines } from './report';

export interface SoakOptions {
  durationMs: number;
  /** Requests per second across all kinds (open loop: issued on schedule whether or not earlier ones finished). */
  rate: number;
  /** An already running server; default: start one in this process. */
  url?: string;
  /** With --url: the server's pid, to read VmRSS from /proc (heap is then unknown). */
  pid?: number;
  /** Report window; default 60 s, or 10 s when the run is shorter than 3 minutes. */
  windowMs?: number;
  memEveryMs?: number;
  /** How long to wait after the load for pending certificates to verify. */
  settleMs?: number;
  log?: (line: string) => void;
}

export type OpKind = 'signIn' | 'create' | 'poll' | 'verifyHash' | 'publicView';
export interface WindowRow {
  index: number; startS: number; endS: number; requests: number; errors: number; p50: number; p99: number; rss?: number; heap?: number;
  /** The server's event-loop delay p99 / max over the window (ms); unknown for a remote server. */
  eldP99?: number; eldMax?: number;
  /** Verification jobs queued or running at the window's end, and the most seen in any sample of it. */
  backlog?: number; backlogMax?: number;
}
export interface MemSample { atMs: number; rss?: number; heap?: number; backlog?: number }
/** What the server process reports (its own figures). */
export interface Probe { rss?: number; heap?: number; backlog?: number; eldP99?: number; eldMax?: number }
export interface Target { name: string; pass: boolean; detail: string }
export interface SoakResult {
  url: string;
  durationMs: number;
  rate: number;
  windowMs: number;
  requests: number;
  errors: number;
  errorSamples: string[];
  byKind: Record<OpKind, { requests: number; errors: number; p50: number; p99: number }>;
  windows: WindowRow[];
  memSamples: MemSample[];
  certificates: { created: number; verified: number; pending: number; other: number };
  targets: Target[];
  pass: boolean;
  table: string;
}

// Share of each kind in the mix; polls outnumber creates so every certificate gets polled to the end.
const MIX: [OpKind, number][] = [['signIn', 0.1], ['create', 0.15], ['poll', 0.25], ['verifyHash', 0.25], ['publicView', 0.25]];
const POOL_MAX = 50; // signed-in clients kept for creates (older ones are dropped)
const KNOWN_MAX = 200; // settled certificates kept for public lookups
const INFLIGHT_MAX = 1000; // past this the server is not keeping up: count as errors instead of piling on
const claims = { title: 'Soak Certificate', institution_name: 'Loopback Institute', program_name: 'Sustained Load Studies', issue_date: '2025-02-01' };

type Client = ReturnType<typeof makeClient>;
// `outcome` is all that is kept of a certificate once it leaves the bounded lists (so the generator's
// own memory stays flat and the rss figure is the server's growth).
interface Cert { id: string; userId: string; sha256: string; owner: Client; status: string; outcome: { status: string } }

const quantile = (sorted: number[], q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : NaN);
const mb = (b?: number) => (b === undefined ? 'n/a' : (b / 1024 / 1024).toFixed(1));
const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '-');

function readMem(pid?: number): { rss?: number; heap?: number } {
  if (pid === undefined) return {};
  try {
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return { rss: m ? Number(m[1]) * 1024 : undefined };
  } catch {
    return {};
  }
}

export function parseDuration(s: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(s.trim());
  if (!m) throw new Error(`bad duration "${s}" (e.g. 30s, 10m)`);
  return Number(m[1]) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(m[2] ?? 's') as 'ms' | 's' | 'm' | 'h'];
}

/** Child side (`--serve`): starts the server, answers probes over IPC until told to close. */
async function serveChild() {
  const dataDir = tmpDataDir();
  // Every simulated holder signs in and adds certificates from 127.0.0.1: lift the per-address sign-in
  // and certificate limits for the load. The per-wallet certificate limits stay at their defaults (the
  // load spreads creates over its wallets, ~1.5 each: see prepareCreate), so their checks are measured.
  // DATABASE_URL in the bench's environment soaks the PostgreSQL backend (an empty database) instead of SQLite.
  const database: Record<string, string> = process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {};
  const server = await startTestServer(dataDir, { ATTESTA_WORKER: 'true', SIGN_IN_RATE_LIMIT_PER_IP: '1000000', CERTIFICATE_RATE_LIMIT_PER_IP: '1000000', ...database });
  const eld = monitorEventLoopDelay({ resolution: 5 });
  eld.enable();
  const close = async () => {
    eld.disable();
    await server.close().catch(() => undefined);
    fs.rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  };
  process.on('disconnect', () => void close()); // the generator died: never outlive it
  process.on('message', async (m: { id: number; type: 'probe' | 'close'; reset?: boolean }) => {
    if (m.type === 'close') return close();
    const mem = process.memoryUsage();
    const row = await server.services.db
      .selectFrom('verification_job')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', 'in', ['queued', 'running'])
      .executeTakeFirstOrThrow();
    const probe: Probe = { rss: mem.rss, heap: mem.heapUsed, backlog: Number(row.n), eldP99: eld.percentile(99) / 1e6, eldMax: eld.max / 1e6 };
    if (m.reset) eld.reset();
    process.send!({ id: m.id, probe });
  });
  process.send!({ id: 0, url: server.url });
}

/** Generator side: forks this file with `--serve`; `probe(reset)` asks the server for its figures. */
async function startChildServer(): Promise<{ url: string; probe: (reset: boolean) => Promise<Probe>; close: () => Promise<void> }> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['--serve'], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const waiting = new Map<number, (m: { probe?: Probe; url?: string }) => void>();
  let nextId = 1;
  let exited = false;
  const ready = new Promise<string>((resolve, reject) => {
    waiting.set(0, (m) => (m.url ? resolve(m.url) : reject(new Error('soak server process exited before it was ready'))));
  });
  child.once('exit', () => {
    exited = true;
    for (const w of waiting.values()) w({}); // unanswered probes resolve empty (counted as unknown)
    waiting.clear();
  });
  child.on('message', (m: { id: number; probe?: Probe; url?: string }) => {
    waiting.get(m.id)?.(m);
    waiting.delete(m.id);
  });
  const url = await ready;
  return {
    url,
    probe: (reset) =>
      exited
        ? Promise.resolve({})
        : new Promise<Probe>((resolve) => {
            const id = nextId++;
            waiting.set(id, (m) => resolve(m.probe ?? {}));
            child.send({ id, type: 'probe', reset });
          }),
    close: () =>
      exited
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            child.once('exit', () => resolve());
            child.send({ id: -1, type: 'close' });
          }),
  };
}

export async function runSoak(opts: SoakOptions): Promise<SoakResult> {
  if (opts.url) {
    const pid = opts.pid;
    return drive(opts, opts.url.replace(/\/$/, ''), async () => readMem(pid));
  }
  const server = await startChildServer();
  try {
    return await drive(opts, server.url, server.probe);
  } finally {
    await server.close();
  }
}

async function drive(opts: SoakOptions, base: string, probe: (reset: boolean) => Promise<Probe>): Promise<SoakResult> {
  const log = opts.log ?? (() => {});
  const windowMs = opts.windowMs ?? (opts.durationMs < 180_000 ? 10_000 : 60_000);
  const memEveryMs = opts.memEveryMs ?? 10_000;
  const settleMs = opts.settleMs ?? 30_000;
  const memAvailable = !opts.url || opts.pid !== undefined;

  const pool: Client[] = [];
  const certs: { status: string }[] = []; // outcome of every certificate created during the load
  const pending: Cert[] = []; // polled round-robin until settled
  const known: Cert[] = []; // settled, for public lookups
  const records: { startMs: number; kind: OpKind; latency: number; ok: boolean }[] = [];
  const errorSamples: string[] = [];
  let pollCursor = 0;

  const settle = (c: Cert, status: string) => {
    c.status = status;
    c.outcome.status = status;
    if (status === 'pending') return;
    const i = pending.indexOf(c);
    if (i >= 0) pending.splice(i, 1);
    known.push(c);
    if (known.length > KNOWN_MAX) known.shift();
  };

  async function doSignIn() {
    const c = makeClient(base);
    await signIn(c);
    pool.push(c);
    if (pool.length > POOL_MAX) pool.shift();
  }
  // Unique bytes per create (makePdf adds a random ref line); text matches the claims. Made before the
  // load (the mix's expected creates + 6σ) so the generator does not compete with the server for CPU.
  const newPdf = () => makePdf([claims.institution_name, claims.title, claims.program_name]);
  const pdfs: Uint8Array[] = [];
  // Creates go to the pooled holder with the fewest so far, as real holders each add a few: with sign-ins
  // at 2/3 of the create rate every wallet adds 1–2 certificates, far under the per-wallet limits
  // (CERTIFICATE_RATE_LIMIT_PER_WALLET, ATTESTA_DAILY_ANCHORS_PER_WALLET), at any rate and duration.
  const createsBy = new WeakMap<Client, number>();
  async function prepareCreate(): Promise<() => Promise<void>> {
    const owner = pool.reduce((a, b) => ((createsBy.get(b) ?? 0) < (createsBy.get(a) ?? 0) ? b : a));
    createsBy.set(owner, (createsBy.get(owner) ?? 0) + 1);
    const pdf = pdfs.pop() ?? (await newPdf());
    const fd = certForm(claims, { bytes: pdf, name: 'soak.pdf', type: 'application/pdf' });
    return async () => {
      const r = await owner.client.certificate.create.mutate(fd);
      const c: Cert = { id: r.id, userId: r.user_id, sha256: r.sha256, owner, status: r.verification_status, outcome: { status: r.verification_status } };
      certs.push(c.outcome);
      if (c.status === 'pending') pending.push(c);
      else settle(c, c.status);
    };
  }
  async function doPoll() {
    // Pending ones first (that is what a holder's page does); otherwise re-read a settled one.
    const c = pending.length ? pending[pollCursor++ % pending.length] : known[Math.floor(Math.random() * known.length)];
    const r = await c.owner.client.certificate.byId.query({ id: c.id });
    if (r.verification_status !== c.status || c.status === 'pending') settle(c, r.verification_status);
  }
  async function doVerifyHash() {
    const c = known[Math.floor(Math.random() * known.length)];
    const res = await fetch(`${base}/api/v1/verify/hash/${c.sha256}`);
    const body = (await res.json()) as Record<string, unknown>;
    if (res.status !== 200) throw new Error(`verify/hash HTTP ${res.status}: ${JSON.stringify(body).slice(0, 200)}`);
  }
  async function doPublicView() {
    const c = known[Math.floor(Math.random() * known.length)];
    const r = await c.owner.client.public.view.query({ userId: c.userId, certificateId: c.id });
    if (!r) throw new Error('public.view returned nothing');
  }

  // Setup (not measured): one holder with one verified certificate, so lookups have targets from the
  // start and the first document check (pdfjs loads lazily) is not in the first window.
  await doSignIn();
  await (await prepareCreate())();
  const setupEnd = Date.now() + 60_000;
  while (pending.length && Date.now() < setupEnd) {
    await doPoll();
    await new Promise((r) => setTimeout(r, 50));
  }
  if (pending.length) throw new Error('setup certificate did not settle within 60 s');
  certs.length = 0; // only load-phase certificates are counted
  const total = Math.max(1, Math.floor((opts.durationMs / 1000) * opts.rate));
  const createShare = MIX.find(([k]) => k === 'create')![1];
  const expectedCreates = total * createShare;
  for (let i = Math.ceil(expectedCreates + 6 * Math.sqrt(expectedCreates * (1 - createShare)) + 5); i > 0; i--) pdfs.push(await newPdf());

  const memSamples: MemSample[] = [];
  // Event-loop delay per window: the probe at each window's end reports since the previous one and resets.
  const eldByWindow = new Map<number, { p99?: number; max?: number; backlog?: number }>();
  await probe(true);
  const t0 = performance.now();
  const sampleMem = async () => {
    const atMs = performance.now() - t0;
    const p = await probe(false);
    memSamples.push({ atMs, rss: p.rss, heap: p.heap, backlog: p.backlog });
  };
  await sampleMem();
  const memTimer = setInterval(() => void sampleMem(), memEveryMs);
  memTimer.unref(); // never what keeps the process alive if the load throws
  const nWinPlanned = Math.max(1, Math.ceil(opts.durationMs / windowMs));
  let windowsEnded = 0;
  const endWindow = async () => {
    const w = windowsEnded++;
    const p = await probe(true);
    eldByWindow.set(w, { p99: p.eldP99, max: p.eldMax, backlog: p.backlog });
  };
  const windowTimer = setInterval(() => {
    if (windowsEnded < nWinPlanned - 1) void endWindow();
  }, windowMs);
  windowTimer.unref();

  let inflight = 0;
  let closed = false; // set once the unfinished requests have been counted
  const running = new Set<Promise<void>>();
  const fire = (kind: OpKind, startMs: number) => {
    const p = (async () => {
      let ok = false;
      let started = startMs;
      try {
        if (inflight >= INFLIGHT_MAX) throw new Error(`in-flight cap ${INFLIGHT_MAX} reached`);
        inflight++;
        try {
          let op: () => Promise<void>;
          const k = kind === 'create' && !pool.length ? 'signIn' : kind;
          if (k === 'create') {
            const run = await prepareCreate();
            started = performance.now() - t0; // PDF generation is the client's work, not latency
            op = run;
          } else op = k === 'signIn' ? doSignIn : k === 'poll' ? doPoll : k === 'verifyHash' ? doVerifyHash : doPublicView;
          const s = performance.now();
          await op();
          if (!closed) records.push({ startMs: started, kind, latency: performance.now() - s, ok: true });
          ok = true;
        } finally {
          inflight--;
        }
      } catch (e) {
        if (errorSamples.length < 10) errorSamples.push(`${kind}: ${(e as Error).message}`.slice(0, 300));
      }
      if (!ok && !closed) records.push({ startMs: started, kind, latency: NaN, ok: false });
    })();
    running.add(p);
    void p.finally(() => running.delete(p));
  };

  // Open loop: request i is due at t0 + i/rate, whatever happened to the earlier ones.
  const cumulative = MIX.map((_, i) => MIX.slice(0, i + 1).reduce((a, [, x]) => a + x, 0));
  let nextLog = windowMs;
  for (let i = 0; i < total; i++) {
    const due = (i * 1000) / opts.rate;
    const wait = due - (performance.now() - t0);
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const u = Math.random();
    const kind = MIX[cumulative.findIndex((c) => u < c)]?.[0] ?? 'publicView';
    fire(kind, performance.now() - t0);
    if (performance.now() - t0 >= nextLog) {
      log(`  … ${(nextLog / 1000).toFixed(0)} s: ${records.length} done, ${inflight} in flight, ${records.filter((r) => !r.ok).length} errors`);
      nextLog += windowMs;
    }
  }
  const waitEnd = opts.durationMs + 5_000;
  while (performance.now() - t0 < opts.durationMs) await new Promise((r) => setTimeout(r, 50));
  clearInterval(memTimer);
  clearInterval(windowTimer);
  await sampleMem(); // the last window's memory is taken when the load stops
  while (windowsEnded < nWinPlanned) await endWindow();
  await Promise.race([Promise.allSettled([...running]), new Promise((r) => setTimeout(r, Math.max(0, waitEnd - (performance.now() - t0))))]);
  // Still running 5 s after the load: counted as errors (they would otherwise vanish from the figures).
  const unfinished = running.size;
  closed = true;
  if (unfinished && errorSamples.length < 10) errorSamples.push(`${unfinished} requests unfinished 5 s after the load stopped`);
  const loadMs = performance.now() - t0;

  // Settle: give the pipeline up to settleMs to finish what the load created (polls here are not measured).
  const settleEnd = Date.now() + settleMs;
  while (pending.length && Date.now() < settleEnd) {
    for (const c of [...pending]) {
      try {
        const r = await c.owner.client.certificate.byId.query({ id: c.id });
        settle(c, r.verification_status);
      } catch {
        /* counted as still pending */
      }
    }
    if (pending.length) await new Promise((r) => setTimeout(r, 250));
  }
  const certificates = {
    created: certs.length,
    verified: certs.filter((c) => c.status === 'verified').length,
    pending: certs.filter((c) => c.status === 'pending').length,
    other: certs.filter((c) => c.status !== 'verified' && c.status !== 'pending').length,
  };

  // Windows by request start time.
  const nWin = Math.max(1, Math.ceil(opts.durationMs / windowMs));
  const windows: WindowRow[] = [];
  for (let w = 0; w < nWin; w++) {
    const a = w * windowMs;
    const b = Math.min(opts.durationMs, (w + 1) * windowMs);
    const rs = records.filter((r) => r.startMs >= a && (w === nWin - 1 ? true : r.startMs < b));
    const lat = rs.filter((r) => r.ok).map((r) => r.latency).sort((x, y) => x - y);
    // Memory of a window: the last sample taken by its end.
    const mem = [...memSamples].reverse().find((m) => m.atMs <= b + 1_000) ?? memSamples[0];
    const e = eldByWindow.get(w);
    const backlogs = [...memSamples.filter((m) => m.atMs > a && m.atMs <= b + 1_000).map((m) => m.backlog), e?.backlog].filter((x): x is number => x !== undefined);
    windows.push({
      index: w, startS: a / 1000, endS: b / 1000, requests: rs.length, errors: rs.filter((r) => !r.ok).length, p50: quantile(lat, 0.5), p99: quantile(lat, 0.99),
      rss: mem?.rss, heap: mem?.heap, eldP99: e?.p99, eldMax: e?.max, backlog: e?.backlog, backlogMax: backlogs.length ? Math.max(...backlogs) : undefined,
    });
  }
  const byKind = Object.fromEntries(
    MIX.map(([k]) => {
      const rs = records.filter((r) => r.kind === k);
      const lat = rs.filter((r) => r.ok).map((r) => r.latency).sort((x, y) => x - y);
      return [k, { requests: rs.length, errors: rs.filter((r) => !r.ok).length, p50: quantile(lat, 0.5), p99: quantile(lat, 0.99) }];
    }),
  ) as SoakResult['byKind'];

  const errors = records.filter((r) => !r.ok).length + unfinished;
  const first = windows[0];
  const last = windows.at(-1)!;
  const targets: Target[] = [
    { name: 'errors = 0', pass: errors === 0, detail: `${errors} of ${records.length + unfinished}` },
    {
      name: 'p99 last window ≤ 2× first',
      pass: nWin < 2 || last.p99 <= 2 * first.p99,
      detail: nWin < 2 ? 'one window only' : `${ms(last.p99)} ms vs ${ms(first.p99)} ms (limit ${ms(2 * first.p99)})`,
    },
    memAvailable && first.rss !== undefined && last.rss !== undefined
      ? { name: 'rss last window ≤ +20% of first', pass: nWin < 2 || last.rss <= first.rss * 1.2, detail: `${mb(last.rss)} MB vs ${mb(first.rss)} MB (${(((last.rss - first.rss) / first.rss) * 100).toFixed(0)}%)` }
      : { name: 'rss last window ≤ +20% of first', pass: true, detail: 'not measured (remote server without --pid)' },
    {
      name: 'all certificates verified',
      pass: certificates.created > 0 && certificates.verified === certificates.created,
      detail: `${certificates.verified}/${certificates.created} verified, ${certificates.pending} pending, ${certificates.other} other (after ≤ ${settleMs / 1000} s)`,
    },
  ];
  const pass = targets.every((t) => t.pass);

  const lines: string[] = [];
  const table = (rows: string[][]) => lines.push(...tableLines(rows));
  lines.push(
    `Attesta soak — ${base}, ${(opts.durationMs / 1000).toFixed(0)} s at ${opts.rate} req/s open loop (load phase took ${(loadMs / 1000).toFixed(1)} s), ` +
      `${os.cpus().length} CPUs, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`,
  );
  table([
    ['window', 'requests', 'errors', 'p50 ms', 'p99 ms', 'rss MB', 'heap MB', 'loop p99 ms', 'loop max ms', 'backlog end/max'],
    ...windows.map((w) => [
      `${w.startS.toFixed(0)}–${w.endS.toFixed(0)} s`, String(w.requests), String(w.errors), ms(w.p50), ms(w.p99), mb(w.rss), mb(w.heap),
      w.eldP99 === undefined ? 'n/a' : ms(w.eldP99), w.eldMax === undefined ? 'n/a' : ms(w.eldMax),
      w.backlog === undefined ? 'n/a' : `${w.backlog}/${w.backlogMax ?? w.backlog}`,
    ]),
  ]);
  lines.push('');
  table([['kind', 'requests', 'errors', 'p50 ms', 'p99 ms'], ...MIX.map(([k]) => [k, String(byKind[k].requests), String(byKind[k].errors), ms(byKind[k].p50), ms(byKind[k].p99)])]);
  lines.push('');
  table([['target', 'result', 'detail'], ...targets.map((t) => [t.name, t.pass ? 'PASS' : 'FAIL', t.detail])]);
  if (errorSamples.length) lines.push('', 'first errors:', ...errorSamples.map((e) => `  ${e}`));
  lines.push('', pass ? 'soak: PASS' : 'soak: FAIL');

  return {
    url: base, durationMs: opts.durationMs, rate: opts.rate, windowMs, requests: records.length, errors, errorSamples, byKind,
    windows, memSamples, certificates, targets, pass, table: lines.join('\n'),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href && process.argv.includes('--serve')) {
  await serveChild();
} else if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i >= 0 ? process.argv[i + 1] : undefined;
  };
  const url = arg('url');
  if (url && !/^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?\/?$/.test(url)) throw new Error('--url must be a loopback address (http://127.0.0.1:PORT)');
  const result = await runSoak({
    durationMs: parseDuration(arg('duration') ?? '10m'),
    rate: Number(arg('rate') ?? 20),
    url,
    pid: arg('pid') ? Number(arg('pid')) : undefined,
    log: (l) => console.log(l),
  });
  console.log(`\n${result.table}`);
  process.exit(result.pass ? 0 : 1);
}
