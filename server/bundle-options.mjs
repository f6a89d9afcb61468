// How the server's TypeScript is bundled (esbuild), shared by the production build (build.mjs) and a
// document reader started from source (src/services/documents/reader-entry.mjs): both run the same code.
// Packages load from node_modules as under tsx: native addons, and files they find beside themselves.
export const BUNDLE_OPTIONS = { bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external' };
