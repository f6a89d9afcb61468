// Converts the relocatable BPF object that llc writes (ET_REL) into the SBPF v0 shared object
// that Solana's loaders accept (rbpf 0.8 in solana-bankrun, solana-sbpf 0.23 in litesvm).
// Pure bytes → bytes; the loader rules it follows are listed in programs/toolchain/README.md.

import {
  readRelocatable, demangle, SHF_ALLOC, SHF_EXECINSTR, SHF_WRITE, SHN_UNDEF, SHN_ABS,
  SHN_COMMON, STT_FUNC, STT_SECTION, SHT_NOBITS,
} from './elf-reader.mjs';
import { SYSCALLS, SYSCALL_ALIASES, unknownSymbolHint } from './syscalls.mjs';
import { checkAndFixText, CALL, hex } from './sbpf-insns.mjs';
import { align, writeSharedObject } from './sbpf-writer.mjs';

/** Where the loader maps the program's file image. */
export const MM_PROGRAM_START = 0x1_0000_0000n;

const R_BPF_NONE = 0;
const R_BPF_64_64 = 1;
const R_BPF_64_ABS64 = 2;
const R_BPF_64_32 = 10;

/** A build error with a message that says what to change. */
export class SbpfError extends Error {
  /** @param {string[]} problems */
  constructor(problems) {
    super(`cannot produce an SBPF v0 program:\n  - ${problems.join('\n  - ')}`);
    this.name = 'SbpfError';
    this.problems = problems;
  }
}

/** Read-only data sections the converter merges into the output `.rodata`. */
function isReadOnlyData(s) {
  return /^\.rodata(\.|$)|^\.data\.rel\.ro(\.|$)|^\.srodata/.test(s.name);
}

/** Names of writable sections (statics the program would modify). */
function isWritable(s) {
  return (
    s.type === SHT_NOBITS ||
    /^\.(s?bss|s?data|tbss|tdata)(\.|$)/.test(s.name) ||
    (s.flags & SHF_WRITE) !== 0n
  );
}

/**
 * @param {Uint8Array} input relocatable ELF from `llc -march=bpfel -filetype=obj`
 * @param {{ entry?: string }} [options]
 * @returns {Uint8Array} the SBPF v0 shared object
 */
