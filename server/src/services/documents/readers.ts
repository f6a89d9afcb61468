// Document readers: a small pool of child processes that parse PDFs, so a hostile document costs a
// reader, never the server's event loop or memory. They read documents for the verification
// (read.ts) and run an upload's PDF checks and image conversion (services/files in-reader.ts). Each
// reader has a heap limit and a resident-memory limit, each document a wall-clock limit after which
// its reader is killed. At most READER_POOL_SIZE read at once and one more reader may exist for
// uploads: a burst of documents waits in a queue instead of starting more.
//
// Processes, not worker threads: a worker thread's heap limit (resourceLimits) is not a hard wall.
// V8 gives a worker 16 MB of headroom past it to stop cleanly; an allocation larger than that (pdfjs
// growing the array of a long string literal) aborts the whole process — measured here: a 20 MB
// string in a content stream, under a 256 MB worker heap, killed the server ("FATAL ERROR: Reached
// heap limit"). A reader process that dies that way takes nothing else with it.
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import type { PdfStreamLimits } from '../files/pdf-streams.js';
import type { CheckedPdf, ImageType } from '../files/rejection.js';
import { DocumentUnreadableError, readerStopped } from './errors.js';
import type { ReadOptions, ReadResult } from './read.js';

/** Readers reading at most: the verification worker checks two documents at a time (services/verification). */
export const READER_POOL_SIZE = 2;
/**
 * One reader more may exist for an upload's checks (`runUploadTask`): a holder waits on those, so they
 * go before queued reads, and with every reader of the pool reading they still have one to run in.
 */
const INTAKE_READERS = 1;
/**
 * Wall-clock limit of an upload's check or conversion. A 10 MB certificate takes well under a second;
 * a file built to be slow to parse (a PDF array of millions of numbers: seconds, then the heap limit)
 * costs its reader at most this, never the server's event loop.
 */
export const INTAKE_TIME_LIMIT_MS = 15_000;
/** Heap of a reader (V8 old generation): a certificate needs tens of MB; a bomb is stopped here. */
export const READER_HEAP_MB = 256;
/**
 * Old generation a reader's heap may reach before its first full collection (V8's
 * --initial-old-space-size; half the heap limit at most). V8 otherwise sets the next collection a
 * little above what survived the last one (~24 MB live after a certificate), so every document
 * cost a full mark-compact: ~15–25 ms of a 70–80 ms read of the bench's 1 MB PDF (server/bench
 * server.bench.ts), measured. Idle, the reader collects its garbage itself (reader.ts), so a reader
 * kept warm does not rest holding what its documents left.
 */
const READER_OLD_SPACE_MB = 128;
/**
 * Resident memory of a reader, heap and buffers together (decoded streams and images are buffers,
 * outside the heap limit): past it the reader is killed. Read from /proc every 100 ms while it reads
 * (Linux; elsewhere only the heap limit holds). A 600 dpi A4 scan for OCR peaks around 600 MB.
 */
export const READER_MAX_RSS_MB = 1024;
/**
 * Added to a phase's budget before the reader is killed. The reader gives up on its own at the
 * budget + 5 s when the parse yields; one that blocks never lets its timers fire, and is ended here.
 */
const SLACK_MS = 8000;
/**
 * A reader idle for `idleMs` (30 s) is ended (its memory returned); the next document starts one
 * again. While one is kept warm (keepDocumentReaderWarm), that one stays unless it holds more than
 * `warmMaxRssMb` (a fresh one holds ~135 MB, one that has read sixty certificates ~205 MB after its
 * idle collection): then a fresh warm one takes its place at once.
 */
const tuning = { idleMs: 30_000, warmMaxRssMb: 240, intakeTimeLimitMs: INTAKE_TIME_LIMIT_MS };

/** Tests: shorter idle time, another memory bound for the reader kept warm, a shorter upload check. */
export function tuneDocumentReaders(t: Partial<typeof tuning>) {
  Object.assign(tuning, t);
}

