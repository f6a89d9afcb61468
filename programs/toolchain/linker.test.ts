// The linker shim: command-line parsing, rlib (ar) reading, and the whole pipeline on small IR.
import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isBitcode, link, LinkError, llvmErrorHint, parseArgs, readArchive } from './linker.mjs';
import { sectionHeaders, sh, skipReason, skipToolchain, tmp, cleanupScratch } from './test-support';
import { liteSvmProgram } from './svm-support';

afterAll(cleanupScratch);

const SHIM = join(dirname(fileURLToPath(import.meta.url)), 'bpf-linker');

describe('parseArgs', () => {
  it("reads rustc's bpf-linker command line", () => {
    const a = parseArgs([
      '--export-symbols', '/t/symbols', '/t/a.o', '/t/libcore.rlib', '-L', '/t/raw-dylibs', '--cpu', 'generic',
      '-o', '/t/lib.so', '-O3', '--debug',
    ]);
    expect(a).toEqual({
      exportSymbols: '/t/symbols', inputs: ['/t/a.o', '/t/libcore.rlib'], libDirs: ['/t/raw-dylibs'], cpu: 'generic',
      output: '/t/lib.so', optLevel: '3', debug: true,
    });
  });
  it('fails clearly on a missing output or an unknown option', () => {
    expect(() => parseArgs(['a.o'])).toThrow(/no output file \(-o OUT\)/);
    expect(() => parseArgs(['a.o', '-o', 'x', '--frobnicate'])).toThrow(/unknown option --frobnicate/);
    expect(() => parseArgs(['a.o', '-o'])).toThrow(/option -o needs a value/);
  });
});

describe('readArchive', () => {
  /** Builds a GNU ar archive: symbol table, long-name table, then members. */
  function ar(members: [string, Buffer][]): Buffer {
    const header = (name: string, size: number) =>
      Buffer.from(`${name.padEnd(16)}${'0'.padEnd(12)}${'0'.padEnd(6)}${'0'.padEnd(6)}${'644'.padEnd(8)}${String(size).padEnd(10)}\`\n`);
    const pad = (b: Uint8Array): Uint8Array => (b.length % 2 ? Buffer.concat([b, Buffer.from('\n')]) : b);
    const longNames = Buffer.from(members.filter(([n]) => n.length > 15).map(([n]) => `${n}/\n`).join(''));
    const parts: Uint8Array[] = [Buffer.from('!<arch>\n'), header('/', 4), Buffer.alloc(4)];
    if (longNames.length) parts.push(header('//', longNames.length), pad(longNames));
    let offset = 0;
    for (const [name, data] of members) {
      const field = name.length > 15 ? `/${offset}` : `${name}/`;
      if (name.length > 15) offset += name.length + 2;
      parts.push(header(field, data.length), pad(data));
    }
    return Buffer.concat(parts);
  }

  it('lists members with short and GNU long names, odd sizes padded', () => {
    const bc = Buffer.from([0x42, 0x43, 0xc0, 0xde, 1]);
    const members = readArchive(
      ar([
        ['lib.rmeta', Buffer.from('meta')],
        ['core-9f1d2c3b4a5e6f70.core.a1b2c3-cgu.0.rcgu.o', bc],
        ['x.o', Buffer.from('abc')],
      ]),
    );
    expect(members.map((m) => m.name)).toEqual(['lib.rmeta', 'core-9f1d2c3b4a5e6f70.core.a1b2c3-cgu.0.rcgu.o', 'x.o']);
    expect(isBitcode(members[1].data)).toBe(true);
    expect(Buffer.from(members[2].data).toString()).toBe('abc');
  });
  it('rejects a file that is not an archive', () => {
    expect(() => readArchive(Buffer.from('not an archive'))).toThrow(LinkError);
  });
});

describe('llvmErrorHint', () => {
  it('turns backend errors into advice about the Rust', () => {
    expect(llvmErrorHint("A call to built-in function '__udivti3' is not supported.")).toMatch(/u128/);
    expect(llvmErrorHint('Looks like the BPF stack limit is exceeded')).toMatch(/4 KiB/);
    expect(llvmErrorHint('too many arguments')).toMatch(/struct by reference/);
    expect(llvmErrorHint('something else')).toBe('');
  });
});

