import { describe, expect, it } from 'vitest';
import { cpuMs, onCpuDeadline } from './cpu-clock';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the reading budgets\' CPU clock', () => {
  it('does not run while the process waits: a budget is not spent by a busy machine or a slow disk', async () => {
    let fired = false;
    const stop = onCpuDeadline(cpuMs() + 250, () => (fired = true));
    await sleep(400); // 400 ms of wall clock, next to no CPU
    expect(fired).toBe(false);
    stop();
  });

  it('fires once the process has worked past the deadline, and not after it is cancelled', async () => {
    const deadline = cpuMs() + 60;
    let firedAt: number | null = null;
    onCpuDeadline(deadline, () => (firedAt = cpuMs()));
    while (firedAt === null) {
      const until = cpuMs() + 10;
      while (cpuMs() < until); // work
      await sleep(1); // let the watch look
    }
    expect(firedAt).toBeGreaterThanOrEqual(deadline);

    let late = false;
    const stop = onCpuDeadline(cpuMs() + 5, () => (late = true));
    stop();
    const until = cpuMs() + 20;
    while (cpuMs() < until);
    await sleep(60);
    expect(late).toBe(false);
  });
});
