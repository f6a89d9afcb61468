// What every server start loads: the production build's static imports. Packages only some
// installations or some requests need are imported when first needed, so `npm start` on the embedded
// defaults does not pay for them (#15: start-up is module loading, not data). Measured on this
// machine, each alone after @solana/web3.js: uploadthing/server (Effect) ~620 ms, @coral-xyz/anchor ~100 ms.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { productionArgs } from './faults-support/child';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The packages the bundle imports statically (loaded before the server can listen). */
function staticImports(): Set<string> {
  const code = fs.readFileSync(path.join(ROOT, productionArgs().at(-1)!), 'utf8');
  return new Set([...code.matchAll(/^import\s[^;]*?from\s*"([^"]+)";?$/gm)].map((m) => m[1]));
}

describe('start-up imports', () => {
  it('the production build imports the UploadThing SDK and Anchor only when they are used', () => {
    const imports = staticImports();
    // The premise: the parse finds the imports every start needs.
    for (const needed of ['fastify', 'litesvm', 'kysely', '@solana/web3.js']) expect(imports, needed).toContain(needed);
    expect(imports).not.toContain('uploadthing/server');
    expect(imports).not.toContain('@coral-xyz/anchor');
    // Still in the build, loaded on demand.
    const code = fs.readFileSync(path.join(ROOT, productionArgs().at(-1)!), 'utf8');
    expect(code).toMatch(/import\("uploadthing\/server"\)/);
    expect(code).toMatch(/import\("@coral-xyz\/anchor"\)/);
  });
});
