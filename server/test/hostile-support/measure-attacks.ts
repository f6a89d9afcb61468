// Measures two red-team attacks against a real server process (not part of `npm test`):
//
//   npx tsx server/test/hostile-support/measure-attacks.ts upload [MB]      chunked `Multipart/form-data`
//       of MB (default 400) to /trpc/public.verifyFile, no Content-Length: status, bytes sent when the
//       answer came, server RSS before / peak / after.
//   npx tsx server/test/hostile-support/measure-attacks.ts bomb-upload [MB] a PDF whose content stream
//       inflates to MB (default 1500) uploaded with certificate.create, then verified by the pipeline.
//   npx tsx server/test/hostile-support/measure-attacks.ts bomb-check [MB] [lifted]  checkDocument on the
//       same PDF, called inside the server process (the pipeline's path, upload bypassed); `lifted`
//       lifts the decoded-size limit so the parser itself meets the bomb.
//   npx tsx server/test/hostile-support/measure-attacks.ts slow-parse [rounds]  certificate.create with
//       a PDF that is slow to parse (one array of 4.9M numbers) and a 4 Mpx PNG sent again and again
//       (each a duplicate after its conversion), `rounds` times each (default 3).
//
// For each: server RSS (from /proc: the server process, and its document reader processes apart) and
// /healthz latency polled every 100 ms during the attack (max, p50, failures).
import { fork, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../..');
const MB = 1024 * 1024;

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
}

/** The server's child processes (document readers, after the fix), from /proc. */
function childPids(pid: number): number[] {
  try {
    return fs.readdirSync(`/proc/${pid}/task`).flatMap((t) => fs.readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number));
  } catch {
    return [];
  }
}

function childrenRssMb(pid: number): number {
  return childPids(pid).reduce((n, c) => {
    try {
      return n + (rssMb(c) || 0);
    } catch {
      return n; // exited meanwhile
    }
  }, 0);
}

async function waitForUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (d) => process.stderr.write(d));
    child.once('exit', (code) => reject(new Error(`server exited (${code}) before listening: ${out}`)));
  });
}

/** Polls /healthz every 100 ms until stopped: latency of each answer, and requests that failed. */
function pollHealth(url: string) {
  const latencies: number[] = [];
  let failures = 0;
  let stop = false;
  const loop = (async () => {
    while (!stop) {
      const t = performance.now();
      try {
        const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(60_000) });
        await res.text();
        if (res.status === 200) latencies.push(performance.now() - t);
        else failures++;
      } catch {
        failures++;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return {
    async stop() {
      stop = true;
      await loop;
      const s = [...latencies].sort((a, b) => a - b);
      return { answers: s.length, failures, p50: Math.round(s[Math.floor(s.length / 2)] ?? NaN), max: Math.round(s[s.length - 1] ?? NaN) };
    },
  };
}

/** Peak RSS of the server process, and of its child processes together (document readers), while sampling. */
function sampleRss(pid: number) {
  let peak = rssMb(pid);
  let children = childrenRssMb(pid);
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssMb(pid));
      children = Math.max(children, childrenRssMb(pid));
    } catch {
      /* exited */
    }
  }, 50);
  return () => (clearInterval(timer), { peak, readersPeak: children });
}

/** Streams `total` bytes as a chunked body (no Content-Length); stops when the server answers or hangs up. */
function chunkedUpload(url: string, total: number, headers: Record<string, string>) {
  return new Promise<{ status: number | string; sentMb: number; body: string }>((resolve) => {
    const u = new URL(url);
    const req = http.request({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers: { ...headers, 'transfer-encoding': 'chunked' } });
    let sent = 0;
    let answered = false;
    const chunk = Buffer.alloc(MB, 0x41);
    const finish = (status: number | string, body = '') => {
      if (answered) return;
      answered = true;
      resolve({ status, sentMb: Math.round(sent / MB), body: body.slice(0, 300) });
    };
    req.on('response', (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => finish(res.statusCode ?? 0, body));
      res.on('error', () => finish(res.statusCode ?? 0, body));
    });
    req.on('error', (e) => setTimeout(() => finish(`error ${(e as NodeJS.ErrnoException).code ?? e.message}`), 500));
    const boundary = '--x\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n\r\n';
    req.write(boundary);
    const pump = () => {
      while (!answered && sent < total) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      if (!answered) req.end('\r\n--x--\r\n');
    };
    pump();
  });
}

