#!/usr/bin/env node
// The production build of the server: `npm start` runs dist/server/main.mjs with plain Node, not the
// TypeScript sources through tsx (no transpiling at start or in each document reader process).
// esbuild bundles our own code (server, shared) into two entry points, the server and the document
// reader process it forks; packages stay imports from node_modules (native addons, pdfjs, tesseract).
// It splits at dynamic imports: what only some requests need (minting's SPL Token libraries, the
// explorer's decoders, the upload's PDF checks) is a chunk of its own, loaded when first used, so
// every start does not load it (#15; server/test/startup-imports.test.ts). Chunks sit beside the
// entry points (code in them finds ./reader.mjs beside itself).
//
//   node server/build.mjs             builds dist/server
//   node server/build.mjs --if-stale  only when dist/server is missing or older than its sources
//                                     (npm start's prestart, and the browser tests before they start it)
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { newestMtime } from '../scripts/newest-mtime.mjs';
import { BUNDLE_OPTIONS } from './bundle-options.mjs';

const root = path.resolve(import.meta.dirname, '..');
const out = path.join(root, 'dist/server');
const entries = { main: 'server/src/main.ts', reader: 'server/src/services/documents/reader.ts' };

function isStale() {
  const built = Object.keys(entries).map((name) => path.join(out, `${name}.mjs`));
  if (!built.every((f) => fs.existsSync(f))) return true;
  const builtAt = Math.min(...built.map((f) => fs.statSync(f).mtimeMs));
  const sourcesAt = Math.max(
    ...['server/src', 'shared'].map((d) => newestMtime(path.join(root, d))),
    ...['server/build.mjs', 'server/bundle-options.mjs', 'package.json'].map((f) => fs.statSync(path.join(root, f)).mtimeMs),
  );
  return sourcesAt > builtAt;
}

if (process.argv.includes('--if-stale') && !isStale()) process.exit(0);

const started = Date.now();
const result = await build({
  absWorkingDir: root,
  entryPoints: entries,
  outdir: out,
  outExtension: { '.js': '.mjs' },
  ...BUNDLE_OPTIONS,
  splitting: true,
  chunkNames: '[name]-[hash]',
  metafile: true,
  sourcemap: true,
  logLevel: 'warning',
});
// Chunks of earlier builds go (their names carry their content's hash; the new entry points name the new ones).
const written = new Set(Object.keys(result.metafile.outputs).map((f) => path.basename(f)));
for (const f of fs.readdirSync(out)) if (!written.has(f)) fs.rmSync(path.join(out, f));
console.log(`Built the server (dist/server) in ${Date.now() - started} ms`);
