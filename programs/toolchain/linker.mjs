// The linker rustc runs for target bpfel-unknown-none (via programs/toolchain/bpf-linker).
// rustc hands over LLVM bitcode (the target has obj-is-bitcode); this turns it into an SBPF v0
// shared object: llvm-link → opt → textual IR fix-ups → llc (cpu v2) → elf-to-sbpf.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, basename } from 'node:path';
import { applyFixups, dropOptnone, markWideFunctions, MAX_BPF_ARGS } from './ir-fixups.mjs';
import { elfToSbpf } from './elf-to-sbpf.mjs';
import { demangle } from './elf-reader.mjs';

const LLVM = process.env.ATTESTA_LLVM_SUFFIX ?? '-22';
export const TOOLS = {
  link: `llvm-link${LLVM}`,
  opt: `opt${LLVM}`,
  dis: `llvm-dis${LLVM}`,
  llc: `llc${LLVM}`,
};

/** llc flags: SBPF v0 is eBPF cpu v2 without 32-bit sub-registers; see README. */
export const LLC_FLAGS = [
  '-march=bpfel',
  '-mcpu=v2',
  '-mattr=+allows-misaligned-mem-access',
  '-bpf-stack-size=4096',
  '-filetype=obj',
];

export class LinkError extends Error {}

/**
 * Parses bpf-linker's command line as rustc writes it:
 * `--export-symbols FILE <inputs> -L DIR --cpu generic -o OUT -O3 [--debug]`.
 * @param {string[]} argv
 */
export function parseArgs(argv) {
  const args = { inputs: [], libDirs: [], output: null, exportSymbols: null, optLevel: '3', debug: false, cpu: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new LinkError(`option ${a} needs a value`);
      return argv[++i];
    };
    if (a === '--export-symbols') args.exportSymbols = value();
    else if (a === '-o') args.output = value();
    else if (a === '-L') args.libDirs.push(value());
    else if (a.startsWith('-L')) args.libDirs.push(a.slice(2));
    else if (a === '--cpu') args.cpu = value();
    else if (a === '--cpu-features') value();
    else if (/^-O[0-3sz]$/.test(a)) args.optLevel = a.slice(2);
    else if (a === '--debug' || a === '-g') args.debug = true;
    else if (a.startsWith('-')) throw new LinkError(`unknown option ${a}`);
    else args.inputs.push(a);
  }
  if (!args.output) throw new LinkError('no output file (-o OUT)');
  if (args.inputs.length === 0) throw new LinkError('no input files');
  return args;
}

const BITCODE = [0x42, 0x43, 0xc0, 0xde];
const BITCODE_WRAPPER = [0xde, 0xc0, 0x17, 0x0b];
const startsWith = (b, magic) => magic.every((x, i) => b[i] === x);
export const isBitcode = (b) => startsWith(b, BITCODE) || startsWith(b, BITCODE_WRAPPER);

/**
 * Members of a Unix `ar` archive (rlibs are ar archives), GNU long names resolved.
 * @param {Uint8Array} buf
 * @returns {{ name: string, data: Uint8Array }[]}
 */
export function readArchive(buf) {
  const dec = new TextDecoder();
  if (dec.decode(buf.subarray(0, 8)) !== '!<arch>\n') throw new LinkError('not an ar archive');
  const members = [];
  let longNames = '';
  let at = 8;
  while (at + 60 <= buf.length) {
    const header = dec.decode(buf.subarray(at, at + 60));
    const size = parseInt(header.slice(48, 58).trim(), 10);
    let name = header.slice(0, 16).trim();
    const data = buf.subarray(at + 60, at + 60 + size);
    if (name === '//') longNames = dec.decode(data);
    else if (name !== '/' && name !== '/SYM64/') {
      if (/^\/\d+$/.test(name)) {
        const off = Number(name.slice(1));
        name = longNames.slice(off, longNames.indexOf('\n', off));
      }
      members.push({ name: name.replace(/\/$/, ''), data });
    }
    at += 60 + size + (size % 2);
  }
  return members;
}

/**
 * Runs one LLVM tool; a failure becomes a LinkError carrying its diagnostics and a hint.
 * @param {string} tool
 * @param {string[]} args
 */
