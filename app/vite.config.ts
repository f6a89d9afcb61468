import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

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
          groups: [
            {
              // The icons every verifier page shows, in one chunk instead of one per icon: each tiny
              // chunk costs a request and its own import boilerplate.
              name: 'icons-verifier',
              // Only the icons: their dependencies (react, lucide's base) stay where they were.
              includeDependenciesRecursively: false,
              test: /lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/](shield-check|circle-x|circle-check|clock|external-link|copy|check|download|file-text|info|circle-dashed|ban|replace|coins|upload|arrow-left)\.js$/,
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
