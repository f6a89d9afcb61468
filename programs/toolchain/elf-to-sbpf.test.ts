// The ELF converter on objects llc-22 compiles from small IR files: the happy path runs in LiteSVM,
// and every rejection names what is wrong and what to change.
import { afterAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { elfToSbpf, MM_PROGRAM_START, SbpfError } from './elf-to-sbpf.mjs';
import { llcObject, sectionHeaders, sh, skipReason, skipToolchain, tmp, cleanupScratch } from './test-support';
import { liteSvmProgram } from './svm-support';

afterAll(cleanupScratch);

// entrypoint logs a rodata string (lddw), loads a function pointer from a constant table
// (R_BPF_64_ABS64) and calls it (callx), calls a function placed in another code section
// (cross-section R_BPF_64_32) and logs the results with sol_log_64_.
const PROGRAM = `
target triple = "bpfel"
@msg = private unnamed_addr constant [14 x i8] c"converter test"
@table = internal constant [2 x ptr] [ptr @twice, ptr @msg]
declare void @sol_log_(ptr, i64)
declare void @sol_log_64_(i64, i64, i64, i64, i64)
define internal i64 @twice(i64 %x) noinline { %r = mul i64 %x, 2
  ret i64 %r }
define internal i64 @elsewhere(i64 %x) noinline section ".text.elsewhere" { %r = add i64 %x, 1000
  ret i64 %r }
define i64 @entrypoint(ptr %input) {
  call void @sol_log_(ptr @msg, i64 14)
  %fp = load volatile ptr, ptr @table
  %a = call i64 %fp(i64 21)
  %sp = load volatile ptr, ptr getelementptr (i8, ptr @table, i64 8)
  %first = load i8, ptr %sp
  %b = call i64 @elsewhere(i64 %a)
  %f = zext i8 %first to i64
  call void @sol_log_64_(i64 %a, i64 %b, i64 %f, i64 0, i64 0)
  ret i64 0
}`;

const read64 = (b: Uint8Array, at: number) => new DataView(b.buffer, b.byteOffset).getBigUint64(at, true);

describe(`elfToSbpf on llc output${skipReason}`, { skip: skipToolchain }, () => {
  it('produces a loadable SBPF v0 shared object that runs in LiteSVM', async () => {
    const so = elfToSbpf(llcObject(PROGRAM));
    const dv = new DataView(so.buffer, so.byteOffset);
    expect(dv.getUint16(16, true)).toBe(3); // ET_DYN
    expect(dv.getUint16(18, true)).toBe(247); // EM_BPF
    expect(dv.getUint32(48, true)).toBe(0); // e_flags: SBPF v0

    const secs = sectionHeaders(so);
    expect(secs.map((s) => s.name)).toEqual([
      '', '.text', '.rodata', '.dynamic', '.dynsym', '.dynstr', '.rel.dyn', '.symtab', '.strtab', '.shstrtab',
    ]);
    for (const s of secs.filter((x) => x.flags & 2n)) expect(s.addr, s.name).toBe(s.offset);
    const text = secs.find((s) => s.name === '.text')!;
    const entry = Number(dv.getBigUint64(24, true));
    expect(entry).toBeGreaterThanOrEqual(text.addr);
    expect(entry).toBeLessThan(text.addr + text.size);
    // DT_SYMTAB must equal the sh_addr of .dynsym
    const dynamic = secs.find((s) => s.name === '.dynamic')!;
    const tags = new Map<bigint, bigint>();
    for (let o = dynamic.offset; o < dynamic.offset + dynamic.size; o += 16) tags.set(read64(so, o), read64(so, o + 8));
    expect(Number(tags.get(6n))).toBe(secs.find((s) => s.name === '.dynsym')!.addr);

    const path = writeTemp(so);
    const dis = sh('llvm-objdump-22', ['-d', path]);
    expect(dis).toMatch(/<entrypoint>:/);
    expect(dis).toMatch(/<twice>:/);
    expect(dis).toMatch(/<elsewhere>:/); // merged into the single .text
    const relocs = sh('llvm-readelf-22', ['-r', path]);
    expect(relocs).toMatch(/R_BPF_64_32\s+0+ sol_log_\n/);
    expect(relocs).toMatch(/R_BPF_64_32\s+0+ sol_log_64_\n/);
    expect(dis.match(/85 00 00 00 ff ff ff ff/g)).toHaveLength(2); // syscalls: imm -1 until loaded
    expect(dis).toMatch(/8d 00 00 00 0[1-9] 00 00 00\s+callx/); // register moved from dst to imm
    const lddw = /18 \w\w 00 00 ((?:\w\w ){4})00 00 00 00 ((?:\w\w ){3}\w\w)/.exec(dis)!;
    const hi = Buffer.from(lddw[2].trim().split(' ').map((x) => parseInt(x, 16))).readUInt32LE();
    expect(BigInt(hi) << 32n).toBe(MM_PROGRAM_START); // pointers are absolute in the program region

    const program = await liteSvmProgram(so);
    const r = await program.run([]);
    expect(r.error).toBeNull();
    // 'c' = 0x63 is the first byte of the string reached through the ABS64-relocated table entry
    expect(r.logs).toContain('Program log: converter test');
    expect(r.logs).toContain('Program log: 0x2a, 0x412, 0x63, 0x0, 0x0');
  });

  it('writes a program without syscalls (no .rel.dyn) that still loads', async () => {
    const so = elfToSbpf(llcObject(`target triple = "bpfel"
define i64 @entrypoint(ptr %p) { ret i64 7 }`));
    expect(sectionHeaders(so).map((s) => s.name)).not.toContain('.rel.dyn');
    const r = await (await liteSvmProgram(so)).run([]);
    expect(r.error).toMatch(/Custom.*code: 7/); // a non-zero return is a custom program error
  });

  it('maps __bpf_trap (llvm.trap) to the abort syscall', () => {
    const so = elfToSbpf(
      llcObject(`target triple = "bpfel"
declare void @llvm.trap()
define i64 @entrypoint(ptr %p) {
  %v = load i64, ptr %p
  %z = icmp eq i64 %v, 0
  br i1 %z, label %t, label %ok
t:
  call void @llvm.trap()
  unreachable
ok:
  ret i64 0
}`),
    );
    const dynstr = sectionHeaders(so).find((s) => s.name === '.dynstr')!;
    expect(Buffer.from(so.subarray(dynstr.offset, dynstr.offset + dynstr.size)).toString('latin1')).toBe('\0abort\0');
  });

  it('rejects writable statics, naming them and the fix', () => {
    const obj = llcObject(`target triple = "bpfel"
@counter = internal global i64 0
@state = global i64 5
define i64 @entrypoint(ptr %p) {
  %c = load volatile i64, ptr @counter
  %n = add i64 %c, 1
  store volatile i64 %n, ptr @counter
  store volatile i64 %n, ptr @state
  ret i64 0
}`);
    const err = catchError(() => elfToSbpf(obj));
    expect(err).toBeInstanceOf(SbpfError);
    expect(err.message).toMatch(/writable static data in section \.bss \(8 bytes: `counter`\)/);
    expect(err.message).toMatch(/writable static data in section \.data \(8 bytes: `state`\)/);
    expect(err.message).toMatch(/Make it a `const`/);
  });

  it('rejects cpu v3 code (ALU32 / JMP32) with the function and offset', () => {
    const obj = llcObject(
      `target triple = "bpfel"
define i64 @entrypoint(ptr %p) {
  %a = load i32, ptr %p
  %b = add i32 %a, 7
  %c = icmp ult i32 %b, 100
  br i1 %c, label %small, label %big
small:
  ret i64 1
big:
  %w = zext i32 %b to i64
  ret i64 %w
}`,
      'v3',
    );
    const err = catchError(() => elfToSbpf(obj));
    expect(err.message).toMatch(/in `entrypoint` at \+0x[0-9a-f]+ \(\.text\+0x[0-9a-f]+\): a (JMP32|32-bit ALU) instruction/);
    expect(err.message).toMatch(/-mcpu=v2/);
  });

  it('rejects a call to an unknown external function, naming it', () => {
    const obj = llcObject(`target triple = "bpfel"
declare void @mystery_helper(i64)
declare void @__multi3(ptr, i64, i64, i64, i64)
define i64 @entrypoint(ptr %p) {
  call void @mystery_helper(i64 1)
  call void @__multi3(ptr %p, i64 1, i64 2, i64 3, i64 4)
  ret i64 0
}`);
    const err = catchError(() => elfToSbpf(obj));
    expect(err.message).toMatch(/in `entrypoint` .*call to undefined function `mystery_helper`: it is neither defined in the program nor a known Solana syscall/);
    expect(err.message).toMatch(/`__multi3`.*avoid u128\/i128 arithmetic/);
  });

  it('rejects atomics and taking the address of an undefined symbol', () => {
    const obj = llcObject(`target triple = "bpfel"
@ext = external global i64
define i64 @entrypoint(ptr %p) {
  %old = atomicrmw add ptr %p, i64 1 seq_cst
  %v = load i64, ptr @ext
  ret i64 %v
}`);
    const err = catchError(() => elfToSbpf(obj));
    expect(err.message).toMatch(/atomic memory operation/);
    expect(err.message).toMatch(/address of undefined symbol `ext`/);
  });

  it('requires an entrypoint', () => {
    const obj = llcObject(`target triple = "bpfel"
define i64 @main(ptr %p) { ret i64 0 }`);
    expect(() => elfToSbpf(obj)).toThrow(/no function `entrypoint`.*extern "C" fn entrypoint/);
  });
});

describe('elfToSbpf input checks', () => {
  it('rejects input that is not a BPF relocatable object', () => {
    expect(() => elfToSbpf(new Uint8Array(64))).toThrow(/not an ELF file/);
    const x86 = new Uint8Array(64);
    x86.set([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]);
    x86[18] = 62; // EM_X86_64
    x86[16] = 1;
    expect(() => elfToSbpf(x86)).toThrow(/e_machine is 62, expected EM_BPF/);
  });
});

function writeTemp(bytes: Uint8Array) {
  const p = join(tmp('so'), 'program.so');
  writeFileSync(p, bytes);
  return p;
}

function catchError(f: () => unknown): Error {
  try {
    f();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected an error');
}