async function startServerProcess(dataDir: string) {
  // `node --import tsx` (not the tsx CLI) so the pid measured is the server's own.
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server/src/main.ts')], {
    cwd: root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ATTESTA_DATA_DIR: dataDir, ATTESTA_DEMO_DATA: 'false', LOG_LEVEL: 'silent', APP_DIST_DIR: path.join(dataDir, 'no-app') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await waitForUrl(child);
  return { child, url };
}

async function settle(pid: number, ms = 5000) {
  await new Promise((r) => setTimeout(r, ms));
  return rssMb(pid);
}

async function uploadAttack(totalMb: number) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'attesta-measure-'));
  const { child, url } = await startServerProcess(dataDir);
  try {
    const pid = child.pid!;
    await fetch(`${url}/healthz`);
    const before = await settle(pid, 2000);
    const health = pollHealth(url);
    const peak = sampleRss(pid);
    const results: Record<string, unknown> = {};
    for (const [label, ct] of [['Multipart/form-data', 'Multipart/form-data; boundary=x'], ['MULTIPART/FORM-DATA', 'MULTIPART/FORM-DATA; boundary=x']] as const) {
      results[label] = await chunkedUpload(`${url}/trpc/public.verifyFile`, totalMb * MB, { 'content-type': ct });
    }
    const peakMb = peak();
    const h = await health.stop();
    const after = await settle(pid);
    console.log(JSON.stringify({ attack: `chunked upload of ${totalMb} MB to /trpc/public.verifyFile`, results, rssMb: { before, peak: peakMb.peak, after5s: after, readerProcessesPeak: peakMb.readersPeak }, healthz: h }, null, 2));
  } finally {
    child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function bombUpload(inflatedMb: number) {
  const { pdfFlateBomb } = await import('./files');
  const { makeClient, signIn, certForm } = await import('../helpers');
  const bomb = await pdfFlateBomb(inflatedMb * 1_000_000);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'attesta-measure-'));
  const { child, url } = await startServerProcess(dataDir);
  try {
    const pid = child.pid!;
    const c = makeClient(url);
    await signIn(c);
    const before = await settle(pid, 2000);
    const health = pollHealth(url);
    const peak = sampleRss(pid);
    const started = Date.now();
    const upload = await c.client.certificate.create
      .mutate(certForm({ title: 'Certificate of Completion', institution_name: 'Bomb Academy', program_name: 'Inflation', issue_date: '2025-01-01' }, { bytes: bomb, name: 'bomb.pdf', type: 'application/pdf' }))
      .then((cert) => ({ accepted: cert.id as string, message: '' }), (e: Error) => ({ accepted: null, message: e.message }));
    let status = 'refused at upload';
    let reason: unknown = null;
    if (upload.accepted) {
      // The pipeline parses it in the background: wait for its verdict.
      for (;;) {
        const cert = await c.client.certificate.byId.query({ id: upload.accepted });
        if (cert.verification_status !== 'pending' || Date.now() - started > 120_000) {
          status = cert.verification_status;
          reason = (cert.verification_details as { reason_name?: string; reason?: string } | null) ?? null;
          break;
        }
        await new Promise((r) => setTimeout(r, 250));
      }
    }
    const peakMb = peak();
    const h = await health.stop();
    const after = await settle(pid);
    console.log(JSON.stringify({ attack: `certificate.create with a ${(bomb.length / MB).toFixed(2)} MB PDF inflating to ${inflatedMb} MB`, upload, status, reason, seconds: (Date.now() - started) / 1000, rssMb: { before, peak: peakMb.peak, after5s: after, readerProcessesPeak: peakMb.readersPeak }, healthz: h }, null, 2));
  } finally {
    child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function slowParse(rounds: number) {
  const { pdfSlowToParse, pngCheapToSendSlowToConvert } = await import('./files');
  const { makeClient, signIn, certForm } = await import('../helpers');
  const files = { 'slow.pdf': pdfSlowToParse(), 'big.png': await pngCheapToSendSlowToConvert() };
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'attesta-measure-'));
  const { child, url } = await startServerProcess(dataDir);
  try {
    const c = makeClient(url);
    await signIn(c);
    await settle(child.pid!, 3000); // the reader kept warm is up
    const health = pollHealth(url);
    const uploads: { file: string; ms: number; outcome: string }[] = [];
    for (let i = 0; i < rounds; i++) {
      for (const [name, bytes] of Object.entries(files)) {
        const t = performance.now();
        const outcome = await c.client.certificate.create
          .mutate(certForm({ title: 'Certificate of Completion', institution_name: 'Slow Academy', program_name: 'Parsing', issue_date: '2025-01-01' }, { bytes, name, type: name.endsWith('.pdf') ? 'application/pdf' : 'image/png' }))
          .then(() => 'added', (e: Error) => e.message.slice(0, 90));
        uploads.push({ file: name, ms: Math.round(performance.now() - t), outcome });
      }
    }
    console.log(JSON.stringify({ attack: `certificate.create, ${rounds} rounds of a slow-to-parse PDF (${(files['slow.pdf'].length / MB).toFixed(1)} MB) and a 4 Mpx PNG`, uploads, healthz: await health.stop() }, null, 2));
  } finally {
    child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The pipeline's own call, in a server process: a child runs startServer + checkDocument(bomb). */
async function bombCheck(inflatedMb: number, lifted: boolean) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'attesta-measure-'));
  const child = fork(fileURLToPath(import.meta.url), ['victim', String(inflatedMb), dataDir, lifted ? 'lifted' : ''], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.once('message', (m) => resolve(String(m)));
      child.stderr?.on('data', (d) => process.stderr.write(d));
      child.once('exit', (code) => reject(new Error(`victim exited (${code})`)));
    });
    const pid = child.pid!;
    const before = await settle(pid, 2000);
    const health = pollHealth(url);
    const peak = sampleRss(pid);
    child.send('go');
    const outcome = await new Promise<unknown>((resolve) => child.once('message', resolve));
    const peakMb = peak();
    const h = await health.stop();
    const after = await settle(pid);
    console.log(JSON.stringify({ attack: `checkDocument on a PDF inflating to ${inflatedMb} MB, inside the server process${lifted ? ', decoded-size limit lifted' : ''}`, outcome, rssMb: { before, peak: peakMb.peak, after5s: after, readerProcessesPeak: peakMb.readersPeak }, healthz: h }, null, 2));
  } finally {
    child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function victim(inflatedMb: number, dataDir: string, lifted: boolean) {
  const { pdfFlateBomb } = await import('./files');
  const { startServer } = await import('../../src/app');
  const { loadConfig } = await import('../../src/config');
  const { checkDocument } = await import('../../src/services/documents/index.js');
  const bomb = await pdfFlateBomb(inflatedMb * 1_000_000);
  const server = await startServer(loadConfig({ PORT: '0', HOST: '127.0.0.1', ATTESTA_DATA_DIR: dataDir, ATTESTA_DEMO_DATA: 'false', LOG_LEVEL: 'silent', ATTESTA_WORKER: 'false', APP_DIST_DIR: path.join(dataDir, 'no-app') }));
  process.send!(server.url);
  process.once('message', async () => {
    const t = Date.now();
    // `limits` is ignored by the code before the fix (it has no such option).
    const limits = lifted ? { limits: { streams: { maxDecodedBytes: Infinity, maxImageBytes: Infinity } } } : {};
    const outcome = await checkDocument(bomb, { title: 'Certificate of Completion', institution_name: 'Bomb Academy', program_name: 'Inflation' }, limits as never).then(
      (r) => ({ resolved: true, textChars: r.text.length, pagesRead: r.pageCount, seconds: (Date.now() - t) / 1000 }),
      (e: Error) => ({ rejected: e.name, message: e.message, seconds: (Date.now() - t) / 1000 }),
    );
    process.send!(outcome);
  });
}

const [mode, arg, extra, flag] = process.argv.slice(2);
if (mode === 'upload') await uploadAttack(Number(arg ?? 400));
else if (mode === 'bomb-upload') await bombUpload(Number(arg ?? 1500));
else if (mode === 'bomb-check') await bombCheck(Number(arg ?? 1500), extra === 'lifted');
else if (mode === 'slow-parse') await slowParse(Number(arg ?? 3));
else if (mode === 'victim') await victim(Number(arg), extra, flag === 'lifted');
else {
  console.error('usage: measure-attacks.ts upload [MB] | bomb-upload [inflated MB] | bomb-check [inflated MB] [lifted] | slow-parse [rounds]');
  process.exit(2);
}
