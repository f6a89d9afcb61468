// What every server start loads: the production build's static imports, followed through the chunks the
// entry point imports. Packages only some installations or some requests need are imported when first
// needed, so `npm start` on the embedded defaults does not pay for them (#15: start-up is module loading,
// not data). Measured on this machine, each alone after @solana/web3.js: uploadthing/server (Effect)
// ~620 ms, pdf-lib ~170 ms, @solana/spl-token ~150 ms, @coral-xyz/anchor ~100 ms, pg ~70 ms.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { productionArgs } from './faults-support/child';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Import specifiers of one built file: `static` (import … from / import "…") and `dynamic` (import("…")). */
function importsOf(file: string): { static: string[]; dynamic: string[] } {
  const code = fs.readFileSync(file, 'utf8');
  return {
    static: [...code.matchAll(/^(?:import|export)\s(?:[^;]*?\sfrom\s*)?"([^"]+)";?$/gm)].map((m) => m[1]),
    dynamic: [...code.matchAll(/\bimport\(\s*"([^"]+)"\s*\)/g)].map((m) => m[1]),
  };
}

/** Everything loaded before the server can listen: the packages reached through static imports from main.mjs. */
function startupClosure(): { packages: Set<string>; files: Set<string>; dynamic: Set<string> } {
  const main = path.join(ROOT, productionArgs().at(-1)!);
  const files = new Set<string>();
  const packages = new Set<string>();
  const dynamic = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const found = importsOf(file);
    for (const d of found.dynamic) dynamic.add(d);
    for (const spec of found.static) {
      if (spec.startsWith('./')) visit(path.join(path.dirname(file), spec));
      else packages.add(spec);
    }
  };
  visit(main);
  return { packages, files, dynamic };
}

describe('start-up imports', () => {
  it('the production build loads what only some requests or installations need when it is first used', () => {
    const { packages, files, dynamic } = startupClosure();
    // The premise: the parse finds the imports every start needs, through the chunks main.mjs imports.
    for (const needed of ['fastify', 'litesvm', 'kysely', '@solana/web3.js', 'better-sqlite3']) expect(packages, needed).toContain(needed);
    expect(files.size).toBeGreaterThan(1);
    for (const lazy of ['uploadthing/server', '@coral-xyz/anchor', '@solana/spl-token', '@solana/spl-token-metadata', 'pdf-lib', 'pg']) {
      expect(packages, lazy).not.toContain(lazy);
    }
    // litesvm requires kit's CommonJS build; the server uses that one (services/chain/kit.ts) instead of
    // importing kit's ES module build beside it (the same packages loaded twice).
    expect(packages).not.toContain('@solana/kit');
    // Still in the build, loaded on demand: the packages themselves, or the chunks that import them.
    const dir = path.dirname([...files][0]);
    const onDemand = new Set<string>();
    for (const d of dynamic) {
      if (!d.startsWith('./')) onDemand.add(d);
      else for (const spec of importsOf(path.join(dir, d)).static) onDemand.add(spec);
    }
    for (const lazy of ['uploadthing/server', '@coral-xyz/anchor', '@solana/spl-token', '@solana/spl-token-metadata', 'pdf-lib', 'pg']) {
      expect(onDemand, lazy).toContain(lazy);
    }
  });
});