export function elfToSbpf(input, options = {}) {
  const entryName = options.entry ?? 'entrypoint';
  const { sections, symbols, relocations } = readRelocatable(input);
  const problems = [];

  // 1. Classify the allocated sections: code, read-only data, or an error.
  const code = [];
  const rodata = [];
  for (const s of sections) {
    if ((s.flags & SHF_ALLOC) === 0n) continue; // debug info, BTF, notes: dropped
    if (s.name === '.eh_frame') continue; // unwind tables: SBPF never unwinds (panic = abort)
    if ((s.flags & SHF_EXECINSTR) !== 0n) code.push(s);
    else if (isReadOnlyData(s)) rodata.push(s); // even when empty: symbols may point into it
    else if (s.size === 0) continue;
    else if (isWritable(s)) {
      const statics = symbols
        .filter((y) => y.shndx === s.index && y.type !== STT_SECTION && y.name)
        .map((y) => `\`${demangle(y.name)}\``);
      problems.push(
        `writable static data in section ${s.name} (${s.size} bytes${statics.length ? `: ${statics.join(', ')}` : ''}). ` +
          'SBPF v0 programs cannot have writable statics (`static mut`, atomics, Cell/UnsafeCell in a static). ' +
          'Make it a `const` or an immutable `static`, or keep mutable state in an account or on the heap.',
      );
    } else problems.push(`unsupported allocated section ${s.name}: the SBPF loader only maps .text and read-only data`);
  }
  if (code.length === 0) problems.push('no code: the object has no .text section');
  if (problems.length) throw new SbpfError(problems);

  // 2. Lay out the output file. Loaded sections get sh_addr == sh_offset (the loader requires it),
  //    so a section's file offset is also its virtual address relative to MM_PROGRAM_START.
  const PHNUM = 4;
  let cursor = align(64 + PHNUM * 56, 8);
  const textAddr = cursor;
  /** @type {Map<number, number>} input section index → output virtual address */
  const addrOf = new Map();
  for (const s of code) {
    cursor = align(cursor, 8);
    addrOf.set(s.index, cursor);
    cursor += s.size;
  }
  const textSize = align(cursor, 8) - textAddr;
  cursor = textAddr + textSize;
  const rodataAddr = align(cursor, 8);
  cursor = rodataAddr;
  for (const s of rodata) {
    cursor = align(cursor, s.align);
    addrOf.set(s.index, cursor);
    cursor += s.size;
  }
  const rodataSize = cursor - rodataAddr;
  const text = new Uint8Array(textSize);
  for (const s of code) text.set(s.data, addrOf.get(s.index) - textAddr);
  const ro = new Uint8Array(rodataSize);
  for (const s of rodata) ro.set(s.data, addrOf.get(s.index) - rodataAddr);

  /** Output bytes for a virtual address range inside .text or .rodata. */
  const view = (addr) =>
    addr >= textAddr && addr < textAddr + textSize
      ? { bytes: text, at: addr - textAddr }
      : { bytes: ro, at: addr - rodataAddr };

  const funcs = symbols
    .filter((y) => y.type === STT_FUNC && addrOf.has(y.shndx) && y.shndx !== SHN_UNDEF)
    .map((y) => ({ ...y, addr: addrOf.get(y.shndx) + y.value }))
    .sort((a, b) => a.addr - b.addr || a.index - b.index);
  /** "function+0xoff (.text+0xoff)" for messages. */
  const where = (addr) => {
    let fn = null;
    for (const f of funcs) if (f.addr <= addr && addr < f.addr + Math.max(f.size, 1)) fn = f;
    const t = `.text+0x${hex(addr - textAddr)}`;
    return fn ? `in \`${demangle(fn.name)}\` at +0x${hex(addr - fn.addr)} (${t})` : `at ${t}`;
  };

  // 3. Resolve relocations statically; calls to undefined symbols become syscall relocations.
  /** @type {{ addr: number, name: string }[]} */
  const syscallSites = [];
  for (const [target, rels] of relocations) {
    if (!addrOf.has(target)) continue; // relocations of dropped (debug/BTF) sections
    const base = addrOf.get(target);
    for (const r of rels) {
      if (r.type === R_BPF_NONE) continue;
      const sym = symbols[r.sym];
      const at = base + r.offset;
      const { bytes, at: o } = view(at);
      const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      const symDesc = `\`${demangle(sym.name)}\``;
      let symAddr = null;
      if (sym.shndx === SHN_COMMON) {
        problems.push(`${where(at)}: ${symDesc} is a writable (common) static; SBPF v0 has no writable data`);
        continue;
      }
      if (sym.shndx === SHN_ABS) symAddr = sym.value;
      else if (sym.shndx !== SHN_UNDEF) {
        if (!addrOf.has(sym.shndx)) {
          problems.push(`${where(at)}: reference to ${symDesc} in section ${sections[sym.shndx]?.name ?? sym.shndx}, which is not loaded`);
          continue;
        }
        symAddr = addrOf.get(sym.shndx) + sym.value;
      }

      if (r.type === R_BPF_64_32) {
        if (bytes !== text || bytes[o] !== CALL) {
          problems.push(`${where(at)}: R_BPF_64_32 relocation on something that is not a call instruction`);
          continue;
        }
        if (symAddr === null) {
          const name = SYSCALL_ALIASES.get(sym.name) ?? sym.name;
          if (!SYSCALLS.has(name)) {
            problems.push(`${where(at)}: call to undefined function ${symDesc}: it is neither defined in the program nor a known Solana syscall; ${unknownSymbolHint(sym.name)}`);
            continue;
          }
          bytes[o + 1] = 0; // syscalls: src 0, imm -1 until the loader writes the name's hash
          dv.setInt32(o + 4, -1, true);
          syscallSites.push({ addr: at, name });
          continue;
        }
        // Implicit addend: llc stores (offset - 8) / 8 in imm, relative to the symbol.
        const dest = symAddr + (dv.getInt32(o + 4, true) + 1) * 8;
        if (!(dest >= textAddr && dest < textAddr + textSize) || (dest - textAddr) % 8 !== 0) {
          problems.push(`${where(at)}: call target ${symDesc} is not an instruction in .text`);
          continue;
        }
        bytes[o + 1] = (bytes[o + 1] & 0x0f) | 0x10; // src 1: a program-internal call
        dv.setInt32(o + 4, (dest - at - 8) / 8, true);
      } else if (r.type === R_BPF_64_64) {
        if (bytes !== text || bytes[o] !== 0x18) {
          problems.push(`${where(at)}: R_BPF_64_64 relocation on something that is not an lddw instruction`);
          continue;
        }
        if (symAddr === null) {
          problems.push(`${where(at)}: address of undefined symbol ${symDesc} taken; only Solana syscalls may be undefined, and only called`);
          continue;
        }
        const addend = BigInt(dv.getUint32(o + 4, true)) | (BigInt(dv.getUint32(o + 12, true)) << 32n);
        const value = BigInt.asUintN(64, MM_PROGRAM_START + BigInt(symAddr) + addend);
        dv.setUint32(o + 4, Number(value & 0xffffffffn), true);
        dv.setUint32(o + 12, Number(value >> 32n), true);
      } else if (r.type === R_BPF_64_ABS64) {
        if (symAddr === null) {
          problems.push(`${where(at)}: data pointer to undefined symbol ${symDesc}; only Solana syscalls may be undefined, and only called`);
          continue;
        }
        const value = BigInt.asUintN(64, MM_PROGRAM_START + BigInt(symAddr) + dv.getBigUint64(o, true));
        dv.setBigUint64(o, value, true);
      } else {
        problems.push(`relocation type ${r.type} against ${symDesc} in ${sections[target].name}+0x${hex(r.offset)} is not supported by the SBPF converter`);
      }
    }
  }

  // 4. Every instruction must be SBPF v0; callx is re-encoded for it.
  problems.push(...checkAndFixText(text, (o) => where(textAddr + o)));

  const entry = symbols.find((y) => y.name === entryName && y.shndx !== SHN_UNDEF && y.type === STT_FUNC);
  if (!entry) problems.push(`no function \`${entryName}\`: the program needs #[no_mangle] pub unsafe extern "C" fn ${entryName}(input: *mut u8) -> u64`);
  else if (!addrOf.has(entry.shndx) || code.every((s) => s.index !== entry.shndx)) problems.push(`\`${entryName}\` is not in a code section`);
  if (problems.length) throw new SbpfError(problems);

  return writeSharedObject({
    textAddr, text, rodataAddr, ro, entryAddr: addrOf.get(entry.shndx) + entry.value,
    syscallSites, funcs, cursor: rodataAddr + rodataSize, phnum: PHNUM,
  });
}
