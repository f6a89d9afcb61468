// build.mjs: crate naming, CLI errors, and verify's failure paths (a tampered binary, a wrong .sha256).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildProgram, crateName, verifyProgram } from './build.mjs';
import { skipReason, skipToolchain, tmp, cleanupScratch } from './test-support';

afterAll(cleanupScratch);

const HERE = dirname(fileURLToPath(import.meta.url));
const BUILD = join(HERE, 'build.mjs');
const FIXTURE = join(HERE, 'fixtures/sbf-fixture');

describe('crateName', () => {
  it('prefers [lib] name over [package] name, ignoring other tables and arrays', () => {
    const dir = tmp('crate');
    writeFileSync(
      join(dir, 'Cargo.toml'),
      '[package]\nname = "my-program"\n\n[lib]\ncrate-type = ["cdylib", "lib"]\nname = "my_lib"\n\n[dependencies]\nname = "x"\n',
    );
    expect(crateName(dir)).toBe('my_lib');
    writeFileSync(join(dir, 'Cargo.toml'), '[package]\nname = "my-program"\n[lib]\ncrate-type = ["cdylib"]\n');
    expect(crateName(dir)).toBe('my_program');
  });
});

describe('build.mjs command line', () => {
  it('rejects unknown options with the list of valid ones', () => {
    const r = spawnSync(process.execPath, [BUILD, '--frob'], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/unknown option --frob \(use --verify, --program DIR/);
  });
});

describe(`verify failure paths${skipReason}`, { skip: skipToolchain }, () => {
  let deployDir = '';
  let so: Buffer;

  beforeAll(() => {
    deployDir = tmp('verify-deploy');
    const targetDir = tmp('verify-target');
    buildProgram({ programDir: FIXTURE, name: 'sbf_fixture', deployDir, targetDir, quiet: true });
    rmSync(targetDir, { recursive: true, force: true });
    so = readFileSync(join(deployDir, 'sbf_fixture.so'));
  });

  it('exits non-zero and prints both hashes when one byte of the committed .so differs', () => {
    const tampered = tmp('tampered');
    const copy = Buffer.from(so);
    copy[200] ^= 0xff;
    writeFileSync(join(tampered, 'sbf_fixture.so'), copy);
    writeFileSync(join(tampered, 'sbf_fixture.so.sha256'), readFileSync(join(deployDir, 'sbf_fixture.so.sha256')));
    const r = spawnSync(
      process.execPath,
      [BUILD, '--verify', '--program', FIXTURE, '--name', 'sbf_fixture', '--deploy-dir', tampered],
      { encoding: 'utf8' },
    );
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/committed: [0-9a-f]{64}\nrebuilt: {3}[0-9a-f]{64}/);
    expect(r.stderr).toMatch(/differs from a fresh build \(first difference at byte 200; sizes \d+ vs \d+\): run npm run build:program/);
  });

  it('reports a .sha256 that does not match the committed binary, and a missing binary', () => {
    const wrongSha = tmp('wrong-sha');
    writeFileSync(join(wrongSha, 'sbf_fixture.so'), so);
    writeFileSync(join(wrongSha, 'sbf_fixture.so.sha256'), `${'0'.repeat(64)}  sbf_fixture.so\n`);
    const r = verifyProgram({ programDir: FIXTURE, name: 'sbf_fixture', deployDir: wrongSha, quiet: true });
    expect(r.ok).toBe(false);
    expect(r.committed).toBe(r.rebuilt);
    expect(r.problems).toEqual([expect.stringMatching(/sbf_fixture\.so\.sha256 says "0{64}  sbf_fixture\.so" but the committed \.so hashes to "[0-9a-f]{64}  sbf_fixture\.so"/)]);

    const empty = tmp('empty-deploy');
    mkdirSync(empty, { recursive: true });
    const missing = verifyProgram({ programDir: FIXTURE, name: 'sbf_fixture', deployDir: empty, quiet: true });
    expect(missing.problems).toEqual([expect.stringMatching(/sbf_fixture\.so does not exist: run npm run build:program and commit it/)]);
  });
});