/** Loading pdfjs (and, from source, bundling the reader's TypeScript) on a busy machine. */
const START_TIMEOUT_MS = 60_000;
// The production build (server/build.mjs) puts the compiled reader beside the server's bundle; from
// source (tests), reader-entry.mjs bundles reader.ts the same way and runs it with plain Node.
const COMPILED_READER = new URL('./reader.mjs', import.meta.url);
const ENTRY = existsSync(COMPILED_READER) ? COMPILED_READER : new URL('./reader-entry.mjs', import.meta.url);

export interface ReaderOptions extends Omit<ReadOptions, 'streamLimits'> {
  streamLimits: PdfStreamLimits;
  /** Heap limit of the reader process for this document (MB). */
  heapMb: number;
  /**
   * Wall-clock limit of reading (page images for OCR apart) before the reader is killed. Default
   * 2 × timeoutMs + 8 s: the reader's own budgets count its CPU time (cpu-clock.ts), and on a busy
   * machine its wall clock runs ahead of that; this limit is for a parse that blocks or stalls.
   */
  timeLimitMs?: number;
}

/**
 * What a reader does with a document's bytes: read it for the verification (read.ts), or an upload's
 * checks (services/files inspect-pdf.ts) and image conversion (services/files to-pdf.ts).
 */
export type ReaderTask = { kind: 'read'; opts: ReadOptions } | { kind: 'check-pdf' } | { kind: 'image-to-pdf'; type: ImageType };
/** What each task answers. */
export interface ReaderAnswers {
  read: ReadResult;
  'check-pdf': CheckedPdf;
  'image-to-pdf': Uint8Array;
}

interface Job {
  bytes: Uint8Array;
  task: ReaderTask;
  heapMb: number;
  timeLimitMs: number;
  resolve(r: unknown): void;
  reject(e: Error): void;
}

/** An error the reader sent back, as it was thrown there (name, message, a FileRejectedError's code). */
export interface ReaderError {
  name: string;
  message: string;
  code?: string;
}

type FromReader =
  | { type: 'ready' }
  | { type: 'phase'; phase: 'images' }
  | { type: 'done'; result: unknown }
  | { type: 'failed'; error: ReaderError };

class Reader {
  readonly child: ChildProcess;
  readonly ready: Promise<void>;
  job: Job | null = null;
  exited = false;
  private started = false;
  private endedHere = false;
  /** Alive and not being ended: it may be given a document (one being ended would fail it as closed). */
  get usable() {
    return !this.exited && !this.endedHere;
  }
  /** It exited before it was ever ready, and not because it was ended here: a warm one is not started again at once. */
  get failedToStart() {
    return this.exited && !this.started && !this.endedHere;
  }
  private timer: NodeJS.Timeout | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private memoryTimer: NodeJS.Timeout | undefined;
  /** Why the reader was ended on purpose, for the document it was reading. */
  private ending: Error | null = null;
  /** The end of its stderr: V8 says "heap out of memory" there before aborting. */
  private stderrTail = '';

