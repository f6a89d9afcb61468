// Types for linker.mjs.
import type { FixupStats } from './ir-fixups.mjs';
export declare const TOOLS: { link: string; opt: string; dis: string; llc: string };
export declare const LLC_FLAGS: string[];
export declare class LinkError extends Error {}
export interface LinkerArgs {
  inputs: string[];
  libDirs: string[];
  output: string | null;
  exportSymbols: string | null;
  optLevel: string;
  debug: boolean;
  cpu: string | null;
}
export declare function parseArgs(argv: string[]): LinkerArgs;
export declare function isBitcode(bytes: Uint8Array): boolean;
export declare function readArchive(buf: Uint8Array): { name: string; data: Uint8Array }[];
export declare function llvmErrorHint(stderr: string): string;
export declare function link(
  argv: string[],
  opts?: { verbose?: boolean; keepTemp?: boolean },
): { output: string; size: number; stats: FixupStats };
export declare function main(argv?: string[]): void;
