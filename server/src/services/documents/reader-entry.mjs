// Entry of a document reader process run from source (readers.ts; the production build forks
// dist/server/reader.mjs instead). The reader's TypeScript is bundled here with esbuild as
// server/build.mjs bundles it (server/bundle-options.mjs) and imported by plain Node.
// Through tsx's loader, pdfjs and pdf-lib were loaded through it too: a reader from source then held
// ~220 MB of heap at rest against ~30 MB for the compiled one, under the same 256 MB limit, so tests
// read documents with a seventh of the room production has (measured, --trace-gc).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, stop } from 'esbuild';
import { BUNDLE_OPTIONS } from '../../../bundle-options.mjs';

const root = path.resolve(import.meta.dirname, '../../../..');
const { outputFiles } = await build({
  absWorkingDir: root,
  entryPoints: ['server/src/services/documents/reader.ts'],
  ...BUNDLE_OPTIONS,
  write: false,
  logLevel: 'warning',
});
const code = outputFiles[0].contents;
await stop(); // esbuild's own service process is not kept beside the reader
// Under node_modules, so its package imports resolve as the sources' do. Named by content: readers
// starting at once (test files run in parallel) find the file written, or write the same bytes.
const dir = path.join(root, 'node_modules/.cache/attesta-reader');
const file = path.join(dir, `reader-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`);
if (!fs.existsSync(file)) {
  fs.mkdirSync(dir, { recursive: true });
  const partial = `${file}.${process.pid}.partial`;
  fs.writeFileSync(partial, code);
  fs.renameSync(partial, file);
  // Bundles of earlier sources go once nothing can still be starting from them.
  for (const old of fs.readdirSync(dir)) {
    const p = path.join(dir, old);
    const writtenAt = fs.statSync(p, { throwIfNoEntry: false })?.mtimeMs;
    if (p !== file && writtenAt !== undefined && Date.now() - writtenAt > 10 * 60_000) fs.rmSync(p, { force: true });
  }
}
await import(pathToFileURL(file).href);