function run(tool, args) {
  const r = spawnSync(tool, args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (r.error && /** @type {any} */ (r.error).code === 'ENOENT') {
    throw new LinkError(
      `${tool} not found. Install Debian's LLVM 22: apt-get install -y --no-install-recommends llvm-22 ` +
        '(and rustc-web cargo-web libstd-rust-web-dev-bpf for the Rust side)',
    );
  }
  if (r.error) throw new LinkError(`${tool} failed to start: ${r.error.message}`);
  if (r.status !== 0) {
    const stderr = (r.stderr || '').trim();
    const hint = llvmErrorHint(stderr);
    throw new LinkError(`${tool} failed (exit ${r.status}):\n${stderr}${hint ? `\nhint: ${hint}` : ''}`);
  }
  return r;
}

/** Advice for the BPF backend's typical complaints, phrased as what to change in the Rust. */
export function llvmErrorHint(stderr) {
  if (/stack limit|BPF stack/i.test(stderr)) return 'a function needs more than 4 KiB of stack: move big arrays/structs to the heap or an account, or split the function';
  if (/too many arguments|too many args/i.test(stderr)) return 'a non-inlined function takes more than 5 arguments: pass a struct by reference';
  if (/signed division|sdiv|srem/i.test(stderr)) return 'signed 64-bit division is not available: use unsigned division';
  if (/__multi3|__udivti3|__umodti3|__divti3|__modti3/.test(stderr)) return 'u128/i128 arithmetic is not supported: use u64 with checked_* operations';
  if (/built-in function '(memcpy|memmove|memset|memcmp|bcmp)'/.test(stderr)) return 'a memory intrinsic the IR fix-ups do not recognise; call sol_memcpy_/sol_memset_/sol_memcmp_ explicitly';
  if (/built-in function '__\w+[sd]f\w*'/.test(stderr)) return 'floating point is not supported on SBPF: use integer maths';
  if (/small returns/.test(stderr)) return 'a function returns a large aggregate by value: return it through a &mut out-parameter';
  return '';
}

/**
 * The whole pipeline.
 * @param {string[]} argv the linker command line from rustc
 * @param {{ verbose?: boolean, keepTemp?: boolean }} [opts]
 */
export function link(argv, opts = {}) {
  const args = parseArgs(argv);
  const log = opts.verbose ? (m) => process.stderr.write(`bpf-linker: ${m}\n`) : () => {};
  const dir = mkdtempSync(join(tmpdir(), 'attesta-bpf-link-'));
  try {
    // 1. Collect bitcode: objects are linked whole, rlib members only where needed.
    const objects = [];
    const libs = [];
    let n = 0;
    for (const input of args.inputs) {
      const buf = readFileSync(input);
      if (isBitcode(buf)) {
        const p = join(dir, `obj${n++}.bc`);
        writeFileSync(p, buf);
        objects.push(p);
      } else if (buf.subarray(0, 8).toString('latin1') === '!<arch>\n') {
        for (const m of readArchive(buf)) {
          if (!isBitcode(m.data)) continue; // lib.rmeta and other metadata
          const p = join(dir, `lib${n++}.bc`);
          writeFileSync(p, m.data);
          libs.push(p);
        }
      } else log(`skipping non-bitcode input ${basename(input)}`); // rustc's native symbols.o
    }
    if (objects.length === 0) throw new LinkError('no LLVM bitcode among the inputs; is the target bpfel-unknown-none?');
    let linked = join(dir, 'linked.bc');
    run(TOOLS.link, ['-o', linked, ...objects]);
    if (libs.length) {
      // --only-needed applies to the files after the first; listing the libraries twice lets a
      // member pull in members listed before it (e.g. core needing compiler_builtins' memcmp).
      const withLibs = join(dir, 'linked-libs.bc');
      run(TOOLS.link, ['--only-needed', '-o', withLibs, linked, ...libs, ...libs]);
      linked = withLibs;
    }

    // 2. Optimise with everything but the exports internal, so unused code disappears and the
    //    backend may change internal calling conventions. Debug builds are optimised too.
    let optInput = linked;
    const lowOpt = args.optLevel === '0' || args.optLevel === '1';
    if (lowOpt) {
      const ll = join(dir, 'linked.ll');
      run(TOOLS.dis, ['-o', ll, linked]);
      writeFileSync(ll, dropOptnone(readFileSync(ll, 'utf8')));
      optInput = ll;
    }
    const level = lowOpt ? '2' : args.optLevel;
    const exports = readExports(args.exportSymbols);
    const optimised = join(dir, 'optimised.ll');
    run(TOOLS.opt, [
      '-mtriple=bpfel', '-mcpu=v2', '--strip-debug',
      `--internalize-public-api-list=${exports.join(',')}`,
      `-passes=internalize,default<O${level}>,globaldce`,
      '-S', '-o', optimised, optInput,
    ]);

    // 3. Functions with more than 5 parameters cannot be called on BPF: inline them, then
    //    rewrite what would otherwise become libcalls.
    const wide = inlineWideFunctions(readFileSync(optimised, 'utf8'), exports, dir);
    if (wide.marked.length) log(`inlined ${wide.marked.length} functions with more than 5 parameters`);
    const { ir, stats } = applyFixups(wide.ir);
    const fixed = join(dir, 'fixed.ll');
    writeFileSync(fixed, ir);
    log(`IR fix-ups: ${JSON.stringify(stats)}`);

    // 4. Code generation for SBPF v0.
    const object = join(dir, 'program.o');
    run(TOOLS.llc, [...LLC_FLAGS, `-O${/[sz]/.test(level) ? '2' : level}`, '-o', object, fixed]);

    // 5. Relocatable object → loadable shared object.
    const so = elfToSbpf(readFileSync(object));
    writeFileSync(args.output, so);
    log(`wrote ${args.output} (${so.length} bytes)`);
    return { output: args.output, size: so.length, stats };
  } finally {
    if (opts.keepTemp) log(`intermediate files kept in ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Marks functions with too many parameters `alwaysinline` and runs LLVM's always-inliner (plus
 * a light cleanup) over them. Fails with the function names when one cannot be inlined.
 * @param {string} ir optimised textual IR
 * @param {string[]} exports
 * @param {string} dir scratch directory
 */
function inlineWideFunctions(ir, exports, dir) {
  const { ir: markedIr, marked, blocked } = markWideFunctions(ir, exports);
  if (blocked.length) {
    throw new LinkError(
      `these functions take more than ${MAX_BPF_ARGS} parameters (BPF passes arguments in r1-r5 only) and are ` +
        `#[inline(never)]/#[cold], so they cannot be inlined: ${blocked.map((n) => `\`${demangle(n)}\``).join(', ')}. ` +
        'Pass a struct by reference instead, or allow inlining. (A returned struct counts as one extra parameter.)',
    );
  }
  if (marked.length === 0) return { ir, marked };
  const input = join(dir, 'wide.ll');
  const output = join(dir, 'inlined.ll');
  writeFileSync(input, markedIr);
  run(TOOLS.opt, [
    '-mtriple=bpfel', '-mcpu=v2',
    '-passes=always-inline,function(sroa,early-cse,instcombine,simplifycfg),globaldce',
    '-S', '-o', output, input,
  ]);
  return { ir: readFileSync(output, 'utf8'), marked };
}

/** Exported symbol names from rustc's --export-symbols file; `entrypoint` always. */
function readExports(file) {
  const names = new Set(['entrypoint']);
  if (file && existsSync(file)) {
    for (const line of readFileSync(file, 'utf8').split('\n')) if (line.trim()) names.add(line.trim());
  }
  return [...names].sort();
}

/** CLI entry: errors are printed for rustc to show, with exit status 1. */
export function main(argv = process.argv.slice(2)) {
  const verbose = process.env.ATTESTA_LINKER_VERBOSE === '1';
  try {
    link(argv, { verbose, keepTemp: process.env.ATTESTA_LINKER_KEEP === '1' });
  } catch (e) {
    const err = /** @type {Error} */ (e);
    process.stderr.write(`bpf-linker: error: ${err.message}\n`);
    if (verbose && !(err instanceof LinkError)) process.stderr.write(`${err.stack}\n`);
    process.exitCode = 1;
  }
}
