#!/usr/bin/env node
// Builds the on-chain program and checks that the committed binary is reproducible.
//   node programs/toolchain/build.mjs            → programs/certificates/deploy/certificates.so (+ .sha256)
//   node programs/toolchain/build.mjs --verify   → rebuild in a temporary target dir; fail on any byte difference
// Options for other crates (tests use the fixture): --program DIR, --name NAME, --target-dir DIR.

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const PROGRAM_DIR = resolve(here, '../certificates');
export const TARGET = 'bpfel-unknown-none';
export const RUSTC = '/usr/bin/rustc';
export const CARGO = '/usr/bin/cargo';
export const LLVM_TOOLS = ['llvm-link-22', 'opt-22', 'llvm-dis-22', 'llc-22'];
const APT = 'apt-get install -y --no-install-recommends rustc-web cargo-web libstd-rust-web-dev-bpf llvm-22';

export class BuildError extends Error {}

/** Whether an executable named `cmd` is in one of PATH's directories. */
function onPath(cmd) {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => {
    try {
      accessSync(join(dir || '.', cmd), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * What is missing from the Debian toolchain (empty when everything is installed).
 * @returns {string[]}
 */
export function missingToolchain() {
  const missing = [];
  if (!existsSync(RUSTC)) missing.push(`${RUSTC} (Debian package rustc-web)`);
  if (!existsSync(CARGO)) missing.push(`${CARGO} (Debian package cargo-web)`);
  if (existsSync(RUSTC)) {
    const sysroot = spawnSync(RUSTC, ['--print', 'sysroot'], { encoding: 'utf8' }).stdout?.trim();
    if (!sysroot || !existsSync(join(sysroot, 'lib/rustlib', TARGET, 'lib'))) {
      missing.push(`core for ${TARGET} (Debian package libstd-rust-web-dev-bpf)`);
    }
  }
  for (const t of LLVM_TOOLS) if (!onPath(t)) missing.push(`${t} (Debian package llvm-22)`);
  return missing;
}

/** Package name from Cargo.toml (the .so is named after it). */
export function crateName(programDir) {
  const names = {};
  let table = '';
  for (const line of readFileSync(join(programDir, 'Cargo.toml'), 'utf8').split('\n')) {
    const header = /^\s*\[([^\]]+)\]\s*(#.*)?$/.exec(line);
    if (header) table = header[1].trim();
    const name = /^\s*name\s*=\s*"([^"]+)"/.exec(line);
    if (name && (table === 'lib' || table === 'package')) names[table] ??= name[1];
  }
  const name = names.lib ?? names.package;
  if (!name) throw new BuildError(`no package name in ${join(programDir, 'Cargo.toml')}`);
  return name.replace(/-/g, '_');
}

/**
 * Runs `cargo build --release --target bpfel-unknown-none` and returns the .so's bytes.
 * Paths are remapped so the binary does not depend on where the repository is cloned.
 * @param {{ programDir?: string, targetDir?: string, quiet?: boolean }} [opts]
 */
export function cargoBuild(opts = {}) {
  const programDir = resolve(opts.programDir ?? PROGRAM_DIR);
  const targetDir = resolve(opts.targetDir ?? join(programDir, 'target'));
  const missing = missingToolchain();
  if (missing.length) {
    throw new BuildError(`the Solana program toolchain is incomplete; missing:\n  - ${missing.join('\n  - ')}\nInstall with: ${APT}`);
  }
  if (!existsSync(join(programDir, 'Cargo.toml'))) throw new BuildError(`no Cargo.toml in ${programDir}`);
  const env = { ...process.env, RUSTC, CARGO_TERM_COLOR: 'never' };
  delete env.RUSTFLAGS; // would silently replace the flags below
  delete env.CARGO_BUILD_RUSTFLAGS;
  // \x1f separates CARGO_ENCODED_RUSTFLAGS. Remapping makes any absolute source path (e.g. in
  // panic locations) independent of the clone directory.
  env.CARGO_ENCODED_RUSTFLAGS = [`--remap-path-prefix=${programDir}=.`, `--remap-path-prefix=${targetDir}=target`].join('\x1f');
  const r = spawnSync(CARGO, ['build', '--release', '--offline', '--target', TARGET, '--target-dir', targetDir], {
    cwd: programDir,
    env,
    encoding: 'utf8',
    stdio: opts.quiet ? 'pipe' : ['ignore', 'inherit', 'inherit'],
  });
  if (r.error) throw new BuildError(`cargo failed to start: ${r.error.message}`);
  if (r.status !== 0) {
    throw new BuildError(`cargo build failed (exit ${r.status})${opts.quiet ? `:\n${r.stderr}` : ' (see the errors above)'}`);
  }
  const so = join(targetDir, TARGET, 'release', `lib${crateName(programDir)}.so`);
  if (!existsSync(so)) throw new BuildError(`cargo succeeded but ${so} is missing; is crate-type "cdylib" set?`);
  return readFileSync(so);
}

/** @param {Uint8Array} bytes */
export const sha256Hex = (bytes) => createHash('sha256').update(bytes).digest('hex');

/**
 * Builds and writes `<deployDir>/<name>.so` and `<name>.so.sha256` (`<hex>  <name>.so`).
 * @param {{ programDir?: string, deployDir?: string, name?: string, targetDir?: string, quiet?: boolean }} [opts]
 */
export function buildProgram(opts = {}) {
  const programDir = resolve(opts.programDir ?? PROGRAM_DIR);
  const name = opts.name ?? 'certificates';
  const deployDir = resolve(opts.deployDir ?? join(programDir, 'deploy'));
  const bytes = cargoBuild({ programDir, targetDir: opts.targetDir, quiet: opts.quiet });
  mkdirSync(deployDir, { recursive: true });
  const soPath = join(deployDir, `${name}.so`);
  writeFileSync(soPath, bytes);
  const hash = sha256Hex(bytes);
  writeFileSync(`${soPath}.sha256`, `${hash}  ${name}.so\n`);
  return { soPath, hash, size: bytes.length };
}

/**
 * Rebuilds from source in a fresh target directory and compares with the committed binary.
 * @param {{ programDir?: string, deployDir?: string, name?: string, quiet?: boolean }} [opts]
 * @returns {{ ok: boolean, problems: string[], committed: string|null, rebuilt: string }}
 */
export function verifyProgram(opts = {}) {
  const programDir = resolve(opts.programDir ?? PROGRAM_DIR);
  const name = opts.name ?? 'certificates';
  const deployDir = resolve(opts.deployDir ?? join(programDir, 'deploy'));
  const soPath = join(deployDir, `${name}.so`);
  const problems = [];
  const targetDir = mkdtempSync(join(tmpdir(), 'attesta-verify-'));
  let rebuiltBytes;
  try {
    rebuiltBytes = cargoBuild({ programDir, targetDir, quiet: opts.quiet });
  } finally {
    rmSync(targetDir, { recursive: true, force: true });
  }
  const rebuilt = sha256Hex(rebuiltBytes);
  let committed = null;
  if (!existsSync(soPath)) {
    problems.push(`${soPath} does not exist: run npm run build:program and commit it`);
  } else {
    const bytes = readFileSync(soPath);
    committed = sha256Hex(bytes);
    if (committed !== rebuilt) {
      const at = firstDifference(bytes, rebuiltBytes);
      problems.push(
        `committed ${name}.so differs from a fresh build (first difference at byte ${at}; ` +
          `sizes ${bytes.length} vs ${rebuiltBytes.length}): run npm run build:program and commit the result`,
      );
    }
    const shaFile = `${soPath}.sha256`;
    const expected = `${committed}  ${name}.so`;
    if (!existsSync(shaFile)) problems.push(`${shaFile} is missing (expected "${expected}")`);
    else if (readFileSync(shaFile, 'utf8').trim() !== expected) {
      problems.push(`${shaFile} says "${readFileSync(shaFile, 'utf8').trim()}" but the committed .so hashes to "${expected}"`);
    }
  }
  return { ok: problems.length === 0, problems, committed, rebuilt };
}

/** @param {Uint8Array} a @param {Uint8Array} b */
function firstDifference(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return n;
}

function parseCli(argv) {
  const opts = { verify: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--verify') opts.verify = true;
    else if (a === '--program') opts.programDir = argv[++i];
    else if (a === '--name') opts.name = argv[++i];
    else if (a === '--deploy-dir') opts.deployDir = argv[++i];
    else if (a === '--target-dir') opts.targetDir = argv[++i];
    else throw new BuildError(`unknown option ${a} (use --verify, --program DIR, --name NAME, --deploy-dir DIR, --target-dir DIR)`);
  }
  return opts;
}

function main() {
  try {
    const opts = parseCli(process.argv.slice(2));
    if (opts.verify) {
      const r = verifyProgram(opts);
      console.log(`committed: ${r.committed ?? '(none)'}`);
      console.log(`rebuilt:   ${r.rebuilt}`);
      if (!r.ok) {
        for (const p of r.problems) console.error(`verify: ${p}`);
        process.exitCode = 1;
      } else console.log('verify: the committed program is byte-identical to a fresh build');
    } else {
      const r = buildProgram(opts);
      console.log(`wrote ${r.soPath} (${r.size} bytes)\nsha256 ${r.hash}`);
    }
  } catch (e) {
    console.error(`build-program: ${e instanceof BuildError ? e.message : /** @type {Error} */ (e).stack}`);
    process.exitCode = 1;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
