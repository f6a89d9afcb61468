// What each route makes the browser download: gzip size of the JavaScript a route loads (entry +
// its lazy route chunk + everything those import statically), from a built app (app/dist). Used by
// `npm run bench:app` (prints the table) and tests/app/bundle-budget.test.ts (holds the budgets).
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * Budgets (gzip): verifiers open /view and /verification, often on a phone, so those stay light and
 * wallet-free; a signed-in route (wallet, forms) stays under its own.
 */
export const BUDGETS_KB = { verifier: 140, signedIn: 220 } as const;
type Budget = keyof typeof BUDGETS_KB;

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
export const ROUTES: { route: string; modules: string[]; budget?: Budget }[] = [
  { route: '/ (landing)', modules: [] },
  { route: '/view/:userId/:certificateId', modules: ['features/public-view/PublicViewPage.tsx'], budget: 'verifier' },
  { route: '/verification (visitor)', modules: ['features/verification/VerificationPage.tsx'], budget: 'verifier' },
  { route: '/explorer/address/:address', modules: ['features/explorer/ExplorerPage.tsx'] },
  { route: '/login', modules: ['features/auth/LoginPage.tsx'] },
  { route: '/dashboard', modules: ['layouts/SignedInLayout.tsx', 'features/dashboard/DashboardPage.tsx'], budget: 'signedIn' },
  { route: '/certificates', modules: ['layouts/SignedInLayout.tsx', 'features/certificates/CertificatesPage.tsx'], budget: 'signedIn' },
  { route: '/certificates/create', modules: ['layouts/SignedInLayout.tsx', 'features/certificates/CreateCertificatePage.tsx'], budget: 'signedIn' },
  { route: '/certificates/:id', modules: ['layouts/SignedInLayout.tsx', 'features/certificates/CertificateDetailPage.tsx'], budget: 'signedIn' },
  { route: '/profile', modules: ['layouts/SignedInLayout.tsx', 'features/profile/ProfilePage.tsx'], budget: 'signedIn' },
  { route: '/institution', modules: ['layouts/SignedInLayout.tsx', 'features/institutions/InstitutionPage.tsx'], budget: 'signedIn' },
  { route: '/operator', modules: ['layouts/SignedInLayout.tsx', 'features/operator/OperatorPage.tsx'], budget: 'signedIn' },
];

// Signing code that must never reach a verifier's page.
const WALLET_MARKERS = ['WalletProvider', 'StandardWalletAdapter', 'solana:signTransaction', 'Attesta Dev Wallet'];


/** Chunk graph from Vite's manifest, or from the HTML and the chunks' import statements. */
function loadGraph(dist: string) {
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


export interface RouteSize {
  route: string;
  kb: number;
  files: number;
  /** Loads signing code (a verifier route must not). */
  wallet: boolean;
  budget?: Budget;
  budgetKb?: number;
  /** Route modules whose chunk was not found in the build (the table would be wrong). */
  missing: string[];
  /** Beyond the entry: the route's own chunks, largest first (file, kB). */
  own: [string, number][];
}

/** The JavaScript each route loads from the build in `dist`, and how its budget stands. */
export function measureRoutes(dist: string): { rows: RouteSize[]; source: string; entryKb: number } {
  const gz = new Map<string, number>();
  const gzipBytes = (file: string) => {
    if (!gz.has(file)) gz.set(file, gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length);
    return gz.get(file)!;
  };
  const { staticImports, bySource, entries, source } = loadGraph(dist);
  const entryFiles = closure(entries, staticImports);
  const rows = ROUTES.map((r): RouteSize => {
    const missing: string[] = [];
    const starts = [...entries];
    for (const m of r.modules) {
      const file = bySource.get(`src/${m}`) ?? bySource.get(m) ?? bySource.get(path.basename(m).replace(/\.tsx?$/, ''));
      if (file) starts.push(file);
      else missing.push(m);
    }
    const files = [...closure(starts, staticImports)].filter((f) => f.endsWith('.js'));
    const wallet = files.some((f) => {
      const code = fs.readFileSync(path.join(dist, f), 'utf8');
      return WALLET_MARKERS.some((m) => code.includes(m));
    });
    const own = files.filter((f) => !entryFiles.has(f)).map((f): [string, number] => [path.basename(f), gzipBytes(f) / 1024]).sort((a, b) => b[1] - a[1]);
    const kb = files.reduce((n, f) => n + gzipBytes(f), 0) / 1024;
    return { route: r.route, kb, files: files.length, wallet, budget: r.budget, budgetKb: r.budget && BUDGETS_KB[r.budget], missing, own };
  });
  const entryKb = [...entryFiles].filter((f) => f.endsWith('.js')).reduce((n, f) => n + gzipBytes(f), 0) / 1024;
  return { rows, source, entryKb };
}

/** Why a route fails its budget, or null: over its size, a verifier route with wallet code, or a chunk not found. */
export function budgetProblem(r: RouteSize): string | null {
  if (r.missing.length) return `chunk not found: ${r.missing.join(', ')}`;
  if (r.budget === 'verifier' && r.wallet) return 'loads wallet code';
  if (r.budgetKb !== undefined && r.kb > r.budgetKb) return `${r.kb.toFixed(1)} kB is over the ${r.budgetKb} kB budget`;
  return null;
}
