// Shared by the toolchain tests: skip rules, compiling small .ll files, reading ELF fields.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { missingToolchain } from './build.mjs';

const missing = missingToolchain();
const required = process.env.ATTESTA_REQUIRE_TOOLCHAIN === '1';

/** True when toolchain tests must be skipped (never under ATTESTA_REQUIRE_TOOLCHAIN=1: they fail). */
export const skipToolchain = missing.length > 0 && !required;

/** Suffix for describe() titles so a skip says why. */
export const skipReason = skipToolchain
  ? ` [skipped: missing ${missing.join(', ')}; set ATTESTA_REQUIRE_TOOLCHAIN=1 to fail instead]`
  : '';

const scratch: string[] = [];

/** Removes every directory made by `tmp`; test files call it in afterAll. */
export function cleanupScratch(): void {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A scratch directory, removed by `cleanupScratch`. */
export function tmp(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `attesta-${prefix}-`));
  scratch.push(dir);
  return dir;
}

/**
 * Compiles textual IR with llc-22 to a relocatable BPF object.
 * @param cpu v2 matches the shim; v3 is used to provoke ALU32/JMP32 errors.
 */
export function llcObject(ir: string, cpu = 'v2', extra: string[] = []): Uint8Array {
  const dir = tmp('llc');
  writeFileSync(join(dir, 'in.ll'), ir);
  const r = spawnSync(
    'llc-22',
    ['-march=bpfel', `-mcpu=${cpu}`, '-mattr=+allows-misaligned-mem-access', '-filetype=obj', ...extra, '-o', join(dir, 'out.o'), join(dir, 'in.ll')],
    { encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`llc-22 failed: ${r.stderr || r.error}`);
  return readFileSync(join(dir, 'out.o'));
}

export interface SectionHeader {
  name: string;
  type: number;
  flags: bigint;
  addr: number;
  offset: number;
  size: number;
  link: number;
}

/** Section headers of a 64-bit LE ELF file, names resolved. */
export function sectionHeaders(elf: Uint8Array): SectionHeader[] {
  const dv = new DataView(elf.buffer, elf.byteOffset, elf.byteLength);
  const shoff = Number(dv.getBigUint64(40, true));
  const shnum = dv.getUint16(60, true);
  const shstrndx = dv.getUint16(62, true);
  const raw = Array.from({ length: shnum }, (_, i) => {
    const o = shoff + 64 * i;
    return {
      nameOff: dv.getUint32(o, true),
      type: dv.getUint32(o + 4, true),
      flags: dv.getBigUint64(o + 8, true),
      addr: Number(dv.getBigUint64(o + 16, true)),
      offset: Number(dv.getBigUint64(o + 24, true)),
      size: Number(dv.getBigUint64(o + 32, true)),
      link: dv.getUint32(o + 40, true),
    };
  });
  const strs = raw[shstrndx];
  const name = (off: number) => {
    let end = strs.offset + off;
    while (elf[end] !== 0) end++;
    return Buffer.from(elf.subarray(strs.offset + off, end)).toString('latin1');
  };
  return raw.map(({ nameOff, ...rest }) => ({ name: name(nameOff), ...rest }));
}

/** Runs a command and returns stdout, throwing with stderr on failure. */
export function sh(cmd: string, args: string[], cwd?: string): string {
  const r = spawnSync(cmd, args, { encoding: 'utf8', cwd, maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stderr || r.error}`);
  return r.stdout;
}
