// The clock that reading budgets count in: the reader process's own CPU time, not the wall clock.
// A reader reads one document at a time (readers.ts), so its CPU time is that document's work, and a
// busy machine does not stretch it: whether a certificate is read in full no longer depends on what
// else runs beside it (with wall-clock budgets, an ordinary certificate read on a loaded server could
// run out of time, stay unread and wait "for its institution" instead of being checked). A parse that
// blocks, or waits without working, is still ended by the readers' wall-clock limit (readers.ts).

/** CPU time (user + system) this process has used, in milliseconds. */
export function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/**
 * Calls `onExpired` once this process's CPU time passes `deadline` (cpuMs), checked every `everyMs`
 * while the event loop turns. Returns the function that cancels the watch.
 */
export function onCpuDeadline(deadline: number, onExpired: () => void, everyMs = 25): () => void {
  if (cpuMs() >= deadline) {
    queueMicrotask(onExpired);
    return () => undefined;
  }
  const timer = setInterval(() => {
    if (cpuMs() < deadline) return;
    clearInterval(timer);
    onExpired();
  }, everyMs);
  return () => clearInterval(timer);
}
