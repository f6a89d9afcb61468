// The committed programs/certificates/deploy/certificates.so must be exactly what the sources build
// to (npm run verify:program). CI sets ATTESTA_REQUIRE_TOOLCHAIN=1 so this cannot be skipped there.
import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PROGRAM_DIR, verifyProgram } from './build.mjs';
import { skipReason, skipToolchain } from './test-support';

const hasSources = existsSync(join(PROGRAM_DIR, 'src'));
const sourcesReason = hasSources ? '' : ' [skipped: programs/certificates/src does not exist yet]';

describe(`verify:program${skipReason}${sourcesReason}`, { skip: skipToolchain || !hasSources }, () => {
  it('rebuilds certificates.so byte for byte and matches its .sha256', { timeout: 300_000 }, () => {
    const r = verifyProgram({ quiet: true });
    // On failure the message carries both hashes and what to run.
    expect(r.problems, `committed ${r.committed ?? '(none)'} vs rebuilt ${r.rebuilt}`).toEqual([]);
    expect(r.committed).toBe(r.rebuilt);
  });
});
