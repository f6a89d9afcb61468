import { createHash } from 'node:crypto';
import { BorshCoder, type Idl } from '@coral-xyz/anchor';
import { ComputeBudgetProgram, PublicKey, SystemInstruction, SystemProgram, Transaction, type TransactionInstruction } from '@solana/web3.js';
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
import bs58 from 'bs58';
import type { Kysely } from 'kysely';
import { idl } from '../../../../shared/program/idl';
import type {
  ExplorerAccountDto,
  ExplorerAddressDto,
  ExplorerField,
  ExplorerInstructionDto,
  ExplorerTransactionDto,
  ExplorerTxSummaryDto,
} from '../../../../shared/schemas/explorer';
import { EXPLORER_PAGE_SIZE } from '../../../../shared/schemas/explorer';
import type { Database } from '../../db/schema';
import type { Services } from '../index';

// A read-only explorer of this server's chain for anyone: accounts decoded with the Attesta IDL
// (certificate, issuer, registry), Token-2022 mints with their metadata, and transactions with their
// instructions and events named. It reads the chain through ChainService and transactions from the
// JSON-RPC journal (rpc_transaction, rpc_transaction_account; embedded chain) or, failing that, from
// the transactions this server sent (chain_transaction).

type JournalTables = {
  rpc_transaction: { signature: string; slot: number; block_time: number; wire: Buffer; fee: number; pre_balances: string; post_balances: string; err: string | null };
  rpc_transaction_account: { pubkey: string; slot: number; signature: string };
};
type ExplorerDb = Kysely<Database & JournalTables>;
const explorerDb = (db: Kysely<Database>) => db as unknown as ExplorerDb;

export class ExplorerNotFound extends Error {}

const coderCache = new WeakMap<object, BorshCoder>();
function coder(): BorshCoder {
  let c = coderCache.get(idl);
  if (!c) coderCache.set(idl, (c = new BorshCoder(idl as Idl)));
  return c;
}

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
      const decoded = coder().accounts.decode(match.name, data) as Record<string, unknown>;
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
      const decoded = coder().instruction.decode(data);
      if (decoded) {
        const formatted = coder().instruction.format(decoded, ix.keys);
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
      const ev = coder().events.decode(m[1]);
      if (ev) out.push({ name: ev.name, fields: fieldsOf(ev.data as Record<string, unknown>) });
    } catch {
      // Another program's data.
    }
  }
  return out;
}

const iso = (unixSeconds: number | null | undefined) => (unixSeconds ? new Date(unixSeconds * 1000).toISOString() : null);

function decodeWire(wire: Uint8Array): Transaction | null {
  try {
    return Transaction.from(wire);
  } catch {
    return null;
  }
}

