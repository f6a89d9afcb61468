// The body of a document reader process (see readers.ts): one document at a time, over IPC.
//   in:  { bytes: Uint8Array, opts: ReadOptions }
//   out: { type: 'ready' } once loaded and warmed up (warm-up.ts); per document { type: 'phase', phase: 'images' } (page images
//        for OCR are being extracted, under their own budget), then { type: 'done', result } or
//        { type: 'failed', error: { name, message } }.
import { readPdf, type ReadOptions } from './read.js';
import { warmUp } from './warm-up.js';

const send = process.send?.bind(process);
if (!send) throw new Error('services/documents/reader.ts runs as a child process (see readers.ts)');

// The heap may grow to READER_OLD_SPACE_MB between full collections (readers.ts); a second without a
// document, the reader collects what its documents left, so it does not rest holding it (nor is a
// reader kept warm replaced for holding garbage: readers.ts warmMaxRssMb).
const COLLECT_WHEN_IDLE_MS = 1000;
const collect = (globalThis as { gc?: () => void }).gc;
let idle: NodeJS.Timeout | undefined;

process.on('message', async (msg: { bytes: Uint8Array; opts: ReadOptions }) => {
  clearTimeout(idle);
  try {
    const result = await readPdf(msg.bytes, msg.opts, { phase: (phase) => send({ type: 'phase', phase }) });
    send({ type: 'done', result });
  } catch (e) {
    const err = e instanceof Error ? e : new Error(String(e));
    send({ type: 'failed', error: { name: err.name, message: err.message } });
  }
  collectWhenIdle();
});
function collectWhenIdle() {
  if (collect) idle = setTimeout(collect, COLLECT_WHEN_IDLE_MS).unref();
}
// The server is gone (closed, or killed without closing us): so is this reader.
process.on('disconnect', () => process.exit(0));
await warmUp();
send({ type: 'ready' });
collectWhenIdle();
