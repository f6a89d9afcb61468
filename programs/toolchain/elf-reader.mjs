// Minimal ELF64 little-endian reader for the relocatable BPF objects llc writes.

export const SHT_SYMTAB = 2;
export const SHT_STRTAB = 3;
export const SHT_RELA = 4;
export const SHT_NOBITS = 8;
export const SHT_REL = 9;
export const SHF_WRITE = 0x1n;
export const SHF_ALLOC = 0x2n;
export const SHF_EXECINSTR = 0x4n;
export const SHN_UNDEF = 0;
export const SHN_ABS = 0xfff1;
export const SHN_COMMON = 0xfff2;
export const STT_OBJECT = 1;
export const STT_FUNC = 2;
export const STT_SECTION = 3;
export const ET_REL = 1;
export const EM_BPF = 247;

/**
 * @typedef {{ index: number, name: string, type: number, flags: bigint, offset: number,
 *   size: number, link: number, info: number, align: number, entsize: number,
 *   data: Uint8Array }} Section
 * @typedef {{ index: number, name: string, value: number, size: number, bind: number,
 *   type: number, other: number, shndx: number }} ElfSymbol
 * @typedef {{ offset: number, type: number, sym: number }} Rel
 */

/** @param {Uint8Array} bytes @param {number} at */
function cstr(bytes, at) {
  let end = at;
  while (end < bytes.length && bytes[end] !== 0) end++;
  return new TextDecoder().decode(bytes.subarray(at, end));
}

/**
 * Parses a relocatable ELF64 LE object: sections, the symbol table and REL entries.
 * @param {Uint8Array} bytes
 */
export function readRelocatable(bytes) {
  const buf = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const magic = buf[0] === 0x7f && buf[1] === 0x45 && buf[2] === 0x4c && buf[3] === 0x46;
  if (!magic) throw new Error('elf-to-sbpf: input is not an ELF file');
  if (buf[4] !== 2 || buf[5] !== 1) throw new Error('elf-to-sbpf: input is not ELF64 little-endian');
  const type = dv.getUint16(16, true);
  const machine = dv.getUint16(18, true);
  if (machine !== EM_BPF) throw new Error(`elf-to-sbpf: e_machine is ${machine}, expected EM_BPF (247)`);
  if (type !== ET_REL) throw new Error(`elf-to-sbpf: e_type is ${type}, expected ET_REL (a relocatable object from llc)`);
  const shoff = Number(dv.getBigUint64(40, true));
  const shentsize = dv.getUint16(58, true);
  const shnum = dv.getUint16(60, true);
  const shstrndx = dv.getUint16(62, true);

  /** @type {Section[]} */
  const sections = [];
  for (let i = 0; i < shnum; i++) {
    const o = shoff + i * shentsize;
    const sType = dv.getUint32(o + 4, true);
    const offset = Number(dv.getBigUint64(o + 24, true));
    const size = Number(dv.getBigUint64(o + 32, true));
    sections.push({
      index: i,
      name: '',
      nameOff: dv.getUint32(o, true),
      type: sType,
      flags: dv.getBigUint64(o + 8, true),
      offset,
      size,
      link: dv.getUint32(o + 40, true),
      info: dv.getUint32(o + 44, true),
      align: Math.max(1, Number(dv.getBigUint64(o + 48, true))),
      entsize: Number(dv.getBigUint64(o + 56, true)),
      data: sType === SHT_NOBITS ? new Uint8Array(size) : buf.subarray(offset, offset + size),
    });
  }
  const shstr = sections[shstrndx];
  for (const s of sections) s.name = cstr(shstr.data, s.nameOff);

  /** @type {ElfSymbol[]} */
  let symbols = [];
  const symtab = sections.find((s) => s.type === SHT_SYMTAB);
  if (symtab) {
    const strtab = sections[symtab.link].data;
    for (let i = 0; i * 24 < symtab.size; i++) {
      const o = symtab.offset + i * 24;
      const info = buf[o + 4];
      const shndx = dv.getUint16(o + 6, true);
      const sType = info & 0xf;
      const nameOff = dv.getUint32(o, true);
      symbols.push({
        index: i,
        // Section symbols have no name of their own; use the section's, for messages.
        name: sType === STT_SECTION && sections[shndx] ? sections[shndx].name : cstr(strtab, nameOff),
        value: Number(dv.getBigUint64(o + 8, true)),
        size: Number(dv.getBigUint64(o + 16, true)),
        bind: info >> 4,
        type: sType,
        other: buf[o + 5],
        shndx,
      });
    }
  }

  /** @type {Map<number, Rel[]>} relocations by the index of the section they patch */
  const relocations = new Map();
  for (const s of sections) {
    if (s.type === SHT_RELA) {
      throw new Error(`elf-to-sbpf: unexpected RELA section ${s.name}; BPF objects use REL`);
    }
    if (s.type !== SHT_REL) continue;
    const list = [];
    for (let i = 0; i * 16 < s.size; i++) {
      const o = s.offset + i * 16;
      const rInfo = dv.getBigUint64(o + 8, true);
      list.push({
        offset: Number(dv.getBigUint64(o, true)),
        type: Number(rInfo & 0xffffffffn),
        sym: Number(rInfo >> 32n),
      });
    }
    relocations.set(s.info, list);
  }
  return { sections, symbols, relocations };
}

/**
 * Readable form of a Rust symbol for error messages: legacy `_ZN...E` names are demangled
 * (hash dropped); v0 `_R` names are returned as is.
 * @param {string} name
 */
export function demangle(name) {
  if (!name.startsWith('_ZN')) return name;
  const parts = [];
  let i = 3;
  while (i < name.length && name[i] !== 'E') {
    const m = /^\d+/.exec(name.slice(i));
    if (!m) return name;
    const len = Number(m[0]);
    i += m[0].length;
    parts.push(name.slice(i, i + len));
    i += len;
  }
  if (parts.length > 1 && /^h[0-9a-f]{16}$/.test(parts[parts.length - 1])) parts.pop();
  return parts
    .join('::')
    .replace(/\$LT\$/g, '<')
    .replace(/\$GT\$/g, '>')
    .replace(/\$u20\$/g, ' ')
    .replace(/\$RF\$/g, '&')
    .replace(/\.\./g, '::');
}
