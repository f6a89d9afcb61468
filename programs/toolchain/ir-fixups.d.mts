// Types for ir-fixups.mjs (plain ESM so the linker shim runs without a build step).
export declare const INLINE_MEM_LIMIT: number;
export interface FixupResult { ir: string; rewritten: number }
export declare function splitTopLevel(s: string): string[];
export declare function rewriteMemIntrinsics(ir: string): FixupResult;
export declare function ensureDeclared(ir: string, name: string, decl: string): string;
export declare function rewriteUmulOverflow(ir: string): FixupResult;
export declare function dropSret(ir: string): FixupResult;
export declare function dropOptnone(ir: string): string;
export interface FixupStats { memIntrinsics: number; umulOverflow: number; sret: number }
export declare function applyFixups(ir: string): { ir: string; stats: FixupStats };
export declare const MAX_BPF_ARGS: number;
export declare function markWideFunctions(
  ir: string,
  exports?: string[],
): { ir: string; marked: string[]; blocked: string[] };
