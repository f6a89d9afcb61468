import type { Idl } from '@coral-xyz/anchor';
import json from './idl/certificates.json';
import type { Certificates } from './types/certificates';

export type { Certificates };

/** The IDL as stored (snake_case), typed for `new Program<Certificates>(IDL, provider)`. */
export const IDL = json as unknown as Certificates;

/** The same IDL as Anchor's generic `Idl`, for code that walks it. */
export const idl: Idl = json as unknown as Idl;
