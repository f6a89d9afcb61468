// Instruction-level rules for SBPF v0: which eBPF encodings it runs, and the callx re-encoding.

const LDDW = 0x18;
export const CALL = 0x85;
export const CALLX = 0x8d;

const CLASS_NAMES = ['LD', 'LDX', 'ST', 'STX', 'ALU32', 'JMP', 'JMP32', 'ALU64'];

/** Opcodes SBPF v0 executes (besides ALU64, which is checked by operation). */
const ALLOWED = new Set([
  LDDW,
  0x61, 0x69, 0x71, 0x79, // ldx w/h/b/dw
  0x62, 0x6a, 0x72, 0x7a, // st imm
  0x63, 0x6b, 0x73, 0x7b, // stx reg
  0xd4, 0xdc, // le/be byte swaps: ALU class, but part of SBPF v0
  0x05, 0x95, CALL, CALLX, // ja, exit, call, callx
  // conditional jumps, immediate and register forms
  0x15, 0x1d, 0x25, 0x2d, 0x35, 0x3d, 0x45, 0x4d, 0x55, 0x5d, 0x65, 0x6d, 0x75, 0x7d,
  0xa5, 0xad, 0xb5, 0xbd, 0xc5, 0xcd, 0xd5, 0xdd,
]);

/** ALU64 operations (high nibble) SBPF v0 runs: add..arsh, except `end` (0xd0, a cpu-v4 bswap). */
const ALU64_OPS = new Set([0x00, 0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70, 0x80, 0x90, 0xa0, 0xb0, 0xc0]);

/**
 * Why an instruction cannot run on SBPF v0, or null when it can.
 * @param {Uint8Array} text
 * @param {number} at byte offset of the instruction
 */
export function rejectReason(text, at) {
  const op = text[at];
  const off = text[at + 2] | (text[at + 3] << 8);
  const cls = op & 7;
  if (cls === 6) {
    return 'a JMP32 instruction (32-bit compare-and-jump, cpu v3+); SBPF v0 has none. Compile with llc -mcpu=v2';
  }
  if (cls === 4 && !ALLOWED.has(op)) {
    return 'a 32-bit ALU instruction (cpu v3 / +alu32); SBPF v0 sign-extends 32-bit results where eBPF zero-extends, a silent miscompile. Compile with llc -mcpu=v2';
  }
  if (cls === 7) {
    if (op === 0xd7) return 'a cpu-v4 bswap instruction; compile with llc -mcpu=v2';
    if (!ALU64_OPS.has(op & 0xf0) || (op === 0x8f)) return `an unknown ALU64 opcode 0x${hex(op, 2)}`;
    if (off !== 0) {
      return 'a cpu-v4 encoding (signed div/mod or sign-extending mov: offset field set); use unsigned 64-bit maths and llc -mcpu=v2';
    }
    return null;
  }
  if (op === 0xc3 || op === 0xdb) {
    return 'an atomic memory operation (BPF_ATOMIC); SBPF has none: use plain loads/stores (no core::sync::atomic in the program)';
  }
  if (op === 0x81 || op === 0x89 || op === 0x91 || op === 0x99) {
    return 'a cpu-v4 sign-extending load (BPF_MEMSX); compile with llc -mcpu=v2';
  }
  if (op === 0xe5) return 'a may_goto instruction (cpu v4); compile with llc -mcpu=v2';
  if (!ALLOWED.has(op)) return `an unsupported ${CLASS_NAMES[cls]} opcode 0x${hex(op, 2)}`;
  if (op === CALL && (text[at + 1] >> 4) === 2) return 'a kfunc call (BPF_PSEUDO_KFUNC_CALL)';
  return null;
}

/**
 * Checks every instruction of `.text` and re-encodes `callx` in place: upstream LLVM puts the
 * target register in `dst`, the SBPF v0 interpreter and JIT read it from `imm`.
 * @param {Uint8Array} text the merged, relocated .text (modified in place)
 * @param {(at: number) => string} where describes an offset for error messages
 * @returns {string[]} problems found (empty when the code is valid SBPF v0)
 */
export function checkAndFixText(text, where) {
  const problems = [];
  const dv = new DataView(text.buffer, text.byteOffset, text.byteLength);
  for (let at = 0; at < text.length; at += 8) {
    const op = text[at];
    const reason = rejectReason(text, at);
    if (reason) {
      problems.push(`${where(at)}: ${reason}`);
      if (problems.length >= 20) break;
      continue;
    }
    if (op === LDDW) {
      if (at + 8 >= text.length || text[at + 8] !== 0) {
        problems.push(`${where(at)}: lddw without its second instruction slot`);
      }
      at += 8; // the second half of a 16-byte lddw carries the high 32 bits
    } else if (op === CALLX) {
      const dst = text[at + 1] & 0x0f;
      const imm = dv.getInt32(at + 4, true);
      if (dst !== 0 || imm === 0) {
        text[at + 1] = 0;
        dv.setInt32(at + 4, dst, true);
      }
    }
  }
  return problems;
}

/** @param {number} n @param {number} width */
export function hex(n, width = 0) {
  return n.toString(16).padStart(width, '0');
}
