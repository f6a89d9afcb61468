// Textual LLVM IR rewrites applied between `opt` and `llc`.
//
// Upstream's BPF backend refuses every libcall ("A call to built-in function 'memcpy' is not
// supported"), while Solana provides the same services as syscalls. These pure string → string
// passes replace the IR patterns that would become libcalls with code the backend can lower.
// They run after optimisation on purpose: InstCombine would fold the umul rewrite straight back
// into the intrinsic.

/** Constant memcpy/memmove/memset lengths up to this many bytes stay intrinsics: llc expands
 * them inline (cheaper than a syscall); longer ones would become a libcall. */
export const INLINE_MEM_LIMIT = 64;

/**
 * Splits an argument list on top-level commas, respecting (), [], {} and <> nesting and quotes.
 * @param {string} s text between the call's outer parentheses
 * @returns {string[]}
 */
export function splitTopLevel(s) {
  const out = [];
  let depth = 0;
  let inQuote = false;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (inQuote) {
      if (c === '"') inQuote = false;
      continue;
    }
    if (c === '"') inQuote = true;
    else if (c === '(' || c === '[' || c === '{' || c === '<') depth++;
    else if (c === ')' || c === ']' || c === '}' || c === '>') depth--;
    else if (c === ',' && depth === 0) {
      out.push(s.slice(start, i).trim());
      start = i + 1;
    }
  }
  const last = s.slice(start).trim();
  if (last !== '' || out.length > 0) out.push(last);
  return out;
}

/**
 * Index just past the parenthesis that closes the one at `open`.
 * @param {string} s
 * @param {number} open index of '('
 */
function matchParen(s, open) {
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    if (s[i] === '(') depth++;
    else if (s[i] === ')' && --depth === 0) return i + 1;
  }
  throw new Error(`ir-fixups: unbalanced parentheses in: ${s.slice(open, open + 120)}`);
}

/** The value operand of a call argument such as `i64 range(i64 0, 5) %46` or `i64 128`. */
function argValue(arg) {
  // Constant expressions (`getelementptr (...)`) contain spaces; the value is everything after the
  // type and the parameter attributes, but for lengths we only need plain constants and registers.
  const m = /(\S+)\s*$/.exec(arg);
  return m ? m[1] : '';
}

const MEM_INTRINSIC =
  /^(\s*)((?:tail |musttail |notail )?call) void @llvm\.(memcpy|memmove|memset)(?:\.inline)?\.[.\w]*\(/;

/**
 * Rewrites llvm.memcpy/memmove/memset whose length is not a small constant into Solana syscalls.
 * `llvm.memcpy` goes to `sol_memmove_`, not `sol_memcpy_`: LLVM allows memcpy with src == dst,
 * which `sol_memcpy_` rejects as an overlapping copy; both syscalls cost the same.
 * @param {string} ir
 * @returns {{ ir: string, rewritten: number }}
 */
export function rewriteMemIntrinsics(ir) {
  let rewritten = 0;
  let fresh = 0;
  const lines = ir.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const m = MEM_INTRINSIC.exec(line);
    if (!m) continue;
    const [prefix, indent, , kind] = m;
    const open = prefix.length - 1;
    const close = matchParen(line, open);
    const args = splitTopLevel(line.slice(open + 1, close - 1));
    if (args.length !== 4) throw new Error(`ir-fixups: unexpected ${kind} call: ${line.trim()}`);
    const len = argValue(args[2]);
    if (/^\d+$/.test(len) && Number(len) <= INLINE_MEM_LIMIT) continue;
    const rest = line.slice(close); // metadata and attribute groups, still valid on a plain call
    if (kind === 'memset') {
      // The syscall takes the fill byte in a 64-bit register: widen it explicitly.
      const byte = argValue(args[1]);
      const wide = `%sol.memset.byte.${fresh++}`;
      lines[i] =
        `${indent}${wide} = zext i8 ${byte} to i64\n` +
        `${indent}call void @sol_memset_(${args[0]}, i64 ${wide}, ${args[2]})${rest}`;
    } else {
      lines[i] = `${indent}call void @sol_memmove_(${args[0]}, ${args[1]}, ${args[2]})${rest}`;
    }
    rewritten++;
  }
  let out = lines.join('\n');
  if (rewritten > 0) {
    out = ensureDeclared(out, 'sol_memmove_', 'declare void @sol_memmove_(ptr, ptr, i64)');
    out = ensureDeclared(out, 'sol_memset_', 'declare void @sol_memset_(ptr, i64, i64)');
  }
  return { ir: out, rewritten };
}

/**
 * Appends a declaration unless the module already declares or defines the function.
 * @param {string} ir
 * @param {string} name
 * @param {string} decl
 */
export function ensureDeclared(ir, name, decl) {
  const re = new RegExp(`^(?:declare|define)\\b[^\\n]*@${name.replace(/\$/g, '\\$')}\\(`, 'm');
  if (re.test(ir)) return ir;
  return `${ir.replace(/\n*$/, '')}\n\n${decl}\n`;
}

const UMUL =
  /^(\s*)(%[-\w.$]+) = (?:tail |notail )?call (?:noundef )?\{ i64, i1 \} @llvm\.umul\.with\.overflow\.i64\((.*)\)(.*)$/;

/**
 * `llvm.umul.with.overflow.i64` lowers to `__multi3` (128-bit multiply), which BPF cannot call.
 * Rewrites it as `p = a * b; overflow = a != 0 && p / a != b`, rebuilding the `{ i64, i1 }`
 * aggregate so every use of the original value stays valid.
 * @param {string} ir
 * @returns {{ ir: string, rewritten: number }}
 */
