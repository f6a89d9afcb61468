// End to end: cargo + the linker shim build the fixture crate (fixtures/sbf-fixture), and the .so
// runs in LiteSVM and solana-bankrun. Also checks that builds are byte-identical across clone paths.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildProgram, cargoBuild } from './build.mjs';
import { skipReason, skipToolchain, tmp, cleanupScratch } from './test-support';
import { bankrunProgram, liteSvmProgram, type RunResult } from './svm-support';

afterAll(cleanupScratch);

const FIXTURE = join(dirname(fileURLToPath(import.meta.url)), 'fixtures/sbf-fixture');
const NAME = 'sbf_fixture';
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest();
const u64le = (...xs: bigint[]) => Buffer.concat(xs.map((x) => { const b = Buffer.alloc(8); b.writeBigUInt64LE(x); return b; }));

/** The fixture's behaviour, asserted identically against both runtimes. */
function fixtureContract(runtime: string, getRun: () => (data: number[] | Uint8Array) => Promise<RunResult>) {
  describe(runtime, () => {
    it('logs, and returns the sol_sha256 digest of the instruction data', async () => {
      const r = await getRun()([0, 1, 2, 3]);
      expect(r.error).toBeNull();
      expect(r.logs).toContain('Program log: fixture: hello');
      const digest = sha256(Buffer.from([1, 2, 3]));
      expect(r.returnData.equals(digest)).toBe(true);
      expect(r.logs).toContain(`Program log: 0x3, 0x${digest[0].toString(16)}, 0x0, 0x0, 0x2a`);
    });

    it('reports a bounds-check panic with its message and location', async () => {
      const r = await getRun()([1, 9]);
      expect(r.ok).toBe(false);
      expect(r.logs).toContain('Program log: index out of bounds: the len is 4 but the index is 9');
      expect(r.logs.join('\n')).toMatch(/Panicked in src\/lib\.rs at \d+:\d+/);
    });

    it('reports a formatted panic', async () => {
      const r = await getRun()([2, 0, 0]);
      expect(r.ok).toBe(false);
      expect(r.logs).toContain('Program log: fixture panic 2');
    });

    it('copies more than 64 bytes (sol_memmove_/sol_memset_) correctly', async () => {
      const payload = Buffer.alloc(150, 5);
      const r = await getRun()(Buffer.concat([Buffer.from([3]), payload]));
      expect(r.error).toBeNull();
      const expected = Buffer.concat([sha256(payload), sha256(Buffer.alloc(128, 5))]);
      expect(r.returnData.equals(expected)).toBe(true);
    });

    it('checked_mul: returns the product, and a custom error on overflow', async () => {
      const ok = await getRun()(Buffer.concat([Buffer.from([4]), u64le(3n, 5n)]));
      expect(ok.returnData.equals(u64le(15n))).toBe(true);
      const of = await getRun()(Buffer.concat([Buffer.from([4]), u64le(1n << 33n, 1n << 31n)]));
      expect(of.ok).toBe(false);
      expect(of.logs).toContain('Program log: fixture: overflow');
      expect(of.logs.join('\n')).toMatch(/custom program error: 0x2/);
      const edge = await getRun()(Buffer.concat([Buffer.from([4]), u64le(1n << 32n, (1n << 32n) - 1n)]));
      expect(edge.returnData.equals(u64le((1n << 64n) - (1n << 32n)))).toBe(true);
    });

    it('compares bytes (array and slice equality go through memcmp from compiler_builtins)', async () => {
      const same = await getRun()([6, ...Buffer.alloc(32, 9), ...Buffer.alloc(32, 9)]);
      expect([...same.returnData]).toEqual([1, 1, 0]);
      const lower = Buffer.alloc(32, 9);
      lower[31] = 8;
      const diff = await getRun()([6, ...lower, ...Buffer.alloc(32, 9)]);
      expect([...diff.returnData]).toEqual([0, 0, 1]);
    });

    it('dispatches through a vtable (callx)', async () => {
      const square = await getRun()([5, 0, ...u64le(6n)]);
      expect(square.returnData.equals(u64le(36n))).toBe(true);
      const rect = await getRun()([5, 1, ...u64le(6n)]);
      expect(rect.returnData.equals(u64le(18n))).toBe(true);
    });
  });
}

describe(`fixture program built by cargo + bpf-linker${skipReason}`, { skip: skipToolchain }, () => {
  let deployDir = '';
  let so: Buffer;
  let lite: Awaited<ReturnType<typeof liteSvmProgram>>;
  let bank: Awaited<ReturnType<typeof bankrunProgram>>;

  beforeAll(async () => {
    deployDir = tmp('fixture-deploy');
    const targetDir = tmp('fixture-target');
    const r = buildProgram({ programDir: FIXTURE, name: NAME, deployDir, targetDir, quiet: true });
    rmSync(targetDir, { recursive: true, force: true });
    so = readFileSync(r.soPath);
    expect(readFileSync(`${r.soPath}.sha256`, 'utf8')).toBe(`${r.hash}  ${NAME}.so\n`);
    lite = await liteSvmProgram(so);
    bank = await bankrunProgram(deployDir, NAME);
  });

  fixtureContract('LiteSVM (solana-sbpf 0.23)', () => lite.run);
  fixtureContract('solana-bankrun (rbpf 0.8)', () => bank.run);

  it('builds byte-identical programs from two different clone paths', () => {
    // The fixture's .cargo/config.toml points at ../../bpf-linker, so copy the whole toolchain.
    const toolchain = join(tmp('clone'), 'somewhere/else/toolchain');
    cpSync(dirname(dirname(FIXTURE)), toolchain, { recursive: true, filter: (src) => !/\/target(\/|$)/.test(src) });
    const copy = join(toolchain, 'fixtures/sbf-fixture');
    const targetDir = tmp('clone-target');
    try {
      const again = cargoBuild({ programDir: copy, targetDir, quiet: true });
      expect(sha256(again).toString('hex')).toBe(sha256(so).toString('hex'));
    } finally {
      rmSync(targetDir, { recursive: true, force: true });
    }
  });

  it('also links a debug (opt-level 0, non-LTO) build that runs', async () => {
    const targetDir = tmp('fixture-dev');
    try {
      const { spawnSync } = await import('node:child_process');
      const r = spawnSync('/usr/bin/cargo', ['build', '--offline', '--target', 'bpfel-unknown-none', '--target-dir', targetDir], {
        cwd: FIXTURE, encoding: 'utf8',
      });
      expect(r.status, r.stderr).toBe(0);
      const dev = await liteSvmProgram(readFileSync(join(targetDir, 'bpfel-unknown-none/debug/libsbf_fixture.so')));
      const hello = await dev.run([0, 7]);
      expect(hello.returnData.equals(sha256(Buffer.from([7])))).toBe(true);
      const of = await dev.run(Buffer.concat([Buffer.from([4]), u64le(1n << 40n, 1n << 40n)]));
      expect(of.logs).toContain('Program log: fixture: overflow');
    } finally {
      rmSync(targetDir, { recursive: true, force: true });
    }
  });
});
