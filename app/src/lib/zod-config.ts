// Imported first by main.tsx, before any schema is built: zod's JIT probes `new Function('')` when an
// object schema is created, which our Content-Security-Policy (script-src 'self', no 'unsafe-eval')
// reports as a violation even though zod catches it. jitless = the same validation, no eval probe.
import { z } from 'zod';

z.config({ jitless: true });
