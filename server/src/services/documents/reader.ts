// The body of a document reader process (see readers.ts): one document at a time, over IPC.
//   in:  { bytes: Uint8Array, task: ReaderTask } (read it, or an upload's PDF checks or image conversion)
//   out: { type: 'ready' } once loaded and warmed up (warm-up.ts); per document { type: 'phase', phase: 'images' } (page images
//        for OCR are being extracted, under their own budget), then { type: 'done', result } or
//        { type: 'failed', error: { name, message, code? } }.
import { checkPdf } from '../files/inspect-pdf.js';
import { FileRejectedError } from '../files/rejection.js';
import { readPdf } from './read.js';
import type { ReaderError, ReaderTask } from './readers.js';
import { warmUp } from './warm-up.js';

const send = process.send?.bind(process);
if (!send) throw new Error('services/documents/reader.ts runs as a child process (see readers.ts)');

// The heap may grow to READER_OLD_SPACE_MB between full collections (readers.ts). A full collection
// also costs V8 much of what it had optimised (code that pdfjs's per-document objects are built into is
// thrown away with them): a document read after one took ~20 ms longer (1 MB certificate, measured).
// So an idle reader collects at once only when its documents left a lot (GARBAGE_MB), otherwise after
// a longer quiet spell: uploads that come in a row stay fast, and a reader at rest, measured by
// readers.ts after 30 s idle, has collected what its documents left (nor is a reader kept warm
// replaced for holding garbage: readers.ts warmMaxRssMb).
const COLLECT_WHEN_IDLE_MS = 1000;
const GARBAGE_MB = 64;
const COLLECT_WHEN_QUIET_MS = 20_000;
const collect = (globalThis as { gc?: () => void }).gc;
let idle: NodeJS.Timeout | undefined;

process.on('message', async ({ bytes, task }: { bytes: Uint8Array; task: ReaderTask }) => {
  clearTimeout(idle);
  try {
    send({ type: 'done', result: await run(bytes, task) });
  } catch (e) {
    const err = e instanceof Error ? e : new Error(String(e));
    const error: ReaderError = { name: err.name, message: err.message, ...(err instanceof FileRejectedError ? { code: err.code } : {}) };
    send({ type: 'failed', error });
  }
  collectWhenIdle();
});

async function run(bytes: Uint8Array, task: ReaderTask): Promise<unknown> {
  if (task.kind === 'read') return readPdf(bytes, task.opts, { phase: (phase) => send!({ type: 'phase', phase }) });
  if (task.kind === 'check-pdf') return checkPdf(bytes);
  // sharp is loaded by the first image an upload converts, not by every reader.
  return (await import('../files/to-pdf.js')).toPdf(bytes, task.type);
}
function collectWhenIdle() {
  if (!collect) return;
  idle = setTimeout(() => {
    if (process.memoryUsage().heapUsed > GARBAGE_MB * 1024 * 1024) collect();
    else idle = setTimeout(collect, COLLECT_WHEN_QUIET_MS - COLLECT_WHEN_IDLE_MS).unref();
  }, COLLECT_WHEN_IDLE_MS).unref();
}
// The server is gone (closed, or killed without closing us): so is this reader.
process.on('disconnect', () => process.exit(0));
await warmUp(process.argv.includes('--deep-warm-up'));
send({ type: 'ready' });
collectWhenIdle();
