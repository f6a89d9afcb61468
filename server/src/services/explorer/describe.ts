import { createHash } from 'node:crypto';
import { BorshCoder, type Idl } from '@coral-xyz/anchor';
import { ComputeBudgetProgram, PublicKey, SystemInstruction, SystemProgram, type TransactionInstruction } from '@solana/web3.js';
import {
  ASSOCIATED_TOKEN_PROGRAM_ID,
  ExtensionType,
  TOKEN_2022_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
  TokenInstruction,
  getExtensionData,
  getExtensionTypes,
  unpackAccount,
  unpackMint,
} from '@solana/spl-token';
import { unpack as unpackTokenMetadata } from '@solana/spl-token-metadata';
import { idl } from '../../../../shared/program/idl';
import type {
  ExplorerAccountDto,
  ExplorerField,
  ExplorerInstructionDto,
  ExplorerTransactionDto,
} from '../../../../shared/schemas/explorer';

// What the explorer shows of an account, an instruction and a transaction's logs: decoded with the
// Attesta IDL, the Token-2022 layouts and the system / compute-budget / token instruction sets.

// The IDL is static: one coder. This module is loaded at the explorer's first use (./index.ts imports
// it when asked), so Anchor and the SPL Token libraries (~0.25 s together) are not loaded by every
// server start (#15); the production build keeps them in a chunk of their own.
const coder = new BorshCoder(idl as Idl);

const ACCOUNT_DISCRIMINATORS = ((idl as Idl).accounts ?? []).map((a) => ({ name: a.name, discriminator: Buffer.from(a.discriminator) }));
const KIND_OF: Record<string, ExplorerAccountDto['kind']> = { Certificate: 'certificate', Issuer: 'issuer', Registry: 'registry' };

const PROGRAM_NAMES: Record<string, string> = {
  [SystemProgram.programId.toBase58()]: 'System Program',
  [TOKEN_2022_PROGRAM_ID.toBase58()]: 'Token-2022 Program',
  [TOKEN_PROGRAM_ID.toBase58()]: 'Token Program',
  [ASSOCIATED_TOKEN_PROGRAM_ID.toBase58()]: 'Associated Token Account Program',
  [ComputeBudgetProgram.programId.toBase58()]: 'Compute Budget Program',
  BPFLoaderUpgradeab1e11111111111111111111111: 'BPF Upgradeable Loader',
  BPFLoader2111111111111111111111111111111111: 'BPF Loader',
  Sysvar1nstructions1111111111111111111111111: 'Instructions Sysvar',
  SysvarRent111111111111111111111111111111111: 'Rent Sysvar',
  SysvarC1ock11111111111111111111111111111111: 'Clock Sysvar',
};

export function programName(programId: PublicKey, key: string): string | null {
  if (key === programId.toBase58()) return 'Attesta Certificates Program';
  return PROGRAM_NAMES[key] ?? null;
}

/** A decoded value → text, and what it is (Anchor gives PublicKey, BN, byte arrays, enums as {variant: {}}). */
export function field(name: string, v: unknown): ExplorerField {
  if (v instanceof PublicKey) return { name, value: v.toBase58(), kind: 'address' };
  if (typeof v === 'boolean') return { name, value: String(v), kind: 'bool' };
  if (typeof v === 'number' || typeof v === 'bigint' || (v && typeof v === 'object' && 'toString' in v && (v as { constructor?: { name?: string } }).constructor?.name === 'BN')) {
    const text = String(v);
    // i64 unix seconds (anchored_at, verified_at, …): shown as a time; zero means "never".
    if (/_at$/.test(name) && /^\d+$/.test(text) && text !== '0') {
      const ms = Number(text) * 1000;
      if (Number.isFinite(ms) && ms < 8.64e15) return { name, value: new Date(ms).toISOString(), kind: 'time' };
    }
    return { name, value: text, kind: 'number' };
  }
  if (typeof v === 'string') return { name, value: v, kind: 'text' };
  if (v instanceof Uint8Array || (Array.isArray(v) && v.every((x) => typeof x === 'number'))) {
    return { name, value: Buffer.from(v as number[]).toString('hex'), kind: 'hex' };
  }
  if (Array.isArray(v)) return { name, value: v.map((x) => field(name, x).value).join(', '), kind: 'text' };
  if (v && typeof v === 'object') {
    const keys = Object.keys(v);
    // An enum variant: {approved: {}}.
    if (keys.length === 1 && JSON.stringify((v as Record<string, unknown>)[keys[0]]) === '{}') return { name, value: keys[0], kind: 'text' };
    return { name, value: JSON.stringify(v, (_k, x) => (x instanceof PublicKey ? x.toBase58() : typeof x === 'bigint' ? String(x) : x)), kind: 'text' };
  }
  return { name, value: String(v), kind: 'text' };
}

