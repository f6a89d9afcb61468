#!/usr/bin/env node
// `npm start` runs this first: builds the web app when app/dist is missing or older than its sources,
// so a fresh clone serves the whole product with one command and a restart does not rebuild needlessly.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { newestMtime } from '../scripts/newest-mtime.mjs';

const root = path.resolve(import.meta.dirname, '..');
const built = path.join(root, 'app/dist/index.html');

const sources = ['app/src', 'app/public', 'shared'].map((d) => path.join(root, d)).filter((d) => fs.existsSync(d));
// The build's configuration counts as a source too (chunking, preload settings).
const sourceTime = Math.max(...sources.map(newestMtime), ...['app/index.html', 'app/vite.config.ts'].map((f) => fs.statSync(path.join(root, f)).mtimeMs));
if (fs.existsSync(built) && fs.statSync(built).mtimeMs >= sourceTime) process.exit(0);

console.log('Building the web app (app/dist)…');
execFileSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', 'app', '--logLevel', 'warn'], {
  cwd: root,
  stdio: 'inherit',
});
