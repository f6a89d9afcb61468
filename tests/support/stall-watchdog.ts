// A vitest reporter that names a test file that never finishes. vitest prints a file's results when the
// file ends, so a file stuck for good (blocked on a process that never exits, say) leaves no trace: the
// run goes silent until CI kills it (a run was killed at 90 minutes so, its last line a file that had
// passed). Past the limit this prints the stuck file, where in it the run was, and the processes under
// this run (what the file's worker waits on), then ends the run with exit code 1.
import { execFileSync } from 'node:child_process';
import type { Reporter, ReportedHookContext, TestCase, TestModule } from 'vitest/node';

/** Longest a file may run: the longest takes ~3 minutes on two busy cores. */
const LIMIT_MINUTES = Number(process.env.ATTESTA_TEST_STALL_MINUTES ?? 12);
if (!(LIMIT_MINUTES > 0)) throw new Error(`ATTESTA_TEST_STALL_MINUTES must be a number of minutes above 0, not "${process.env.ATTESTA_TEST_STALL_MINUTES}"`);
const LIMIT_MS = LIMIT_MINUTES * 60_000;

interface Running {
  file: string;
  since: number;
  /** The test or hook the file's worker last reported starting (a blocked worker may not have sent the latest). */
  at: string;
}

export interface StallWatchdogOptions {
  limitMs?: number;
  checkEveryMs?: number;
  now?: () => number;
  write?: (text: string) => void;
  exit?: (code: number) => void;
  processes?: () => string;
}

export default class StallWatchdog implements Reporter {
  private readonly running = new Map<string, Running>();
  private timer: NodeJS.Timeout | null = null;
  private readonly o: Required<StallWatchdogOptions>;

  constructor(options: StallWatchdogOptions = {}) {
    this.o = {
      limitMs: LIMIT_MS,
      checkEveryMs: Math.min(30_000, Math.max(1000, (options.limitMs ?? LIMIT_MS) / 4)),
      now: Date.now,
      write: (text) => process.stdout.write(text), // beside vitest's own report, which CI logs show
      exit: (code) => process.exit(code),
      processes: () => processTree(process.pid),
      ...options,
    };
  }

  onTestRunStart() {
    this.timer ??= setInterval(() => this.check(), this.o.checkEveryMs).unref();
  }

  onTestModuleQueued(m: TestModule) {
    this.running.set(key(m), { file: `${m.project.name} ${m.relativeModuleId}`, since: this.o.now(), at: 'loading the file' });
  }

  onTestCaseReady(t: TestCase) {
    this.at(t.module, `test "${t.fullName}"`);
  }

  onHookStart(h: ReportedHookContext) {
    if (h.entity.type === 'module') this.at(h.entity, `${h.name} of the file`);
    else this.at(h.entity.module, `${h.name} of "${h.entity.fullName}"`);
  }

  onTestModuleEnd(m: TestModule) {
    this.running.delete(key(m));
  }

  onTestRunEnd() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.running.clear();
  }

  /** Ends the run, saying where, when a file has run past the limit. */
  check() {
    const now = this.o.now();
    const stuck = [...this.running.values()].filter((r) => now - r.since > this.o.limitMs);
    if (!stuck.length) return;
    const lines = stuck.map((r) => `  ${r.file}: running for ${minutes(now - r.since)}, last reported: ${r.at}`);
    this.o.write(
      [
        '',
        `stall watchdog: ${stuck.length === 1 ? 'a test file has' : 'test files have'} run longer than ${minutes(this.o.limitMs)} (ATTESTA_TEST_STALL_MINUTES); ending the run.`,
        ...lines,
        'Processes under this run:',
        this.o.processes(),
        '',
      ].join('\n'),
    );
    this.o.exit(1);
  }

  private at(m: TestModule, where: string) {
    const r = this.running.get(key(m));
    if (r) r.at = where;
  }
}

/** A file runs once per project that includes it (the server suite on SQLite and on PostgreSQL). */
const key = (m: TestModule) => `${m.project.name}\0${m.moduleId}`;

const minutes = (ms: number) => `${(ms / 60_000).toFixed(1)} min`;

/** `ps` of `root` and everything under it, indented by depth: pid, state, kernel wait, age, command. */
export function processTree(root: number): string {
  let out: string;
  try {
    // wchan: where in the kernel each one sleeps (do_wait: on a child; pipe_read; futex_wait_queue: a lock).
    out = execFileSync('ps', ['-eo', 'pid=,ppid=,etimes=,stat=,wchan:24=,args='], { encoding: 'utf8', timeout: 10_000 });
  } catch (e) {
    return `  (ps failed: ${(e as Error).message})`;
  }
  const rows = out
    .split('\n')
    .map((l) => /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(\S+)\s+(\S+)\s+(.*)$/.exec(l))
    .filter((m): m is RegExpExecArray => !!m)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), seconds: Number(m[3]), stat: m[4], wchan: m[5], args: m[6] }));
  const children = new Map<number, typeof rows>();
  for (const r of rows) {
    const siblings = children.get(r.ppid);
    if (siblings) siblings.push(r);
    else children.set(r.ppid, [r]);
  }
  const lines: string[] = [];
  const walk = (pid: number, depth: number) => {
    for (const c of children.get(pid) ?? []) {
      lines.push(`  ${'  '.repeat(depth)}${c.pid} ${c.stat} ${c.wchan} ${c.seconds}s ${c.args.slice(0, 240)}`);
      walk(c.pid, depth + 1);
    }
  };
  walk(root, 0);
  return lines.join('\n') || '  (none)';
}
