import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

/** A codeSplitting test matching module ids that end with one of `paths` (or match a RegExp). */
function modules(paths: (string | RegExp)[]) {
  return (id: string) => {
    const file = id.replaceAll('\\', '/');
    return paths.some((p) => (typeof p === 'string' ? file.endsWith(`/${p}`) : p.test(file)));
  };
}

// The SPA lives in app/; the API server (Fastify + tRPC) runs on :3000 and serves app/dist in production.
const backend = 'http://localhost:3000';

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), tailwindcss()],
  build: {
    // Every browser the app supports preloads modules natively (Chrome 66, Safari 17, Firefox 115):
    // the polyfill would only add weight to the entry every page loads.
    modulePreload: { polyfill: false },
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Small app modules the verifier pages share, in a few chunks instead of a dozen 0.2–0.8 kB
          // ones: each chunk costs a request, its own import/export boilerplate and a fresh gzip
          // window (together ~25% of such tiny files). Grouped by who loads them, so a verifier page
          // downloads next to nothing it does not use. Only the listed modules: their dependencies
          // (react, radix, lucide's base) stay where they were.
          groups: [
            {
              // What both /view and /verification show: the public header, cards, formatting and icons.
              name: 'verifier-common',
              includeDependenciesRecursively: false,
              priority: 3,
              test: modules([
                /lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/](shield-check|circle-x|circle-check|clock|external-link|copy|check|download|file-text|info|circle-dashed|ban|replace|coins|upload|arrow-left)\.js$/,
                'src/features/public-view/PublicShell.tsx',
                'src/components/ui/card.tsx',
                'src/features/certificates/lib/format.ts',
                'shared/explorer.ts',
              ]),
            },
            {
              // A certificate's facts as /view (and the holder's detail page) show them.
              name: 'certificate-facts',
              includeDependenciesRecursively: false,
              priority: 2,
              test: modules([
                'src/features/certificates/components/CertificateFacts.tsx',
                'src/features/certificates/components/CopyField.tsx',
                'src/features/certificates/components/status.tsx',
                'src/features/certificates/lib/chain-reason.ts',
                'shared/program/reasons.ts',
                'src/features/profile/UserAvatar.tsx',
                'src/lib/dates.ts',
              ]),
            },
            {
              // The lookup form of /verification (the file drop zone is the create form's too).
              name: 'lookup-form',
              includeDependenciesRecursively: false,
              priority: 1,
              test: modules([
                'src/features/certificates/components/FileDropZone.tsx',
                'src/components/ui/label.tsx',
                'src/components/ui/input.tsx',
                'src/features/verification/lib/hash.ts',
              ]),
            },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/trpc': backend,
      '/api': backend,
      '/files': backend,
      '/permanent': backend,
    },
  },
  preview: {
    proxy: {
      '/trpc': backend,
      '/api': backend,
      '/files': backend,
      '/permanent': backend,
    },
  },
});