  constructor(
    readonly heapMb: number,
    private readonly onFree: (r: Reader) => void,
    private readonly onGone: (r: Reader) => void,
    /** A deep warm-up before it is ready (warm-up.ts): the reader kept warm. */
    deepWarmUp = false,
  ) {
    this.child = fork(ENTRY, deepWarmUp ? ['--deep-warm-up'] : [], {
      execArgv: [`--max-old-space-size=${heapMb}`, `--initial-old-space-size=${Math.min(READER_OLD_SPACE_MB, Math.floor(heapMb / 2))}`, '--expose-gc'],
      serialization: 'advanced', // Uint8Array in and out without base64
      stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
    });
    // Kept, not printed: a reader that dies of its heap limit dumps V8's native stack there, and its
    // document's rejection already says why.
    this.child.stderr?.on('data', (d: Buffer) => {
      this.stderrTail = (this.stderrTail + d.toString()).slice(-4096);
    });
    let started: () => void;
    let failed: (e: Error) => void;
    this.ready = new Promise<void>((res, rej) => ((started = res), (failed = rej)));
    this.ready.catch(() => undefined);
    const startTimer = setTimeout(() => this.end(new Error('The document reader did not start.')), START_TIMEOUT_MS);
    this.child.on('message', (m: FromReader) => {
      if (m.type === 'ready') {
        clearTimeout(startTimer);
        this.started = true;
        started();
      } else if (m.type === 'phase') {
        const task = this.job?.task;
        this.arm(task?.kind === 'read' && task.opts.ocr ? task.opts.ocr.timeoutMs + SLACK_MS : SLACK_MS);
      } else if (m.type === 'done') this.settle(null, m.result);
      else if (m.type === 'failed') this.settle(m.error.name === 'DocumentUnreadableError' ? new DocumentUnreadableError(m.error.message) : Object.assign(new Error(m.error.message), { fromReader: m.error }));
    });
    this.child.on('error', (err) => {
      this.ending ??= new Error(`The document reader failed: ${err.message}`);
    });
    this.child.on('exit', (code, signal) => {
      clearTimeout(startTimer);
      clearTimeout(this.timer);
      clearTimeout(this.idleTimer);
      clearInterval(this.memoryTimer);
      this.exited = true;
      let why = this.ending;
      if (!why && !this.started) why = new Error(`The document reader could not start (exit ${code ?? signal}).`);
      // Once reading: V8 aborted it at its heap limit, or the parser crashed it. The document is the cause.
      if (!why) why = readerStopped(/heap out of memory/i.test(this.stderrTail) || signal === 'SIGABRT' ? { limit: 'memory', mb: this.heapMb } : { limit: 'crashed' });
      failed(why);
      if (this.job) this.settle(why);
      this.onGone(this);
    });
  }

  /** Runs one job (a read, an upload's check or conversion) in this reader (which must be idle). */
  async run(job: Job) {
    this.job = job;
    clearTimeout(this.idleTimer);
    this.hold(true);
    try {
      await this.ready;
    } catch (e) {
      if (this.job === job) this.settle(e instanceof Error ? e : new Error(String(e)));
      return;
    }
    if (this.job !== job) return;
    this.arm(job.timeLimitMs);
    this.memoryTimer = setInterval(() => {
      if ((residentMb(this.child.pid) ?? 0) > READER_MAX_RSS_MB) void this.end(readerStopped({ limit: 'memory', mb: READER_MAX_RSS_MB }));
    }, 100);
    this.child.send({ bytes: job.bytes, task: job.task });
  }

  /** Past this phase's budget the reader is killed: a blocked parse never yields to its own timers. */
  private arm(ms: number) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.end(readerStopped({ limit: 'time', seconds: Math.max(1, Math.round(ms / 1000)) })), ms);
  }

  private settle(err: Error | null, result?: unknown) {
    const job = this.job;
    if (!job) return;
    this.job = null;
    clearTimeout(this.timer);
    clearInterval(this.memoryTimer);
    if (err) job.reject(err);
    else job.resolve(result);
    if (this.exited || this.ending) return;
    this.hold(false);
    this.idleTimer = setTimeout(() => {
      // The one reader kept warm stays while it is as lean as a fresh one; otherwise a fresh one replaces it.
      if (!keptWarm(this) || (residentMb(this.child.pid) ?? Infinity) > tuning.warmMaxRssMb) void this.end(null);
    }, tuning.idleMs);
    this.idleTimer.unref();
    this.onFree(this);
  }

  /** An idle reader must not keep the server's (or a test run's) process alive. */
  hold(busy: boolean) {
    const handles = [this.child, this.child.channel, this.child.stderr] as ({ ref(): void; unref(): void } | null | undefined)[];
    for (const h of handles) {
      if (busy) h?.ref();
      else h?.unref();
    }
  }

  /** Kills the reader; a document it was reading fails with `why`. Resolves once it has exited. */
  end(why: Error | null): Promise<void> {
    if (this.exited) return Promise.resolve();
    this.endedHere = true;
    this.ending ??= why ?? new Error('The document reader was closed.');
    const gone = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill('SIGKILL');
    return gone;
  }
}

