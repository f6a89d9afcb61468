// The stall watchdog (a vitest reporter): a file that never finishes is named, with where it was and the
// processes it waits on, and the run ends with exit code 1 instead of going silent until CI kills it.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TestCase, TestModule } from 'vitest/node';
import StallWatchdog, { processTree } from './stall-watchdog';

const ROOT = path.resolve(import.meta.dirname, '../..');
const mod = (id: string, project = 'main') => ({ moduleId: `/r/${id}`, relativeModuleId: id, project: { name: project }, type: 'module' }) as unknown as TestModule;

/** A watchdog with a 1-minute limit on a clock the test moves, its output and exits recorded. */
function watchdog() {
  let now = 0;
  const out: string[] = [];
  const exits: number[] = [];
  const w = new StallWatchdog({ limitMs: 60_000, now: () => now, write: (t) => out.push(t), exit: (c) => exits.push(c), processes: () => '  123 S 5s sleep 97' });
  return { w, out, exits, advance: (ms: number) => (now += ms) };
}

describe('stall watchdog', () => {
  it('names a file past the limit, the test it was in and the processes, and ends the run with 1', () => {
    const { w, out, exits, advance } = watchdog();
    const stuck = mod('server/test/stuck.test.ts');
    w.onTestModuleQueued(stuck);
    w.onTestCaseReady({ module: stuck, fullName: 'a suite > waits forever' } as unknown as TestCase);
    advance(60_000);
    w.check();
    expect(exits).toEqual([]); // at the limit, not past it
    advance(1);
    w.check();
    expect(exits).toEqual([1]);
    const text = out.join('');
    expect(text).toContain('run longer than 1.0 min');
    expect(text).toContain('main server/test/stuck.test.ts: running for 1.0 min, last reported: test "a suite > waits forever"');
    expect(text).toContain('123 S 5s sleep 97');
  });

  it('says a file is stuck loading, or in a hook; a file that ended (in its project), or a run that ended, is not reported', () => {
    const { w, out, exits, advance } = watchdog();
    const loading = mod('tests/loading.test.ts');
    const hooked = mod('tests/hooked.test.ts');
    const done = mod('tests/done.test.ts');
    for (const m of [loading, hooked, done]) w.onTestModuleQueued(m);
    w.onHookStart({ name: 'beforeAll', entity: hooked });
    w.onTestModuleEnd(done);
    advance(61_000);
    w.check();
    expect(exits).toEqual([1]);
    const text = out.join('');
    expect(text).toContain('test files have run longer');
    expect(text).toContain('tests/loading.test.ts: running for 1.0 min, last reported: loading the file');
    expect(text).toContain('tests/hooked.test.ts: running for 1.0 min, last reported: beforeAll of the file');
    expect(text).not.toContain('done.test.ts');

    // The same file in two projects: the one that ended does not hide the one still running.
    const twice = watchdog();
    twice.w.onTestModuleQueued(mod('server/test/x.test.ts', 'main'));
    twice.w.onTestModuleQueued(mod('server/test/x.test.ts', 'server-postgres'));
    twice.w.onTestModuleEnd(mod('server/test/x.test.ts', 'main'));
    twice.advance(61_000);
    twice.w.check();
    expect(twice.exits).toEqual([1]);
    expect(twice.out.join('')).toContain('server-postgres server/test/x.test.ts: running for 1.0 min');
    expect(twice.out.join('')).not.toContain('  main server/test/x.test.ts');

    const after = watchdog();
    after.w.onTestModuleQueued(mod('tests/x.test.ts'));
    after.w.onTestRunEnd();
    after.advance(10 * 60_000);
    after.w.check();
    expect(after.exits).toEqual([]);
  });

  it('lists the processes under a pid, nested', async () => {
    const child = spawn('sh', ['-c', 'sleep 31 & wait'], { stdio: 'ignore', detached: true });
    try {
      await expect.poll(() => processTree(process.pid)).toMatch(new RegExp(`^  ${child.pid} \\S+ \\S+ \\d+s sh -c sleep 31 & wait\\n    \\d+ \\S+ \\S+ \\d+s sleep 31$`, 'm'));
    } finally {
      process.kill(-child.pid!, 'SIGKILL'); // the shell and its sleep
    }
  });

  it('a real vitest run with a file that never finishes ends with 1 and names it; the other file passed', async () => {
    const run = spawn(process.execPath, [path.join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--config', 'tests/support/fixtures/stall.vitest.config.ts'], {
      cwd: ROOT,
      env: { ...process.env, ATTESTA_TEST_STALL_MINUTES: '0.1', CI: 'true' },
      detached: true, // its own process group: the blocked worker and its sleep are ended with it below
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    run.stdout!.on('data', (d) => (out += d));
    run.stderr!.on('data', (d) => (out += d));
    try {
      const code = await new Promise<number | null>((resolve) => run.once('exit', resolve));
      expect(code, out).toBe(1);
      expect(out).toContain('passes.fixture.ts');
      expect(out).toMatch(/stalls\.fixture\.ts: running for [\d.]+ min, last reported: /);
      // What the stuck worker waits on: its child, the sleep (pid, state, kernel wait, age, command).
      expect(out).toMatch(/^\s+\d+ \S+ \S+ \d+s \S*node .*forks\.js\n\s+\d+ \S+ \S+ \d+s sleep 97$/m);
    } finally {
      try {
        process.kill(-run.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }, 60_000);
});
