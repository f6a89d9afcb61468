// The newest modification time (ms) of any file under `dir`: the build scripts (app/ensure-built.mjs,
// server/build.mjs) rebuild when a source is newer than what they built.
import fs from 'node:fs';
import path from 'node:path';

export function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(p));
    else newest = Math.max(newest, fs.statSync(p).mtimeMs);
  }
  return newest;
}