/** Resident memory of a process in MB, from /proc (null where there is none). */
function residentMb(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : null;
  } catch {
    return null;
  }
}

const readers = new Set<Reader>();
/** Waiting jobs: an upload's checks before reads (a holder is waiting), each in arrival order. */
const intakeQueue: Job[] = [];
const readQueue: Job[] = [];

/** A reader that went (ended idle, killed, closed): its slot is free; a warm one may replace it. */
function gone(r: Reader) {
  readers.delete(r);
  if (r.failedToStart) warmFailedAt = Date.now();
  pump();
  ensureWarm();
}

function pump() {
  for (const queue of [intakeQueue, readQueue]) {
    while (queue.length && start(queue[0])) queue.shift();
  }
}

/** The pool's rule for a job of `kind` given the readers busy with reads and with uploads' checks, and the reads waiting. */
export function mayStart(kind: 'read' | 'upload', now: { reading: number; checking: number; readsWaiting: number }): boolean {
  if (kind === 'read') return now.reading < READER_POOL_SIZE;
  return now.readsWaiting === 0 || now.checking < INTAKE_READERS;
}

/**
 * Starts `job` in an idle reader of its heap, or a new one when there is room (READER_POOL_SIZE +
 * INTAKE_READERS readers at most); false when it must wait. Reads: at most READER_POOL_SIZE at once.
 * An upload's checks: in any reader, but while reads wait they keep to INTAKE_READERS busy readers,
 * so a stream of checks cannot starve the verification's reads.
 */
function start(job: Job): boolean {
  const live = [...readers].filter((r) => r.usable);
  const reading = live.filter((r) => r.job?.task.kind === 'read').length;
  const checking = live.filter((r) => r.job).length - reading;
  if (!mayStart(job.task.kind === 'read' ? 'read' : 'upload', { reading, checking, readsWaiting: readQueue.length })) return false;
  const idle = live.filter((r) => !r.job);
  let reader = idle.find((r) => r.heapMb === job.heapMb);
  if (!reader) {
    if (readers.size >= READER_POOL_SIZE + INTAKE_READERS) {
      // Full: make room only by ending an idle reader of another heap size (tests use those).
      const other = idle[0];
      if (!other) return false;
      readers.delete(other);
      void other.end(null);
    }
    reader = new Reader(job.heapMb, () => pump(), gone);
    readers.add(reader);
  }
  void reader.run(job);
  return true;
}

// A reader's first document costs ~0.8 s more than the next (the process starts, pdfjs and the canvas
// load and compile on a document): a holder whose upload comes after a quiet spell would wait for it.
// While kept warm, one reader of the default heap is always there, started ahead and warmed up on a
// document of its own (reader.ts); when it goes idle holding more than a fresh one would, or dies, a
// fresh one replaces it.
let warm = false;
let warmFailedAt = -Infinity;
/** After a reader failed to start, the next warm one waits this long (a document still starts one). */
const WARM_RETRY_MS = 60_000;

function ensureWarm() {
  if (!warm || intakeQueue.length || readQueue.length || Date.now() - warmFailedAt < WARM_RETRY_MS) return;
  if ([...readers].some((r) => !r.exited && r.heapMb === READER_HEAP_MB)) return;
  if (readers.size >= READER_POOL_SIZE) return; // both busy with other heap sizes: the next one frees
  // Started ahead, it warms up deeply (warm-up.ts): on its first documents a reader warmed up on the
  // small document alone took 75–225 ms over a 1 MB certificate where it later takes 40–55 ms
  // (bench:server, measured). One started for a waiting document warms up lightly, so that document
  // does not wait for more.
  const reader = new Reader(READER_HEAP_MB, () => pump(), gone, true);
  reader.hold(false);
  readers.add(reader);
}

