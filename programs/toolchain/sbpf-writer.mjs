// Writes the SBPF v0 shared object: ELF header, program headers, sections and the dynamic
// tables the loader reads (DT_SYMTAB / DT_REL for syscall relocations).

import { STT_FUNC } from './elf-reader.mjs';

const R_BPF_64_32 = 10;

/** @param {number} n @param {number} a */
export function align(n, a) {
  return Math.ceil(n / a) * a;
}

class StrTab {
  constructor() {
    this.bytes = [0];
    this.index = new Map([['', 0]]);
  }
  /** @param {string} s */
  add(s) {
    if (!this.index.has(s)) {
      this.index.set(s, this.bytes.length);
      this.bytes.push(...new TextEncoder().encode(s), 0);
    }
    return this.index.get(s);
  }
  data() {
    return Uint8Array.from(this.bytes);
  }
}

/**
 * Writes ELF header, program headers, .text, .rodata, .dynamic, .dynsym, .dynstr, .rel.dyn,
 * .symtab, .strtab, .shstrtab and the section header table, in that file order. Loaded sections
 * have sh_addr == sh_offset; the caller already placed .text and .rodata at their addresses.
 * @param {{ textAddr: number, text: Uint8Array, rodataAddr: number, ro: Uint8Array, entryAddr: number,
 *   syscallSites: { addr: number, name: string }[],
 *   funcs: { name: string, addr: number, size: number, bind: number, other: number }[],
 *   cursor: number, phnum: number }} layout
 */
