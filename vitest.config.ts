import os from 'node:os';
import { defineConfig } from 'vitest/config';

// One runner for every layer: toolchain, program (bankrun + LiteSVM), server, browser end-to-end.
// The server suite runs twice: on SQLite (embedded default) and on a real PostgreSQL server.
export default defineConfig({
  test: {
    exclude: ['node_modules/**', 'dist/**', 'data/**'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // expect.poll's default (1 s) assumes an idle machine: with two files at a time on two cores, a
    // browser's click → clipboard or a page's re-render can take longer, and a right answer came too late
    // (institutions' copy buttons failed a CI run). A poll that passes returns at once; only a failing
    // one waits the whole timeout.
    expect: { poll: { timeout: 10_000 } },
    env: { RUST_LOG: 'error' },
    // A file that never finishes would leave the run silent until CI kills it: the watchdog names it.
    reporters: ['default', './tests/support/stall-watchdog.ts'],
    // Bankrun and LiteSVM are native and memory hungry; forks isolate them per file.
    pool: 'forks',
    // Two files at a time even on two cores (vitest's default there is one): most of a file's time is
    // spent waiting on the processes it starts (servers, readers, Chromium, PostgreSQL, peers).
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    projects: [
      {
        extends: true,
        test: {
          name: 'main',
          include: ['programs/toolchain/**/*.test.ts', 'tests/**/*.test.ts', 'server/**/*.test.ts', 'shared/**/*.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'server-postgres',
          include: ['server/test/**/*.test.ts'],
          // The soak's short form measures the embedded default; its PostgreSQL figures come from bench:soak.
          // Subjects the database plays no part in run once, on the embedded default: reading documents
          // (reader processes, bombs, hostile and unreadable content, hidden text) and what one client can
          // make the HTTP server or /rpc hold (connections, bodies, faucet, PubSub output, proxies). What they
          // do in the database (add a certificate, record a verdict) the remaining tests do on PostgreSQL.
          exclude: [
            'node_modules/**',
            'server/test/soak.test.ts',
            'server/test/reader-warm.test.ts',
            'server/test/document-bomb.test.ts',
            'server/test/hostile-files.test.ts',
            'server/test/unreadable-content.test.ts',
            'server/test/attack-content.test.ts',
            'server/test/attack-resources.test.ts',
            'server/test/body-limit.test.ts',
            'server/test/rpc-abuse.test.ts',
            'server/test/rpc-pubsub-output.test.ts',
            'server/test/attack-proxy.test.ts',
            'server/test/startup-imports.test.ts',
          ],
          env: { RUST_LOG: 'error', ATTESTA_TEST_DB: 'postgres' },
          globalSetup: ['server/test/pg/global-setup.ts'],
        },
      },
    ],
  },
});
