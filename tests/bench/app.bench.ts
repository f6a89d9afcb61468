// What each route makes the browser download (gzip), against its budget (tests/bench/app-size.ts:
// verifier routes ≤ 140 kB and wallet-free, signed-in routes ≤ 220 kB). Exits 1 when one is over;
// tests/app/bundle-budget.test.ts holds the same budgets in the test suite.
//
//   npm run bench:app            builds the app if app/dist is missing, then measures
//   npm run bench:app -- --build rebuilds first
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { budgetProblem, BUDGETS_KB, measureRoutes } from './app-size';

const root = path.resolve(import.meta.dirname, '../..');
const dist = process.env.APP_DIST_DIR ? path.resolve(process.env.APP_DIST_DIR) : path.join(root, 'app/dist');

function ensureBuild() {
  if (process.argv.includes('--build') || !fs.existsSync(path.join(dist, 'index.html'))) {
    console.log('Building the app (npm run build:app)...');
    execSync('npm run build:app', { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  }
}

ensureBuild();
const { rows, source, entryKb } = measureRoutes(dist);
console.log(`\nJavaScript per route (gzip, level 9) — graph from ${source}; entry ${entryKb.toFixed(1)} kB\n`);
const w = Math.max(...rows.map((r) => r.route.length));
for (const r of rows) {
  const problem = budgetProblem(r);
  const flags = [r.budgetKb !== undefined && !problem ? `≤ ${r.budgetKb} kB budget` : '', problem ?? '', r.wallet && !problem ? 'loads wallet code' : ''].filter(Boolean);
  console.log(`${r.route.padEnd(w)}  ${r.kb.toFixed(1).padStart(7)} kB  ${String(r.files).padStart(3)} files  ${flags.join('; ')}`);
  if (process.argv.includes('--detail')) console.log(`  ${r.own.map(([f, kb]) => `${f} ${kb.toFixed(1)}`).join(', ')}`);
}
const failures = rows.filter((r) => budgetProblem(r));
if (failures.length) {
  console.error(`\n${failures.length} route(s) over budget: ${failures.map((r) => r.route).join(', ')}`);
  process.exitCode = 1;
} else {
  console.log(`\nVerifier routes within ${BUDGETS_KB.verifier} kB and wallet-free; signed-in routes within ${BUDGETS_KB.signedIn} kB (gzip).`);
}
