// What each route makes the browser download: gzip size of the JavaScript a route loads (entry +
// its lazy route chunk + everything those import statically). Verifiers open /view and
// /verification, often on a phone: those two must stay light (≤ 150 kB gzip) and wallet-free.
//
//   npm run bench:app            builds the app if app/dist is missing, then measures
//   npm run bench:app -- --build rebuilds first
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const root = path.resolve(import.meta.dirname, '../..');
const dist = process.env.APP_DIST_DIR ? path.resolve(process.env.APP_DIST_DIR) : path.join(root, 'app/dist');
const BUDGET_KB = 150;

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

// Route → the source module its lazy route element lives in (plus the layout it renders inside).
const ROUTES: { route: string; modules: string[]; budget?: boolean }[] = [
  { route: '/ (landing)', modules: [] },
  { route: '/view/:userId/:certificateId', modules: ['features/public-view/PublicViewPage.tsx'], budget: true },
  { route: '/verification (visitor)', modules: ['features/verification/VerificationPage.tsx'], budget: true },
  { route: '/explorer/address/:address', modules: ['features/explorer/ExplorerPage.tsx'] },
  { route: '/login', modules: ['features/auth/LoginPage.tsx'] },
  { route: '/dashboard', modules: ['layouts/SignedInLayout.tsx', 'features/dashboard/DashboardPage.tsx'] },
  { route: '/certificates', modules: ['layouts/SignedInLayout.tsx', 'features/certificates/CertificatesPage.tsx'] },
  { route: '/certificates/create', modules: ['layouts/SignedInLayout.tsx', 'features/certificates/CreateCertificatePage.tsx'] },
  { route: '/certificates/:id', modules: ['layouts/SignedInLayout.tsx', 'features/certificates/CertificateDetailPage.tsx'] },
  { route: '/profile', modules: ['layouts/SignedInLayout.tsx', 'features/profile/ProfilePage.tsx'] },
];

// Signing code that must never reach a verifier's page.
const WALLET_MARKERS = ['WalletProvider', 'StandardWalletAdapter', 'solana:signTransaction', 'Attesta Dev Wallet'];

const gz = new Map<string, number>();
function gzipKb(file: string) {
  if (!gz.has(file)) gz.set(file, gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length);
  return gz.get(file)!;
}

function ensureBuild() {
  if (process.argv.includes('--build') || !fs.existsSync(path.join(dist, 'index.html'))) {
    console.log('Building the app (npm run build:app)...');
    execSync('npm run build:app', { cwd: root, stdio: 'inherit' });
  }
}

/** Chunk graph from Vite's manifest, or from the HTML and the chunks' import statements. */
function loadGraph() {
  const manifestPath = path.join(dist, '.vite/manifest.json');
  const staticImports = new Map<string, string[]>();
  const bySource = new Map<string, string>();
  let entries: string[] = [];
  if (fs.existsSync(manifestPath)) {
    const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as Manifest;
    for (const [key, chunk] of Object.entries(manifest)) {
      staticImports.set(chunk.file, (chunk.imports ?? []).map((k) => manifest[k].file));
      if (chunk.src) bySource.set(chunk.src.replace(/^.*?src\//, ''), chunk.file);
      if (chunk.isEntry && key.endsWith('.html')) entries.push(chunk.file);
    }
    if (!entries.length) entries = Object.values(manifest).filter((c) => c.isEntry).map((c) => c.file);
    return { staticImports, bySource, entries, source: 'manifest' };
  }
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  entries = [...html.matchAll(/<script[^>]+type="module"[^>]+src="\/?([^"]+)"/g)].map((m) => m[1]);
  const assets = path.join(dist, 'assets');
  for (const name of fs.readdirSync(assets).filter((f) => f.endsWith('.js'))) {
    const code = fs.readFileSync(path.join(assets, name), 'utf8');
    const deps = [...code.matchAll(/(?:^|[;}\s])import\s*(?:[\w${}*,\s]+from\s*)?["']\.\/([^"']+\.js)["']/g)].map((m) => `assets/${m[1]}`);
    staticImports.set(`assets/${name}`, deps);
    // Without a manifest, chunks are found by the module's file name (Vite names chunks after it).
    const base = name.replace(/-[\w-]{8}\.js$/, '');
    bySource.set(base, `assets/${name}`);
  }
  return { staticImports, bySource, entries, source: 'html + chunk graph' };
}

function closure(start: string[], staticImports: Map<string, string[]>) {
  const seen = new Set<string>();
  const stack = [...start];
  while (stack.length) {
    const f = stack.pop()!;
    if (seen.has(f)) continue;
    seen.add(f);
    stack.push(...(staticImports.get(f) ?? []));
  }
  return seen;
}

ensureBuild();
const { staticImports, bySource, entries, source } = loadGraph();
console.log(`\nJavaScript per route (gzip, level 9) — graph from ${source}\n`);
const entryFiles = closure(entries, staticImports);
const detail = process.argv.includes('--detail');
const rows: { route: string; kb: number; files: number; wallet: boolean; budget?: boolean; missing: string[] }[] = [];
for (const r of ROUTES) {
  const missing: string[] = [];
  const starts = [...entries];
  for (const m of r.modules) {
    const file = bySource.get(`src/${m}`) ?? bySource.get(m) ?? bySource.get(path.basename(m).replace(/\.tsx?$/, ''));
    if (file) starts.push(file);
    else missing.push(m);
  }
  const files = closure(starts, staticImports);
  const bytes = [...files].filter((f) => f.endsWith('.js')).reduce((n, f) => n + gzipKb(f), 0);
  const wallet = [...files].some((f) => {
    const code = fs.readFileSync(path.join(dist, f), 'utf8');
    return WALLET_MARKERS.some((m) => code.includes(m));
  });
  rows.push({ route: r.route, kb: bytes / 1024, files: files.size, wallet, budget: r.budget, missing });
  if (detail) {
    const own = [...files].filter((f) => !entryFiles.has(f) && f.endsWith('.js')).sort((a, b) => gzipKb(b) - gzipKb(a));
    console.log(`${r.route}: entry ${([...entryFiles].filter((f) => f.endsWith('.js')).reduce((n, f) => n + gzipKb(f), 0) / 1024).toFixed(1)} kB + ${own.map((f) => `${path.basename(f)} ${(gzipKb(f) / 1024).toFixed(1)}`).join(', ')}`);
  }
}

const w = Math.max(...rows.map((r) => r.route.length));
for (const r of rows) {
  const over = r.budget && r.kb > BUDGET_KB;
  const flags = [
    r.budget ? (over ? `OVER ${BUDGET_KB} kB budget` : `≤ ${BUDGET_KB} kB budget`) : '',
    r.wallet ? 'loads wallet code' : '',
    r.missing.length ? `chunk not found: ${r.missing.join(', ')}` : '',
  ].filter(Boolean);
  console.log(`${r.route.padEnd(w)}  ${r.kb.toFixed(1).padStart(7)} kB  ${String(r.files).padStart(3)} files  ${flags.join('; ')}`);
}
const failures = rows.filter((r) => r.budget && (r.kb > BUDGET_KB || r.wallet || r.missing.length));
if (failures.length) {
  console.error(`\n${failures.length} verifier route(s) over budget or loading wallet code`);
  process.exitCode = 1;
} else {
  console.log(`\nVerifier routes within ${BUDGET_KB} kB gzip and free of wallet code.`);
}
