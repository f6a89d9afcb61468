import { PublicKey, Transaction } from '@solana/web3.js';
import bs58 from 'bs58';
import { invalidParams, RpcCode, RpcError } from './errors';
import type { RowMatch } from '../services/chain/embedded-account-reader';
import { tokenAccountMint } from './parse-token';

// Parameters of the JSON-RPC methods, checked as Agave's deserializers check them: the same
// refusals, with the same messages, before any lookup.

export type Params = unknown[];
export const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function pubkeyParam(v: unknown): PublicKey {
  if (typeof v !== 'string') throw invalidParams(`Invalid params: invalid type: ${v === null ? 'null' : typeof v}, expected a string.`);
  let bytes: Uint8Array;
  try {
    bytes = bs58.decode(v);
  } catch {
    throw invalidParams('Invalid param: Invalid');
  }
  if (v.length > 44 || bytes.length !== 32) throw invalidParams('Invalid param: WrongSize');
  return new PublicKey(bytes);
}

export function signatureParam(v: unknown): string {
  if (typeof v !== 'string') throw invalidParams(`Invalid params: invalid type: ${typeof v}, expected a string.`);
  let bytes: Uint8Array;
  try {
    bytes = bs58.decode(v);
  } catch {
    throw invalidParams('Invalid param: Invalid');
  }
  if (bytes.length !== 64) throw invalidParams('Invalid param: WrongSize');
  return v;
}

export function configParam(v: unknown, allowed: string[]): Record<string, unknown> {
  if (v === undefined || v === null) return {};
  if (!isObj(v)) throw invalidParams(`Invalid params: invalid type: ${Array.isArray(v) ? 'sequence' : typeof v}, expected a map.`);
  for (const k of Object.keys(v)) if (!allowed.includes(k)) throw invalidParams(`Invalid params: unknown field \`${k}\`, expected one of ${allowed.map((a) => `\`${a}\``).join(', ')}.`);
  const c = v.commitment;
  if (c !== undefined && !['processed', 'confirmed', 'finalized', 'recent', 'single', 'singleGossip', 'root', 'max'].includes(c as string))
    throw invalidParams(`Invalid params: unknown variant \`${String(c)}\`, expected one of \`processed\`, \`confirmed\`, \`finalized\`.`);
  return v;
}

const ACCOUNT_ENCODINGS = ['binary', 'base58', 'base64', 'jsonParsed', 'base64+zstd'];

/** Account-method configs, checked before any lookup (the validator rejects them while deserializing). */
export function accountConfig(v: unknown, allowed: string[]): Record<string, unknown> {
  const cfg = configParam(v, allowed);
  if (cfg.encoding !== undefined && !ACCOUNT_ENCODINGS.includes(cfg.encoding as string))
    throw invalidParams(`Invalid params: unknown variant \`${String(cfg.encoding)}\`, expected one of \`binary\`, \`base58\`, \`base64\`, \`jsonParsed\`, \`base64+zstd\`.`);
  if (cfg.encoding === 'base64+zstd') throw invalidParams('Invalid params: base64+zstd is not supported by this node; use base64.');
  return cfg;
}

export function tooMany(params: Params, n: number) {
  if (params.length > n) throw invalidParams(`Invalid params: invalid length ${params.length}, expected ${n === 1 ? 'a tuple of size 1' : `at most ${n} elements`}.`);
}

export function u64Param(v: unknown, name: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw invalidParams(`Invalid params: invalid type for ${name}, expected u64.`);
  return v;
}

