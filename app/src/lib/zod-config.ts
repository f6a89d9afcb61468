// Imported first by main.tsx, before any schema is built: zod's JIT probes `new Function('')` when an
// object schema is created, which our Content-Security-Policy (script-src 'self', no 'unsafe-eval')
// reports as a violation even though zod catches it. jitless = the same validation, no eval probe.
//
// zod 4 keeps its global settings in `globalThis.__zod_globalConfig` and adopts an object already
// there (zod/v4/core/core.js). Setting it here, without importing zod, keeps zod out of the entry
// chunk every page loads (3 kB gzip); the routes that validate load zod and find the setting.
// tests/app/zod-config.test.ts fails if a zod upgrade stops honouring it.
const holder = globalThis as typeof globalThis & { __zod_globalConfig?: Record<string, unknown> };
holder.__zod_globalConfig = Object.assign(holder.__zod_globalConfig ?? {}, { jitless: true });

export {};
