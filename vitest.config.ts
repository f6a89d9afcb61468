import { defineConfig } from 'vitest/config';

// One runner for every layer: toolchain, program (bankrun + LiteSVM), server, browser end-to-end.
export default defineConfig({
  test: {
    include: ['programs/toolchain/**/*.test.ts', 'tests/**/*.test.ts', 'server/**/*.test.ts', 'shared/**/*.test.ts'],
    exclude: ['node_modules/**', 'dist/**', 'data/**'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    env: { RUST_LOG: 'error' },
    // Bankrun and LiteSVM are native and memory hungry; forks isolate them per file.
    pool: 'forks',
  },
});