/** A transaction from base58/base64 text, as Agave's decode_and_deserialize (legacy messages). */
export function decodeTransaction(encoded: unknown, encoding: unknown): { bytes: Uint8Array; tx: Transaction } {
  if (typeof encoded !== 'string') throw invalidParams('Invalid params: invalid type: expected a string.');
  const enc = encoding ?? 'base58';
  let bytes: Uint8Array;
  if (enc === 'base58') {
    if (encoded.length > 1683) throw invalidParams(`base58 encoded solana_transaction::versioned::VersionedTransaction too large (${encoded.length} bytes, max 1683 bytes)`);
    try {
      bytes = bs58.decode(encoded);
    } catch (e) {
      throw invalidParams(`invalid base58 encoding: ${String(e)}`);
    }
  } else if (enc === 'base64') {
    if (encoded.length > 1644) throw invalidParams(`base64 encoded solana_transaction::versioned::VersionedTransaction too large (${encoded.length} bytes, max 1644 bytes)`);
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(encoded) || encoded.length % 4 !== 0) throw invalidParams('invalid base64 encoding: InvalidByte');
    bytes = Buffer.from(encoded, 'base64');
  } else {
    throw invalidParams(`unsupported encoding: ${String(enc)}. Supported encodings: base58, base64`);
  }
  if (bytes.length > 1232) throw invalidParams(`decoded solana_transaction::versioned::VersionedTransaction too large (${bytes.length} bytes, max 1232 bytes)`);
  let tx: Transaction;
  try {
    // Versioned messages start with 0x80|version after the signatures; legacy ones never do.
    const nsig = bytes[0] ?? 0;
    const off = 1 + 64 * nsig;
    if (nsig < 0x80 && bytes.length > off && bytes[off] & 0x80) {
      throw new RpcError(RpcCode.InvalidParams, 'failed to deserialize solana_transaction::versioned::VersionedTransaction: versioned (v0) messages are not supported by the embedded chain');
    }
    tx = Transaction.from(bytes);
  } catch (e) {
    if (e instanceof RpcError) throw e;
    throw invalidParams(`failed to deserialize solana_transaction::versioned::VersionedTransaction: ${e instanceof Error ? e.message : String(e)}`);
  }
  return { bytes, tx };
}

export function safeJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return s;
  }
}

/** One getProgramAccounts filter (Agave's RpcFilterType), parsed: its check of account data, and what the database can check of it. */
export interface Filter {
  test(data: Uint8Array): boolean;
  dataSize?: number;
  memcmp?: { offset: number; bytes: Uint8Array };
}

export function parseFilter(f: unknown): Filter {
  if (!isObj(f)) throw invalidParams('Invalid params: invalid filter.');
  if ('dataSize' in f) {
    if (typeof f.dataSize !== 'number' || !Number.isInteger(f.dataSize) || f.dataSize < 0) throw invalidParams('Invalid params: dataSize must be a u64.');
    const n = f.dataSize;
    return { test: (d) => d.length === n, dataSize: n };
  }
  if ('memcmp' in f) {
    const m = f.memcmp;
    if (!isObj(m) || typeof m.offset !== 'number' || !Number.isInteger(m.offset) || m.offset < 0 || typeof m.bytes !== 'string') throw invalidParams('Invalid params: memcmp needs {offset, bytes}.');
    const enc = m.encoding ?? 'base58';
    let bytes: Uint8Array;
    if (enc === 'base58') {
      if (m.bytes.length > 175) throw invalidParams('Encoded binary (base 58) data should be less than 128 bytes');
      try {
        bytes = bs58.decode(m.bytes);
      } catch {
        throw invalidParams('Invalid param: invalid base58 memcmp bytes');
      }
    } else if (enc === 'base64') {
      bytes = Buffer.from(m.bytes, 'base64');
    } else throw invalidParams(`Invalid params: unknown memcmp encoding \`${String(enc)}\`.`);
    if (bytes.length > 128) throw invalidParams('Encoded binary (base 58) data should be less than 128 bytes');
    const off = m.offset;
    // An account's data is at most 10 MiB: an offset past it matches nothing (and stays a small SQL integer).
    if (off > 10 * 1024 * 1024) return { test: () => false, dataSize: -1 };
    return { test: (d) => d.length >= off + bytes.length && bytes.every((b, i) => d[off + i] === b), memcmp: { offset: off, bytes } };
  }
  if ('tokenAccountState' in f) return { test: (d) => tokenAccountMint(d) !== null }; // Account::valid_account_data
  throw invalidParams('Invalid params: unknown filter; expected dataSize, memcmp or tokenAccountState.');
}

/** What the database checks of the filters before reading an account (the same checks, in SQL). */
export function rowMatchOf(filters: Filter[]): RowMatch {
  const sizes = filters.filter((f) => f.dataSize !== undefined).map((f) => f.dataSize!);
  return {
    // Two different sizes match nothing; -1 is no size at all.
    dataSize: sizes.length ? (sizes.every((n) => n === sizes[0]) ? sizes[0] : -1) : undefined,
    bytes: filters.flatMap((f) => (f.memcmp ? [f.memcmp] : [])),
  };
}
