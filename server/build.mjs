#!/usr/bin/env node
// The production build of the server: `npm start` runs dist/server/main.mjs with plain Node, not the
// TypeScript sources through tsx (no transpiling at start or in each document reader process).
// esbuild bundles our own code (server, shared) into two entry points, the server and the document
// reader process it forks; packages stay imports from node_modules (native addons, pdfjs, tesseract).
//
//   node server/build.mjs             builds dist/server
//   node server/build.mjs --if-stale  only when dist/server is missing or older than its sources
//                                     (npm start's prestart, and the browser tests before they start it)
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { newestMtime } from '../scripts/newest-mtime.mjs';

const root = path.resolve(import.meta.dirname, '..');
const out = path.join(root, 'dist/server');
const entries = { main: 'server/src/main.ts', reader: 'server/src/services/documents/reader.ts' };

function isStale() {
  const built = Object.keys(entries).map((name) => path.join(out, `${name}.mjs`));
  if (!built.every((f) => fs.existsSync(f))) return true;
  const builtAt = Math.min(...built.map((f) => fs.statSync(f).mtimeMs));
  const sourcesAt = Math.max(
    ...['server/src', 'shared'].map((d) => newestMtime(path.join(root, d))),
    ...['server/build.mjs', 'package.json'].map((f) => fs.statSync(path.join(root, f)).mtimeMs),
  );
  return sourcesAt > builtAt;
}

if (process.argv.includes('--if-stale') && !isStale()) process.exit(0);

const started = Date.now();
await build({
  absWorkingDir: root,
  entryPoints: entries,
  outdir: out,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Packages load from node_modules as under tsx: native addons, and files they find beside themselves.
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
console.log(`Built the server (dist/server) in ${Date.now() - started} ms`);