export function rewriteUmulOverflow(ir) {
  let rewritten = 0;
  const lines = ir.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = UMUL.exec(lines[i]);
    if (!m) {
      if (lines[i].includes('@llvm.umul.with.overflow.i64(') && !lines[i].startsWith('declare')) {
        throw new Error(`ir-fixups: cannot rewrite umul.with.overflow call: ${lines[i].trim()}`);
      }
      continue;
    }
    const [, indent, result, argText] = m;
    const args = splitTopLevel(argText);
    if (args.length !== 2) throw new Error(`ir-fixups: unexpected umul call: ${lines[i].trim()}`);
    const a = argValue(args[0]);
    const b = argValue(args[1]);
    const t = `%sol.umul.${result.slice(1).replace(/[^\w]/g, '_')}`;
    lines[i] = [
      `${t}.p = mul i64 ${a}, ${b}`,
      `${t}.nz = icmp ne i64 ${a}, 0`,
      `${t}.d = select i1 ${t}.nz, i64 ${a}, i64 1`,
      `${t}.q = udiv i64 ${t}.p, ${t}.d`,
      `${t}.ne = icmp ne i64 ${t}.q, ${b}`,
      `${t}.of = and i1 ${t}.nz, ${t}.ne`,
      `${t}.agg = insertvalue { i64, i1 } poison, i64 ${t}.p, 0`,
      `${result} = insertvalue { i64, i1 } ${t}.agg, i1 ${t}.of, 1`,
    ]
      .map((l) => indent + l)
      .join('\n');
    rewritten++;
  }
  return { ir: lines.join('\n'), rewritten };
}

/**
 * Drops `sret(<type>)` parameter attributes: the BPF backend rejects aggregate returns ("only
 * small returns supported"), and since every function but `entrypoint` is internal, a plain
 * pointer argument has the same calling convention.
 * @param {string} ir
 * @returns {{ ir: string, rewritten: number }}
 */
export function dropSret(ir) {
  let rewritten = 0;
  let out = '';
  let from = 0;
  for (;;) {
    const at = ir.indexOf('sret(', from);
    if (at < 0) break;
    const end = matchParen(ir, at + 4);
    // Also swallow the separating space so `ptr sret(%T) align 8 %0` stays well formed.
    const cut = ir[end] === ' ' ? end + 1 : end;
    out += ir.slice(from, at);
    from = cut;
    rewritten++;
  }
  return { ir: out + ir.slice(from), rewritten };
}

/**
 * Removes `optnone` (and the `noinline` it requires) from attribute groups so that debug
 * (opt-level 0/1) builds are optimised too: unoptimised BPF code overflows the stack and keeps
 * libcalls that O2 removes.
 * @param {string} ir
 */
export function dropOptnone(ir) {
  return ir.replace(/^attributes #\d+ = \{[^\n]*\}$/gm, (group) =>
    /\boptnone\b/.test(group) ? group.replace(/ (optnone|noinline)\b/g, '') : group,
  );
}

/** Registers r1–r5 carry arguments; BPF has no stack arguments. */
export const MAX_BPF_ARGS = 5;

/**
 * Marks every defined function with more than five parameters `alwaysinline`, since llc cannot
 * call it ("too many arguments"). This happens in core at opt-level "s"/"z" (e.g. slice
 * `index_mut` with an sret pointer and a panic location) and after argument promotion.
 * Functions that are `noinline` (#[inline(never)], #[cold]) are reported, not changed.
 * @param {string} ir
 * @param {string[]} [exports] functions that must stay callable (never inlined away)
 * @returns {{ ir: string, marked: string[], blocked: string[] }}
 */
export function markWideFunctions(ir, exports = []) {
  const groups = new Map();
  for (const m of ir.matchAll(/^attributes (#\d+) = \{([^\n]*)\}$/gm)) groups.set(m[1], m[2]);
  const marked = [];
  const blocked = [];
  const lines = ir.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!line.startsWith('define ')) continue;
    const name = /@("(?:[^"\\]|\\.)*"|[-\w$.]+)\(/.exec(line);
    if (!name) continue;
    const open = name.index + name[0].length - 1;
    const close = matchParen(line, open);
    const params = splitTopLevel(line.slice(open + 1, close - 1)).filter((p) => p !== '');
    const fn = name[1].replace(/^"|"$/g, '');
    if (params.length <= MAX_BPF_ARGS || exports.includes(fn)) continue;
    const tail = line.slice(close);
    const refs = [...tail.matchAll(/#\d+/g)].map((m) => groups.get(m[0]) ?? '');
    if (/\b(noinline|optnone)\b/.test([tail.split('{')[0], ...refs].join(' '))) {
      blocked.push(fn);
      continue;
    }
    if (/\balwaysinline\b/.test([tail.split('{')[0], ...refs].join(' '))) continue;
    // Function attributes go before the first attribute group, section, metadata or the body.
    const at = /\s(#\d+|section |partition |comdat|align |gc |prefix |prologue |personality |!\w|\{)/.exec(tail);
    if (!at) continue;
    lines[i] = line.slice(0, close) + tail.slice(0, at.index) + ' alwaysinline' + tail.slice(at.index);
    marked.push(fn);
  }
  return { ir: lines.join('\n'), marked, blocked };
}

/**
 * All post-optimisation fix-ups, in order.
 * @param {string} ir textual IR from llvm-dis
 * @returns {{ ir: string, stats: { memIntrinsics: number, umulOverflow: number, sret: number } }}
 */
export function applyFixups(ir) {
  const mem = rewriteMemIntrinsics(ir);
  const umul = rewriteUmulOverflow(mem.ir);
  const sret = dropSret(umul.ir);
  return {
    ir: sret.ir,
    stats: { memIntrinsics: mem.rewritten, umulOverflow: umul.rewritten, sret: sret.rewritten },
  };
}