export function writeSharedObject({ textAddr, text, rodataAddr, ro, entryAddr, syscallSites, funcs, cursor, phnum }) {
  // Dynamic symbols: one undefined entry per distinct syscall, in first-use order.
  const dynstr = new StrTab();
  const dynNames = [];
  for (const s of syscallSites) if (!dynNames.includes(s.name)) dynNames.push(s.name);
  const dynsym = new Uint8Array(24 * (dynNames.length + 1));
  const dsv = new DataView(dynsym.buffer);
  dynNames.forEach((name, i) => {
    const o = 24 * (i + 1);
    dsv.setUint32(o, dynstr.add(name), true);
    dynsym[o + 4] = (1 << 4) | 0; // STB_GLOBAL, STT_NOTYPE, SHN_UNDEF
  });
  const reldyn = new Uint8Array(16 * syscallSites.length);
  const rv = new DataView(reldyn.buffer);
  syscallSites.forEach((s, i) => {
    rv.setBigUint64(16 * i, BigInt(s.addr), true);
    rv.setBigUint64(16 * i + 8, (BigInt(dynNames.indexOf(s.name) + 1) << 32n) | BigInt(R_BPF_64_32), true);
  });
  const dynstrData = dynstr.data();

  const dynamicAddr = align(cursor, 8);
  const DYN_ENTRIES = reldyn.length ? 10 : 6;
  const dynsymAddr = dynamicAddr + 16 * DYN_ENTRIES;
  const dynstrAddr = dynsymAddr + dynsym.length;
  const reldynAddr = align(dynstrAddr + dynstrData.length, 8);
  const loadEnd = reldynAddr + reldyn.length;

  const dynamic = new Uint8Array(16 * DYN_ENTRIES);
  const dv = new DataView(dynamic.buffer);
  const dyn = [
    [6, dynsymAddr], // DT_SYMTAB
    [11, 24], // DT_SYMENT
    [5, dynstrAddr], // DT_STRTAB
    [10, dynstrData.length], // DT_STRSZ
    ...(reldyn.length
      ? [
          [17, reldynAddr], // DT_REL
          [18, reldyn.length], // DT_RELSZ
          [19, 16], // DT_RELENT
          [22, 0], // DT_TEXTREL: the loader patches syscall hashes into .text
          [30, 4], // DT_FLAGS = DF_TEXTREL
        ]
      : []),
    [0, 0], // DT_NULL
  ];
  dyn.forEach(([tag, val], i) => {
    dv.setBigUint64(16 * i, BigInt(tag), true);
    dv.setBigUint64(16 * i + 8, BigInt(val), true);
  });

  // Static symbol table: functions only, so llvm-objdump can name them; locals first.
  const strtab = new StrTab();
  const ordered = [...funcs.filter((f) => f.bind === 0), ...funcs.filter((f) => f.bind !== 0)];
  const firstGlobal = 1 + funcs.filter((f) => f.bind === 0).length;
  const symtab = new Uint8Array(24 * (ordered.length + 1));
  const sv = new DataView(symtab.buffer);
  ordered.forEach((f, i) => {
    const o = 24 * (i + 1);
    sv.setUint32(o, strtab.add(f.name), true);
    symtab[o + 4] = (f.bind << 4) | STT_FUNC;
    symtab[o + 5] = f.other;
    sv.setUint16(o + 6, 1, true); // .text is section 1
    sv.setBigUint64(o + 8, BigInt(f.addr), true);
    sv.setBigUint64(o + 16, BigInt(f.size), true);
  });
  const strtabData = strtab.data();

  const shstr = new StrTab();
  const hasRo = ro.length > 0;
  const hasRel = reldyn.length > 0;
  const symtabOff = align(loadEnd, 8);
  const strtabOff = symtabOff + symtab.length;
  const shstrOff = strtabOff + strtabData.length;
  /** [name, type, flags, addr(=offset for loaded), offset, data, link, info, align, entsize] */
  const secs = [['', 0, 0, 0, 0, new Uint8Array(0), 0, 0, 0, 0]];
  const idx = (name) => secs.findIndex((s) => s[0] === name);
  secs.push(['.text', 1, 0x6, textAddr, textAddr, text, 0, 0, 8, 0]);
  if (hasRo) secs.push(['.rodata', 1, 0x2, rodataAddr, rodataAddr, ro, 0, 0, 8, 0]);
  secs.push(['.dynamic', 6, 0x3, dynamicAddr, dynamicAddr, dynamic, 0, 0, 8, 16]);
  secs.push(['.dynsym', 11, 0x2, dynsymAddr, dynsymAddr, dynsym, 0, 1, 8, 24]);
  secs.push(['.dynstr', 3, 0x2, dynstrAddr, dynstrAddr, dynstrData, 0, 0, 1, 0]);
  if (hasRel) secs.push(['.rel.dyn', 9, 0x2, reldynAddr, reldynAddr, reldyn, 0, 0, 8, 16]);
  secs.push(['.symtab', 2, 0, 0, symtabOff, symtab, 0, firstGlobal, 8, 24]);
  secs.push(['.strtab', 3, 0, 0, strtabOff, strtabData, 0, 0, 1, 0]);
  secs.push(['.shstrtab', 3, 0, 0, shstrOff, null, 0, 0, 1, 0]);
  secs[idx('.dynamic')][6] = idx('.dynstr');
  secs[idx('.dynsym')][6] = idx('.dynstr');
  if (hasRel) secs[idx('.rel.dyn')][6] = idx('.dynsym');
  secs[idx('.symtab')][6] = idx('.strtab');
  const nameOffs = secs.map((s) => shstr.add(s[0]));
  const shstrData = shstr.data();
  secs[secs.length - 1][5] = shstrData;
  const shoff = align(shstrOff + shstrData.length, 8);
  const total = shoff + 64 * secs.length;

  const out = new Uint8Array(total);
  const ov = new DataView(out.buffer);
  // ELF header
  out.set([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0], 0);
  ov.setUint16(16, 3, true); // ET_DYN
  ov.setUint16(18, 247, true); // EM_BPF
  ov.setUint32(20, 1, true);
  ov.setBigUint64(24, BigInt(entryAddr), true);
  ov.setBigUint64(32, 64n, true); // e_phoff
  ov.setBigUint64(40, BigInt(shoff), true);
  ov.setUint32(48, 0, true); // e_flags 0: SBPF v0
  ov.setUint16(52, 64, true);
  ov.setUint16(54, 56, true);
  ov.setUint16(56, phnum, true);
  ov.setUint16(58, 64, true);
  ov.setUint16(60, secs.length, true);
  ov.setUint16(62, secs.length - 1, true); // .shstrtab is last

  // Program headers: code (R+X), read-only data (R), dynamic linking tables (R+W), PT_DYNAMIC.
  const roEnd = hasRo ? rodataAddr + ro.length : textAddr + text.length;
  const phdrs = [
    [1, 5, textAddr, text.length],
    [1, 4, hasRo ? rodataAddr : roEnd, hasRo ? ro.length : 0],
    [1, 6, dynamicAddr, loadEnd - dynamicAddr],
    [2, 6, dynamicAddr, dynamic.length],
  ];
  phdrs.forEach(([type, flags, addr, size], i) => {
    const o = 64 + 56 * i;
    ov.setUint32(o, type, true);
    ov.setUint32(o + 4, flags, true);
    ov.setBigUint64(o + 8, BigInt(addr), true); // p_offset
    ov.setBigUint64(o + 16, BigInt(addr), true); // p_vaddr
    ov.setBigUint64(o + 24, BigInt(addr), true); // p_paddr
    ov.setBigUint64(o + 32, BigInt(size), true);
    ov.setBigUint64(o + 40, BigInt(size), true);
    ov.setBigUint64(o + 48, 8n, true);
  });

  secs.forEach(([, type, flags, addr, offset, data, link, info, al, entsize], i) => {
    if (data && data.length) out.set(data, offset);
    const o = shoff + 64 * i;
    ov.setUint32(o, nameOffs[i], true);
    ov.setUint32(o + 4, type, true);
    ov.setBigUint64(o + 8, BigInt(flags), true);
    ov.setBigUint64(o + 16, BigInt(addr), true);
    ov.setBigUint64(o + 24, BigInt(i === 0 ? 0 : offset), true);
    ov.setBigUint64(o + 32, BigInt(data ? data.length : 0), true);
    ov.setUint32(o + 40, link, true);
    ov.setUint32(o + 44, info, true);
    ov.setBigUint64(o + 48, BigInt(al), true);
    ov.setBigUint64(o + 56, BigInt(entsize), true);
  });
  return out;
}