/** Whether `r` is the one reader kept warm (another idle reader of the default heap is ended as before). */
function keptWarm(r: Reader): boolean {
  return warm && r.heapMb === READER_HEAP_MB && [...readers].filter((o) => !o.exited && o.heapMb === READER_HEAP_MB).length === 1;
}

/**
 * Keeps one document reader started and warm (`true`, the server's default) or lets idle readers end
 * as before (`false`). Returns once the warm reader is ready (or failed to start: the first document
 * then starts one as it would without).
 */
export async function keepDocumentReaderWarm(on: boolean): Promise<void> {
  warm = on;
  ensureWarm();
  const reader = [...readers].find((r) => !r.exited && r.heapMb === READER_HEAP_MB);
  if (on && reader) await reader.ready.catch(() => undefined);
}

/** Runs `task` on `bytes` in a reader process (queued while all readers are busy). */
function runInReader<K extends ReaderTask['kind']>(bytes: Uint8Array, task: Extract<ReaderTask, { kind: K }>, limits: { heapMb: number; timeLimitMs: number }): Promise<ReaderAnswers[K]> {
  return new Promise<ReaderAnswers[K]>((resolve, reject) => {
    (task.kind === 'read' ? readQueue : intakeQueue).push({ bytes, task, ...limits, resolve: resolve as (r: unknown) => void, reject });
    pump();
  });
}

/** Reads a PDF in a reader process (queued while all readers are busy). */
export function readInReader(bytes: Uint8Array, opts: ReaderOptions): Promise<ReadResult> {
  const { heapMb, timeLimitMs, ...readOpts } = opts;
  return runInReader(bytes, { kind: 'read', opts: readOpts }, { heapMb, timeLimitMs: timeLimitMs ?? 2 * opts.timeoutMs + SLACK_MS });
}

/** What an upload asks of a reader: its PDF checks (services/files inspect-pdf.ts) or an image's conversion (to-pdf.ts). */
export type UploadTask = Exclude<ReaderTask, { kind: 'read' }>;

/**
 * An upload's PDF checks or image conversion in a reader process, under its heap and resident-memory
 * limits and `intakeTimeLimitMs`: pdf-lib's parse, and its PNG decode and deflate, are synchronous,
 * and a file built to be slow held the server's event loop for seconds when they ran there. Rejects
 * with what the reader threw (services/files in-reader.ts turns it back into the upload's refusal).
 */
export function runUploadTask<K extends UploadTask['kind']>(bytes: Uint8Array, task: Extract<UploadTask, { kind: K }>): Promise<ReaderAnswers[K]> {
  return runInReader(bytes, task, { heapMb: READER_HEAP_MB, timeLimitMs: tuning.intakeTimeLimitMs });
}

/** Ends every reader (server shutdown); queued documents fail. Reading again starts new ones. */
export async function closeDocumentReaders(): Promise<void> {
  warm = false;
  for (const job of [...intakeQueue.splice(0), ...readQueue.splice(0)]) job.reject(new Error('The document reader was closed.'));
  const all = [...readers];
  readers.clear();
  await Promise.all(all.map((r) => r.end(null)));
}

/** Readers alive now (tests). */
export function documentReaderCount(): number {
  return [...readers].filter((r) => !r.exited).length;
}

/** Process ids of the readers alive now, and whether each is idle (tests). */
export function documentReaders(): { pid: number | undefined; idle: boolean }[] {
  return [...readers].filter((r) => !r.exited).map((r) => ({ pid: r.child.pid, idle: !r.job }));
}