/** An address: its account (if any), its latest transactions, and the certificate it belongs to. */
export async function explorerAddress(svc: Pick<Services, 'db' | 'chain'>, address: string, limit = EXPLORER_PAGE_SIZE): Promise<ExplorerAddressDto> {
  let key: PublicKey;
  try {
    const bytes = bs58.decode(address);
    if (bytes.length !== 32) throw new Error('size');
    key = new PublicKey(bytes);
  } catch {
    throw new ExplorerNotFound('Not a valid Solana address.');
  }
  const db = explorerDb(svc.db);
  const { programId } = svc.chain;
  const info = await svc.chain.getAccountInfo(key);
  const account = info ? describeAccount(key, info, programId) : null;

  let transactions: ExplorerTxSummaryDto[] = [];
  let hasMore = false;
  const journal = await db
    .selectFrom('rpc_transaction_account as a')
    .innerJoin('rpc_transaction as t', 't.signature', 'a.signature')
    .select(['t.signature', 't.slot', 't.block_time', 't.err', 't.wire'])
    .where('a.pubkey', '=', address)
    .orderBy('a.slot', 'desc')
    .orderBy('a.signature', 'desc')
    .limit(limit + 1)
    .execute()
    .catch(() => []); // no journal (RPC chains): the server's own transactions below
  if (journal.length) {
    hasMore = journal.length > limit;
    transactions = journal.slice(0, limit).map((t) => {
      const tx = decodeWire(t.wire);
      return {
        signature: t.signature,
        slot: Number(t.slot),
        block_time: iso(Number(t.block_time)),
        ok: t.err === null,
        instructions: tx ? tx.instructions.map((ix) => describeInstruction(ix, programId)).map((d) => d.name ?? d.program_name ?? 'Unknown instruction') : [],
      };
    });
  } else {
    const own = await svc.db
      .selectFrom('chain_transaction as t')
      .innerJoin('certificate as c', 'c.id', 't.certificate_id')
      .select(['t.signature', 't.slot', 't.status', 't.kind', 't.created_at'])
      .where((eb) => eb.or([eb('c.record_address', '=', address), eb('c.nft_mint_address', '=', address), eb('c.holder_wallet', '=', address)]))
      .orderBy('t.slot', 'desc')
      .limit(limit + 1)
      .execute();
    hasMore = own.length > limit;
    transactions = own.slice(0, limit).map((t) => ({ signature: t.signature, slot: t.slot, block_time: t.created_at, ok: t.status === 'success', instructions: [t.kind] }));
  }
  if (!account && !transactions.length) throw new ExplorerNotFound('No account or transaction with this address on this chain.');

  const cert = await svc.db
    .selectFrom('certificate')
    .select(['id', 'user_id', 'title', 'record_address', 'nft_mint_address'])
    .where((eb) => eb.or([eb('record_address', '=', address), eb('nft_mint_address', '=', address)]))
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  return {
    address,
    chain: svc.chain.mode,
    account,
    transactions,
    has_more: hasMore,
    certificate: cert ? { id: cert.id, user_id: cert.user_id, title: cert.title, role: cert.record_address === address ? 'record' : 'mint' } : null,
  };
}

/** A transaction: its instructions and events decoded, its logs; from the journal or the server's own record. */
export async function explorerTransaction(svc: Pick<Services, 'db' | 'chain'>, signature: string): Promise<ExplorerTransactionDto> {
  try {
    if (bs58.decode(signature).length !== 64) throw new Error('size');
  } catch {
    throw new ExplorerNotFound('Not a valid transaction signature.');
  }
  const db = explorerDb(svc.db);
  const { programId } = svc.chain;
  const [journal, own] = await Promise.all([
    db.selectFrom('rpc_transaction').selectAll().where('signature', '=', signature).executeTakeFirst().catch(() => undefined),
    svc.db.selectFrom('chain_transaction').selectAll().where('signature', '=', signature).executeTakeFirst(),
  ]);
  if (!journal && !own) throw new ExplorerNotFound('No transaction with this signature on this chain.');
  const tx = journal ? decodeWire(journal.wire) : null;
  let logs: string[] = [];
  try {
    logs = own ? (JSON.parse(own.logs) as string[]).filter((l) => typeof l === 'string').slice(0, 500) : [];
  } catch {
    logs = [];
  }
  const error = journal?.err ?? own?.error ?? null;
  return {
    signature,
    chain: svc.chain.mode,
    slot: Number(journal?.slot ?? own?.slot ?? 0),
    block_time: journal ? iso(Number(journal.block_time)) : (own?.created_at ?? null),
    ok: journal ? journal.err === null : own?.status === 'success',
    error: typeof error === 'string' ? error.slice(0, 500) : null,
    fee: journal ? String(journal.fee) : null,
    compute_units: own?.compute_units ?? null,
    signers: tx ? tx.signatures.map((s) => s.publicKey.toBase58()) : [],
    instructions: tx ? tx.instructions.map((ix) => describeInstruction(ix, programId)) : [],
    events: eventsFromLogs(logs),
    logs,
    kind: own?.kind ?? null,
  };
}