describe(`link (the whole pipeline)${skipReason}`, { skip: skipToolchain }, () => {
  const MAIN = `target triple = "bpfel"
declare i64 @helper(i64)
declare void @sol_log_64_(i64, i64, i64, i64, i64)
define i64 @entrypoint(ptr %input) {
  %n = load i64, ptr %input
  %h = call i64 @helper(i64 %n)
  %m = call { i64, i1 } @llvm.umul.with.overflow.i64(i64 %h, i64 %n)
  %p = extractvalue { i64, i1 } %m, 0
  %o = extractvalue { i64, i1 } %m, 1
  %of = zext i1 %o to i64
  call void @llvm.memset.p0.i64(ptr %input, i8 0, i64 %n, i1 false)
  call void @sol_log_64_(i64 %h, i64 %p, i64 %of, i64 0, i64 0)
  ret i64 0
}
declare { i64, i1 } @llvm.umul.with.overflow.i64(i64, i64)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)`;
  const LIB = `target triple = "bpfel"
define i64 @helper(i64 %x) { %r = add i64 %x, 7
  ret i64 %r }
define i64 @unused_in_library(i64 %x) { ret i64 %x }`;

  it('links an object with an rlib member, applies the fix-ups and writes a runnable .so', async () => {
    const dir = tmp('link');
    writeFileSync(join(dir, 'main.ll'), MAIN);
    writeFileSync(join(dir, 'lib.ll'), LIB);
    sh('llvm-as-22', ['-o', join(dir, 'main.o'), join(dir, 'main.ll')]);
    sh('llvm-as-22', ['-o', join(dir, 'helper.rcgu.o'), join(dir, 'lib.ll')]);
    writeFileSync(join(dir, 'lib.rmeta'), 'rust metadata, not bitcode');
    sh('llvm-ar-22', ['rc', join(dir, 'libhelper.rlib'), join(dir, 'lib.rmeta'), join(dir, 'helper.rcgu.o')]);
    writeFileSync(join(dir, 'symbols.o'), Buffer.from([0x7f, 0x45, 0x4c, 0x46])); // native, skipped
    writeFileSync(join(dir, 'symbols'), 'entrypoint\n');

    const out = join(dir, 'program.so');
    const { stats } = link(['--export-symbols', join(dir, 'symbols'), join(dir, 'main.o'), join(dir, 'symbols.o'),
      join(dir, 'libhelper.rlib'), '--cpu', 'generic', '-o', out, '-O3', '--debug']);
    expect(stats).toEqual({ memIntrinsics: 1, umulOverflow: 1, sret: 0 });
    const so = readFileSync(out);
    const dynstr = sectionHeaders(so).find((s) => s.name === '.dynstr')!;
    const names = Buffer.from(so.subarray(dynstr.offset, dynstr.offset + dynstr.size)).toString('latin1');
    expect(names.split('\0').filter(Boolean).sort()).toEqual(['sol_log_64_', 'sol_memset_']);
    expect(sh('llvm-objdump-22', ['-d', out])).not.toMatch(/unused_in_library/); // internalized and dropped

    const program = await liteSvmProgram(so);
    const r = await program.run([]);
    expect(r.error).toBeNull();
    // With no accounts the input starts with num_accounts = 0: helper(0) = 7, 7 * 0 = 0, no overflow.
    expect(r.logs).toContain('Program log: 0x7, 0x0, 0x0, 0x0, 0x0');
  });

  it('inlines functions with more than 5 parameters, and names the ones it cannot', async () => {
    const wide = (attrs: string) => `target triple = "bpfel"
declare void @sol_log_64_(i64, i64, i64, i64, i64)
define internal i64 @six(i64 %a, i64 %b, i64 %c, i64 %d, i64 %e, i64 %f) ${attrs} {
  %1 = add i64 %a, %b
  %2 = add i64 %1, %c
  %3 = add i64 %2, %d
  %4 = add i64 %3, %e
  %5 = add i64 %4, %f
  call void @sol_log_64_(i64 %5, i64 0, i64 0, i64 0, i64 0)
  ret i64 %5
}
define i64 @entrypoint(ptr %p) {
  %v = load volatile i64, ptr %p
  %w = add i64 %v, 1
  %r = call i64 @six(i64 %v, i64 %w, i64 2, i64 3, i64 4, i64 5)
  %s = call i64 @six(i64 %r, i64 %v, i64 %w, i64 %r, i64 %w, i64 %v)
  ret i64 0
}`;
    const dir = tmp('wide');
    // minsize + noinline-free: opt keeps the call at -Oz; the shim must inline it.
    writeFileSync(join(dir, 'ok.ll'), wide('minsize optsize'));
    sh('llvm-as-22', ['-o', join(dir, 'ok.o'), join(dir, 'ok.ll')]);
    link([join(dir, 'ok.o'), '-o', join(dir, 'ok.so'), '-Oz']);
    const r = await (await liteSvmProgram(readFileSync(join(dir, 'ok.so')))).run([]);
    // the input starts with num_accounts = 0: v = 0, w = 1 → 0+1+2+3+4+5 = 15, then 15+0+1+15+1+0 = 32
    expect(r.logs).toContain('Program log: 0xf, 0x0, 0x0, 0x0, 0x0');
    expect(r.logs).toContain('Program log: 0x20, 0x0, 0x0, 0x0, 0x0');

    writeFileSync(join(dir, 'never.ll'), wide('noinline'));
    sh('llvm-as-22', ['-o', join(dir, 'never.o'), join(dir, 'never.ll')]);
    expect(() => link([join(dir, 'never.o'), '-o', join(dir, 'never.so'), '-O3'])).toThrow(
      /more than 5 parameters .*cannot be inlined: `six`\. Pass a struct by reference/,
    );
  });

  it('the bpf-linker executable reports failures on stderr with a non-zero exit', () => {
    const dir = tmp('shim');
    writeFileSync(join(dir, 'wide.ll'), `target triple = "bpfel"
define i64 @entrypoint(ptr %p) {
  %a = load i128, ptr %p
  %q = udiv i128 %a, 10
  %t = trunc i128 %q to i64
  ret i64 %t
}`);
    sh('llvm-as-22', ['-o', join(dir, 'wide.o'), join(dir, 'wide.ll')]);
    const r = spawnSync(SHIM, [join(dir, 'wide.o'), '-o', join(dir, 'out.so'), '-O3'], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/bpf-linker: error: llc-22 failed/);
    expect(r.stderr).toMatch(/__udivti3/);
    expect(r.stderr).toMatch(/hint: u128\/i128 arithmetic is not supported/);
    expect(existsSync(join(dir, 'out.so'))).toBe(false);

    const usage = spawnSync(SHIM, ['x.o'], { encoding: 'utf8' });
    expect(usage.status).toBe(1);
    expect(usage.stderr).toMatch(/bpf-linker: error: no output file/);
  });
});
