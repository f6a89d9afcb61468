// Types for elf-to-sbpf.mjs.
export declare const MM_PROGRAM_START: bigint;
export declare class SbpfError extends Error {
  constructor(problems: string[]);
  problems: string[];
}
export declare function elfToSbpf(input: Uint8Array, options?: { entry?: string }): Uint8Array;