const fieldsOf = (o: Record<string, unknown>) => Object.entries(o).map(([k, v]) => field(k, v));

function emptyAccount(info: { owner: string; lamports: bigint; executable: boolean; data: Uint8Array }, programId: PublicKey): ExplorerAccountDto {
  return {
    owner: info.owner,
    owner_name: programName(programId, info.owner),
    lamports: info.lamports.toString(),
    executable: info.executable,
    data_length: info.data.length,
    kind: 'unknown',
    type_name: null,
    fields: [],
    extensions: [],
    metadata: null,
    decode_error: null,
  };
}

/** An account, decoded by its owner: the Attesta program's IDL, or Token-2022's layouts. */
export function describeAccount(address: PublicKey, info: { owner: string; lamports: bigint; executable: boolean; data: Uint8Array }, programId: PublicKey): ExplorerAccountDto {
  const out = emptyAccount(info, programId);
  const data = Buffer.from(info.data);
  if (info.executable) return { ...out, kind: 'program' };
  try {
    if (info.owner === programId.toBase58()) {
      const match = ACCOUNT_DISCRIMINATORS.find((a) => data.length >= 8 && data.subarray(0, 8).equals(a.discriminator));
      if (!match) return { ...out, decode_error: 'Not an account type of the Attesta program (unknown discriminator).' };
      const decoded = coder.accounts.decode(match.name, data) as Record<string, unknown>;
      return { ...out, kind: KIND_OF[match.name] ?? 'unknown', type_name: match.name, fields: fieldsOf(decoded) };
    }
    if (info.owner === TOKEN_2022_PROGRAM_ID.toBase58() || info.owner === TOKEN_PROGRAM_ID.toBase58()) {
      const owner = new PublicKey(info.owner);
      const acc = { data, owner, lamports: Number(info.lamports), executable: false };
      // A token account is 165 bytes (+ extensions with account type 2); a mint is 82 (+ type 1).
      const isAccount = data.length === 165 || (data.length > 165 && data[165] === 2);
      if (isAccount) {
        const t = unpackAccount(address, acc, owner);
        return {
          ...out,
          kind: 'token_account',
          type_name: 'Token account',
          fields: [field('mint', t.mint), field('owner', t.owner), field('amount', t.amount), field('state', t.isFrozen ? 'frozen' : t.isInitialized ? 'initialized' : 'uninitialized'), ...(t.delegate ? [field('delegate', t.delegate)] : [])],
          extensions: getExtensionTypes(t.tlvData).map((e) => ExtensionType[e] ?? `Extension ${e}`),
        };
      }
      const m = unpackMint(address, acc, owner);
      const metaBytes = getExtensionData(ExtensionType.TokenMetadata, m.tlvData);
      const meta = metaBytes ? unpackTokenMetadata(metaBytes) : null;
      return {
        ...out,
        kind: 'mint',
        type_name: 'Mint',
        fields: [
          field('supply', m.supply),
          field('decimals', m.decimals),
          field('mint_authority', m.mintAuthority ?? 'none (fixed supply)'),
          field('freeze_authority', m.freezeAuthority ?? 'none'),
        ],
        extensions: getExtensionTypes(m.tlvData).map((e) => ExtensionType[e] ?? `Extension ${e}`),
        metadata: meta
          ? {
              name: meta.name,
              symbol: meta.symbol,
              uri: meta.uri,
              update_authority: meta.updateAuthority?.toBase58() ?? null,
              additional: meta.additionalMetadata.map(([k, v]) => [k, v] as [string, string]),
            }
          : null,
      };
    }
    if (info.owner === SystemProgram.programId.toBase58() && data.length === 0) return { ...out, kind: 'wallet', type_name: 'System account' };
  } catch (e) {
    return { ...out, decode_error: `The account data could not be decoded: ${e instanceof Error ? e.message : String(e)}`.slice(0, 300) };
  }
  return out;
}

