import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

// The SPA lives in app/; the API server (Fastify + tRPC) runs on :3000 and serves app/dist in production.
const backend = 'http://localhost:3000';

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), tailwindcss()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 600,
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
