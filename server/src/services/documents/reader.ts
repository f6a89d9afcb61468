// The body of a document reader process (see readers.ts): one document at a time, over IPC.
//   in:  { bytes: Uint8Array, opts: ReadOptions }
//   out: { type: 'ready' } once loaded and warmed up (warm-up.ts); per document { type: 'phase', phase: 'images' } (page images
//        for OCR are being extracted, under their own budget), then { type: 'done', result } or
//        { type: 'failed', error: { name, message } }.
import { readPdf, type ReadOptions } from './read.js';
import { warmUp } from './warm-up.js';

const send = process.send?.bind(process);
if (!send) throw new Error('services/documents/reader.ts runs as a child process (see readers.ts)');

process.on('message', async (msg: { bytes: Uint8Array; opts: ReadOptions }) => {
  try {
    const result = await readPdf(msg.bytes, msg.opts, { phase: (phase) => send({ type: 'phase', phase }) });
    send({ type: 'done', result });
  } catch (e) {
    const err = e instanceof Error ? e : new Error(String(e));
    send({ type: 'failed', error: { name: err.name, message: err.message } });
  }
});
// The server is gone (closed, or killed without closing us): so is this reader.
process.on('disconnect', () => process.exit(0));
await warmUp();
send({ type: 'ready' });
