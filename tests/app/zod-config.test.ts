// The app sets zod's jitless mode without importing zod (app/src/lib/zod-config.ts, to keep zod out of
// the entry chunk). This holds it to zod's behaviour: the setting must be what zod then reads, and
// building and parsing an object schema must not evaluate code (our CSP forbids it).
import { describe, expect, it, vi } from 'vitest';

describe('app zod config', () => {
  it('is the config zod reads, and object schemas then never call Function', async () => {
    vi.resetModules();
    await import('../../app/src/lib/zod-config');
    const { z } = await import('zod');
    expect(z.config().jitless).toBe(true);
    const spy = vi.spyOn(globalThis, 'Function');
    const schema = z.object({ a: z.string(), b: z.number().optional() });
    expect(schema.parse({ a: 'x', b: 1 })).toEqual({ a: 'x', b: 1 });
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
  });
});
