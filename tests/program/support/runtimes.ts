import { bankrun } from './bankrun';
import { litesvm } from './litesvm';
import type { RuntimeFactory } from './runtime';

/** Every scenario runs on each runtime; PROGRAM_RUNTIME=litesvm (or bankrun) narrows it. */
export const RUNTIMES: RuntimeFactory[] = [bankrun, litesvm].filter(
  (r) => !process.env.PROGRAM_RUNTIME || process.env.PROGRAM_RUNTIME === r.name,
);
