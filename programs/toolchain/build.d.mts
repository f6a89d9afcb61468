// Types for build.mjs.
export declare const PROGRAM_DIR: string;
export declare const TARGET: string;
export declare const RUSTC: string;
export declare const CARGO: string;
export declare const LLVM_TOOLS: string[];
export declare class BuildError extends Error {}
export declare function missingToolchain(): string[];
export declare function crateName(programDir: string): string;
export declare function cargoBuild(opts?: { programDir?: string; targetDir?: string; quiet?: boolean }): Buffer;
export declare function sha256Hex(bytes: Uint8Array): string;
export declare function buildProgram(opts?: {
  programDir?: string;
  deployDir?: string;
  name?: string;
  targetDir?: string;
  quiet?: boolean;
}): { soPath: string; hash: string; size: number };
export declare function verifyProgram(opts?: {
  programDir?: string;
  deployDir?: string;
  name?: string;
  quiet?: boolean;
}): { ok: boolean; problems: string[]; committed: string | null; rebuilt: string };