const TOKEN_METADATA_IX: [Buffer, string][] = ['initialize_account', 'updating_field', 'remove_key_ix', 'update_the_authority', 'emitter'].map((n) => [
  createHash('sha256').update(`spl_token_metadata_interface:${n}`).digest().subarray(0, 8),
  { initialize_account: 'TokenMetadata: Initialize', updating_field: 'TokenMetadata: UpdateField', remove_key_ix: 'TokenMetadata: RemoveKey', update_the_authority: 'TokenMetadata: UpdateAuthority', emitter: 'TokenMetadata: Emit' }[n]!,
]);

/** One instruction, named: the Attesta program's by its IDL (arguments and account names too), others by their program's layout. */
export function describeInstruction(ix: TransactionInstruction, programId: PublicKey): ExplorerInstructionDto {
  const program = ix.programId.toBase58();
  const accounts = ix.keys.map((k) => ({ name: null as string | null, address: k.pubkey.toBase58(), signer: k.isSigner, writable: k.isWritable }));
  const out: ExplorerInstructionDto = { program, program_name: programName(programId, program), name: null, args: [], accounts, data_hex: null };
  const data = Buffer.from(ix.data);
  try {
    if (ix.programId.equals(programId)) {
      const decoded = coder.instruction.decode(data);
      if (decoded) {
        const formatted = coder.instruction.format(decoded, ix.keys);
        const idlIx = (idl as Idl).instructions.find((i) => i.name === decoded.name);
        const names = (idlIx?.accounts ?? []).map((a) => a.name);
        return {
          ...out,
          name: decoded.name,
          args: fieldsOf(decoded.data as Record<string, unknown>),
          accounts: accounts.map((a, i) => ({ ...a, name: names[i] ?? formatted?.accounts[i]?.name ?? null })),
        };
      }
    } else if (ix.programId.equals(SystemProgram.programId)) {
      return { ...out, name: SystemInstruction.decodeInstructionType(ix) };
    } else if (ix.programId.equals(ComputeBudgetProgram.programId)) {
      const names: Record<number, string> = { 0: 'RequestUnits', 1: 'RequestHeapFrame', 2: 'SetComputeUnitLimit', 3: 'SetComputeUnitPrice', 4: 'SetLoadedAccountsDataSizeLimit' };
      return { ...out, name: names[data[0]] ?? null };
    } else if (ix.programId.equals(ASSOCIATED_TOKEN_PROGRAM_ID)) {
      return { ...out, name: data.length === 0 || data[0] === 0 ? 'Create' : data[0] === 1 ? 'CreateIdempotent' : data[0] === 2 ? 'RecoverNested' : null };
    } else if (ix.programId.equals(TOKEN_2022_PROGRAM_ID) || ix.programId.equals(TOKEN_PROGRAM_ID)) {
      const meta = TOKEN_METADATA_IX.find(([d]) => data.length >= 8 && data.subarray(0, 8).equals(d));
      if (meta) return { ...out, name: meta[1] };
      const name = (TokenInstruction as unknown as Record<number, string>)[data[0]];
      if (name) return { ...out, name };
    }
  } catch {
    // Not decodable: shown by its raw data below.
  }
  return { ...out, data_hex: data.subarray(0, 512).toString('hex') };
}

/** The Attesta program's events in a transaction's logs (`Program data:` lines), decoded with the IDL. */
export function eventsFromLogs(logs: string[]): ExplorerTransactionDto['events'] {
  const out: ExplorerTransactionDto['events'] = [];
  for (const line of logs) {
    const m = /^Program data: ([A-Za-z0-9+/=]+)$/.exec(line);
    if (!m) continue;
    try {
      const ev = coder.events.decode(m[1]);
      if (ev) out.push({ name: ev.name, fields: fieldsOf(ev.data as Record<string, unknown>) });
    } catch {
      // Another program's data.
    }
  }
  return out;
}
