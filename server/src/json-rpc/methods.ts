import { createHash } from 'node:crypto';
import { Message, PublicKey, SystemProgram, SYSVAR_CLOCK_PUBKEY, Transaction } from '@solana/web3.js';
import bs58 from 'bs58';
import type { Services } from '../services';
import { OPERATOR_RESERVE_LAMPORTS, type EmbeddedChain } from '../services/chain/embedded';
import { ChainError, type AccountSnapshot } from '../services/chain/types';
import { invalidParams, RpcCode, RpcError, transactionError } from './errors';
import { AIRDROP_LIMITS, AirdropLimiter, clientKey, sol } from './faucet';
import { journalDb, LAMPORTS_PER_SIGNATURE, messageFee } from './journal';
import { isTokenAccountData, isTokenProgram, mintDataFor, mintOrThrow, parseTokenAccountData, readMint, tokenAccountMint, tokenAccountOrThrow, tokenAmount, unpackTokenAccount } from './parse-token';
import type { MintData } from './parse-token';

// The validator's answers, method by method, over the embedded chain. Shapes follow Agave's
// rpc.rs / rpc-client-types: `{context, value}` where the real RPC wraps, plain values elsewhere.

// The Agave runtime LiteSVM 1.5 executes with (its binary links solana-program-runtime 4.3.0).
export const SOLANA_CORE_VERSION = '4.3.0';
export const FEATURE_SET = 0;
const SLOTS_PER_EPOCH = 432_000;
const MAX_BASE58_BYTES = 128;
const MAX_MULTIPLE_ACCOUNTS = 100;
const MAX_SIGNATURE_STATUSES = 256;
const MAX_SIGNATURES_FOR_ADDRESS = 1000;
const BLOCKHASH_VALIDITY = 150;
/** u64::MAX, what a validator reports as rentEpoch of rent-exempt accounts; JSON numbers cannot carry it, see index.ts. */
export const RENT_EPOCH_SENTINEL = '__u64_max_rent_epoch__';

type Params = unknown[];
/** Who is calling: the client address (fastify's req.ip, which honours TRUST_PROXY). */
export interface CallContext {
  ip: string;
}
export type Method = (params: Params, ctx: CallContext) => Promise<unknown>;

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function pubkeyParam(v: unknown): PublicKey {
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

function signatureParam(v: unknown): string {
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

function configParam(v: unknown, allowed: string[]): Record<string, unknown> {
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
function accountConfig(v: unknown, allowed: string[]): Record<string, unknown> {
  const cfg = configParam(v, allowed);
  if (cfg.encoding !== undefined && !ACCOUNT_ENCODINGS.includes(cfg.encoding as string))
    throw invalidParams(`Invalid params: unknown variant \`${String(cfg.encoding)}\`, expected one of \`binary\`, \`base58\`, \`base64\`, \`jsonParsed\`, \`base64+zstd\`.`);
  if (cfg.encoding === 'base64+zstd') throw invalidParams('Invalid params: base64+zstd is not supported by this node; use base64.');
  return cfg;
}

function tooMany(params: Params, n: number) {
  if (params.length > n) throw invalidParams(`Invalid params: invalid length ${params.length}, expected ${n === 1 ? 'a tuple of size 1' : `at most ${n} elements`}.`);
}

function u64Param(v: unknown, name: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw invalidParams(`Invalid params: invalid type for ${name}, expected u64.`);
  return v;
}

/** A transaction from base58/base64 text, as Agave's decode_and_deserialize (legacy messages). */
function decodeTransaction(encoded: unknown, encoding: unknown): { bytes: Uint8Array; tx: Transaction } {
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

/** A validator's preflight answer for a signature it has already processed (the status cache hit). */
function alreadyProcessed() {
  return new RpcError(RpcCode.PreflightFailure, `Transaction simulation failed: ${transactionError(6).text}`, {
    accounts: null, err: 'AlreadyProcessed', innerInstructions: null, logs: [], replacementBlockhash: null, returnData: null, unitsConsumed: 0,
  });
}

const perWindow = (ms: number) => (ms === 3_600_000 ? 'per hour' : `per ${Math.round(ms / 60_000)} minutes`);

export function createMethods(svc: Services) {
  const chain = svc.chain as unknown as EmbeddedChain;
  const db = svc.db;
  const jdb = journalDb(db);
  const airdrops = new AirdropLimiter(AIRDROP_LIMITS);
  let airdropQueue: Promise<unknown> = Promise.resolve(); // one airdrop at a time, see requestAirdrop
  const sending = new Set<string>(); // signatures between the replay check and their landing

  /**
   * Whether a signature has already landed: this process's recent signatures (also those whose DB
   * write is not committed yet) and the persisted `chain_transaction` rows (across restarts, and
   * transactions landed before the journal was installed).
   */
  const landed = async (signature: string) =>
    chain.hasRecentSignature(signature) || !!(await db.selectFrom('chain_transaction').select('signature').where('signature', '=', signature).executeTakeFirst());

  const slot = async (): Promise<number> => {
    // The Clock sysvar is the chain's own slot (advanced on every transaction, restored on start).
    const clock = await chain.getAccountInfo(SYSVAR_CLOCK_PUBKEY);
    if (clock && clock.data.length >= 8) return Number(Buffer.from(clock.data).readBigUInt64LE(0));
    const meta = await db.selectFrom('chain_meta').select('value').where('key', '=', 'slot').executeTakeFirst();
    return Number(meta?.value ?? 0);
  };

  const context = async (cfg: Record<string, unknown> = {}) => {
    const s = await slot();
    if (typeof cfg.minContextSlot === 'number' && cfg.minContextSlot > s) {
      throw new RpcError(RpcCode.MinContextSlotNotReached, 'Minimum context slot has not been reached', { contextSlot: s });
    }
    return { slot: s, apiVersion: SOLANA_CORE_VERSION };
  };

  const wrap = async (cfg: Record<string, unknown>, value: unknown) => ({ context: await context(cfg), value });

  /** An account as the RPC answers it; `mint` is what jsonParsed needs for a token account (see `encode`). */
  function encodeAccount(acc: AccountSnapshot | null, cfg: Record<string, unknown>, mint: MintData | null = null) {
    if (!acc) return null;
    const encoding = (cfg.encoding as string | undefined) ?? 'binary';
    let data = Buffer.from(acc.data);
    const slice = cfg.dataSlice;
    if (slice !== undefined) {
      if (!isObj(slice) || typeof slice.offset !== 'number' || typeof slice.length !== 'number') throw invalidParams('Invalid params: invalid dataSlice, expected {offset, length}.');
      if (encoding === 'jsonParsed') throw new RpcError(RpcCode.InvalidRequest, 'Sliced account data can only be encoded using binary (base 58) or base64 encoding.');
      data = data.subarray(Math.min(slice.offset, data.length), Math.min(slice.offset + slice.length, data.length));
    }
    let encoded: unknown;
    switch (encoding) {
      case 'binary':
      case 'base58':
        if (data.length > MAX_BASE58_BYTES) throw new RpcError(RpcCode.InvalidRequest, `Encoded binary (base 58) data should be less than ${MAX_BASE58_BYTES} bytes, please use Base64 encoding.`);
        encoded = encoding === 'binary' ? bs58.encode(data) : [bs58.encode(data), 'base58'];
        break;
      case 'base64':
        encoded = [data.toString('base64'), 'base64'];
        break;
      case 'jsonParsed': // token programs parse (./parse-token.ts); anything else falls back to base64, as on a validator
        encoded = parseTokenAccountData(acc.owner, acc.data, mint) ?? [data.toString('base64'), 'base64'];
        break;
      case 'base64+zstd':
        throw invalidParams('Invalid params: base64+zstd is not supported by this node; use base64.');
      default:
        throw invalidParams(`Invalid params: unknown variant \`${encoding}\`, expected one of \`binary\`, \`base64\`, \`jsonParsed\`, \`base58\`, \`base64+zstd\`.`);
    }
    return { data: encoded, executable: acc.executable, lamports: Number(acc.lamports), owner: acc.owner, rentEpoch: RENT_EPOCH_SENTINEL, space: acc.data.length };
  }

  const account = (k: PublicKey) => chain.getAccountInfo(k);
  /** encodeAccount, with a token account's mint looked up for jsonParsed (`read` defaults to the chain). */
  const encode = async (acc: AccountSnapshot | null, cfg: Record<string, unknown>, read = account) =>
    encodeAccount(acc, cfg, acc && cfg.encoding === 'jsonParsed' && isTokenProgram(acc.owner) ? await mintDataFor(acc.data, read) : null);
  const parsed = (e: ReturnType<typeof encodeAccount>) => !Array.isArray(e?.data); // get_parsed_token_accounts leaves out the others
  const mintFor = (k: PublicKey) => readMint(k, account);
  const ACCOUNT_CONFIG = ['commitment', 'encoding', 'dataSlice', 'minContextSlot'];

  async function txStatusRows(signatures: string[]) {
    if (!signatures.length) return new Map<string, { slot: number; status: string; error: string | null }>();
    const rows = await db.selectFrom('chain_transaction').select(['signature', 'slot', 'status', 'error']).where('signature', 'in', signatures).execute();
    return new Map(rows.map((r) => [r.signature, r]));
  }

  const errJson = (row: { status: string; error: string | null }) => (row.status === 'success' ? null : row.error ? safeJson(row.error) : 'GenericError');

  function parseSystemInstruction(keys: string[], accounts: number[], data: Buffer) {
    const a = (i: number) => keys[accounts[i]];
    if (data.length >= 12 && data.readUInt32LE(0) === 2) return { type: 'transfer', info: { destination: a(1), lamports: Number(data.readBigUInt64LE(4)), source: a(0) } };
    if (data.length >= 52 && data.readUInt32LE(0) === 0)
      return { type: 'createAccount', info: { lamports: Number(data.readBigUInt64LE(4)), newAccount: a(1), owner: new PublicKey(data.subarray(20, 52)).toBase58(), source: a(0), space: Number(data.readBigUInt64LE(12)) } };
    return null;
  }

  async function getTransaction(params: Params) {
    tooMany(params, 2);
    const signature = signatureParam(params[0]);
    const cfg = typeof params[1] === 'string' ? { encoding: params[1] } : configParam(params[1], ['commitment', 'encoding', 'maxSupportedTransactionVersion']);
    if (cfg.commitment === 'processed') throw invalidParams('Method does not support commitment below `confirmed`');
    const encoding = (cfg.encoding as string | undefined) ?? 'json';
    if (!['json', 'jsonParsed', 'base64', 'base58'].includes(encoding)) throw invalidParams(`Invalid params: unknown variant \`${encoding}\`, expected one of \`binary\`, \`base64\`, \`base58\`, \`json\`, \`jsonParsed\`.`);
    const j = await jdb.selectFrom('rpc_transaction').selectAll().where('signature', '=', signature).executeTakeFirst();
    // Transactions landed before the journal was installed have no stored message: the validator
    // answers null for a transaction outside its ledger history, and so do we.
    if (!j) return null;
    const row = await db.selectFrom('chain_transaction').select(['logs', 'compute_units', 'status', 'error']).where('signature', '=', signature).executeTakeFirst();
    const wire = new Uint8Array(j.wire);
    const tx = Transaction.from(wire);
    const msg = tx.compileMessage();
    const keys = msg.accountKeys.map((k) => k.toBase58());
    const err = row ? errJson(row) : j.err ? safeJson(j.err) : null;
    const meta = {
      err,
      status: err === null ? { Ok: null } : { Err: err },
      fee: j.fee,
      preBalances: JSON.parse(j.pre_balances),
      postBalances: JSON.parse(j.post_balances),
      innerInstructions: null, // not recorded by the embedded chain
      logMessages: row ? JSON.parse(row.logs) : null,
      preTokenBalances: [],
      postTokenBalances: [],
      rewards: [],
      loadedAddresses: { writable: [], readonly: [] },
      computeUnitsConsumed: row?.compute_units ?? undefined,
    };
    let transaction: unknown;
    if (encoding === 'base64') transaction = [Buffer.from(wire).toString('base64'), 'base64'];
    else if (encoding === 'base58') transaction = [bs58.encode(wire), 'base58'];
    else if (encoding === 'json') {
      transaction = {
        signatures: tx.signatures.map((s) => (s.signature ? bs58.encode(s.signature) : bs58.encode(new Uint8Array(64)))),
        message: {
          accountKeys: keys,
          header: msg.header,
          instructions: msg.instructions.map((i) => ({ accounts: i.accounts, data: i.data, programIdIndex: i.programIdIndex, stackHeight: null })),
          recentBlockhash: msg.recentBlockhash,
        },
      };
    } else {
      transaction = {
        signatures: tx.signatures.map((s) => (s.signature ? bs58.encode(s.signature) : bs58.encode(new Uint8Array(64)))),
        message: {
          accountKeys: keys.map((pubkey, i) => ({ pubkey, signer: msg.isAccountSigner(i), source: 'transaction', writable: msg.isAccountWritable(i) })),
          instructions: msg.instructions.map((i) => {
            const programId = keys[i.programIdIndex];
            const data = Buffer.from(bs58.decode(i.data));
            const parsed = programId === SystemProgram.programId.toBase58() ? parseSystemInstruction(keys, i.accounts, data) : null;
            return parsed ? { parsed, program: 'system', programId, stackHeight: null } : { accounts: i.accounts.map((a) => keys[a]), data: i.data, programId, stackHeight: null };
          }),
          recentBlockhash: msg.recentBlockhash,
        },
      };
    }
    return {
      blockTime: j.block_time,
      meta,
      slot: j.slot,
      transaction,
      ...(cfg.maxSupportedTransactionVersion !== undefined ? { version: 'legacy' } : {}),
    };
  }

  function simulationValue(sim: ReturnType<EmbeddedChain['simulateWire']>, extra: Record<string, unknown> = {}) {
    const err = sim.err === null ? null : transactionError(sim.err).json;
    // No meta: refused before it ran (an expired blockhash), as a validator answers with empty logs.
    const rd = sim.meta?.returnData();
    const rdProgram = rd?.programId();
    return {
      accounts: null,
      err,
      innerInstructions: null,
      loadedAccountsDataSize: undefined,
      logs: sim.meta?.logs() ?? [],
      replacementBlockhash: null,
      returnData: rd && rdProgram && (rdProgram.some((b) => b !== 0) || rd.data().length) ? { programId: new PublicKey(rdProgram).toBase58(), data: [Buffer.from(rd.data()).toString('base64'), 'base64'] } : null,
      unitsConsumed: sim.meta ? Number(sim.meta.computeUnitsConsumed()) : 0,
      ...extra,
    };
  }

  const methods: Record<string, Method> = {
    async getHealth(params) {
      tooMany(params, 0);
      return 'ok';
    },
    async getVersion(params) {
      tooMany(params, 0);
      return { 'feature-set': FEATURE_SET, 'solana-core': SOLANA_CORE_VERSION };
    },
    async getIdentity() {
      return { identity: chain.operator.toBase58() };
    },
    async getGenesisHash() {
      // Stable per data directory: derived from the registry's first transaction (the chain's genesis).
      const first = await db.selectFrom('chain_transaction').select('signature').orderBy('slot').orderBy('created_at').limit(1).executeTakeFirst();
      return bs58.encode(createHash('sha256').update(`attesta-embedded:${chain.programId.toBase58()}:${first?.signature ?? ''}`).digest());
    },
    async getSlot(params) {
      const cfg = configParam(params[0], ['commitment', 'minContextSlot']);
      return (await context(cfg)).slot;
    },
    async getBlockHeight(params) {
      const cfg = configParam(params[0], ['commitment', 'minContextSlot']);
      return (await context(cfg)).slot; // no skipped slots: height = slot
    },
    async getTransactionCount(params) {
      configParam(params[0], ['commitment', 'minContextSlot']);
      const r = await db.selectFrom('chain_transaction').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      return Number(r.n);
    },
    async getFirstAvailableBlock() {
      return 0;
    },
    async getEpochSchedule() {
      return { firstNormalEpoch: 0, firstNormalSlot: 0, leaderScheduleSlotOffset: SLOTS_PER_EPOCH, slotsPerEpoch: SLOTS_PER_EPOCH, warmup: false };
    },
    async getEpochInfo(params, call) {
      const cfg = configParam(params[0], ['commitment', 'minContextSlot']);
      const s = (await context(cfg)).slot;
      const n = await methods.getTransactionCount([], call);
      return { absoluteSlot: s, blockHeight: s, epoch: Math.floor(s / SLOTS_PER_EPOCH), slotIndex: s % SLOTS_PER_EPOCH, slotsInEpoch: SLOTS_PER_EPOCH, transactionCount: n };
    },
    async getRecentPerformanceSamples() {
      return [];
    },
    async getRecentPrioritizationFees() {
      return [];
    },
    async getVoteAccounts() {
      return { current: [], delinquent: [] };
    },
    async getClusterNodes() {
      return [];
    },
    async getLatestBlockhash(params) {
      const cfg = configParam(params[0], ['commitment', 'minContextSlot']);
      const ctx = await context(cfg);
      return { context: ctx, value: { blockhash: await chain.latestBlockhash(), lastValidBlockHeight: ctx.slot + BLOCKHASH_VALIDITY } };
    },
    async isBlockhashValid(params) {
      tooMany(params, 2);
      if (typeof params[0] !== 'string') throw invalidParams('Invalid params: expected a blockhash string.');
      const cfg = configParam(params[1], ['commitment', 'minContextSlot']);
      return wrap(cfg, chain.isBlockhashValid(params[0]));
    },
    async getFeeForMessage(params) {
      tooMany(params, 2);
      const cfg = configParam(params[1], ['commitment', 'minContextSlot']);
      if (typeof params[0] !== 'string') throw invalidParams('Invalid params: expected a base64 message.');
      let fee: number | null;
      try {
        const m = Message.from(Buffer.from(params[0], 'base64'));
        fee = chain.isBlockhashValid(m.recentBlockhash) ? messageFee(Transaction.populate(m)) : null;
      } catch (e) {
        throw invalidParams(`invalid message: ${e instanceof Error ? e.message : String(e)}`);
      }
      return wrap(cfg, fee);
    },
    async getMinimumBalanceForRentExemption(params) {
      tooMany(params, 2);
      const len = u64Param(params[0] ?? 0, 'data length');
      configParam(params[1], ['commitment']);
      return (128 + len) * 3480 * 2; // Rent::default(): 3480 lamports/byte-year, 2 years exempt
    },
    async getBalance(params) {
      tooMany(params, 2);
      const key = pubkeyParam(params[0]);
      const cfg = configParam(params[1], ['commitment', 'minContextSlot']);
      return wrap(cfg, Number((await account(key))?.lamports ?? 0n));
    },
    async getAccountInfo(params) {
      tooMany(params, 2);
      const key = pubkeyParam(params[0]);
      const cfg = accountConfig(params[1], ACCOUNT_CONFIG);
      return wrap(cfg, await encode(await account(key), cfg));
    },
    async getMultipleAccounts(params) {
      tooMany(params, 2);
      if (!Array.isArray(params[0])) throw invalidParams('Invalid params: invalid type: expected a sequence of pubkeys.');
      if (params[0].length > MAX_MULTIPLE_ACCOUNTS) throw invalidParams(`Too many inputs provided; max ${MAX_MULTIPLE_ACCOUNTS}`);
      const keys = params[0].map(pubkeyParam);
      const cfg = accountConfig(params[1], ACCOUNT_CONFIG);
      const out = [];
      for (const k of keys) out.push(await encode(await account(k), cfg));
      return wrap(cfg, out);
    },
    async getProgramAccounts(params) {
      tooMany(params, 2);
      const program = pubkeyParam(params[0]);
      const cfg = accountConfig(params[1], [...ACCOUNT_CONFIG, 'filters', 'withContext', 'sortResults']);
      const filters = cfg.filters === undefined || cfg.filters === null ? [] : cfg.filters;
      if (!Array.isArray(filters)) throw invalidParams('Invalid params: filters must be an array.');
      if (filters.length > 4) throw invalidParams('Too many filters provided; max 4');
      const checks = filters.map(filterCheck);
      const ctx = await context(cfg);
      // Every non-executable account of the embedded chain is in chain_account (owner column);
      // candidates come from there and are re-read live so the answer is the chain's current state.
      const rows = await db.selectFrom('chain_account').select('pubkey').where('owner', '=', program.toBase58()).orderBy('pubkey').execute();
      const tokenParsed = cfg.encoding === 'jsonParsed' && isTokenProgram(program.toBase58());
      const out = [];
      for (const r of rows) {
        const acc = await account(new PublicKey(r.pubkey));
        if (!acc || acc.owner !== program.toBase58() || !checks.every((c) => c(acc.data))) continue;
        const encoded = await encode(acc, cfg);
        if (tokenParsed && !parsed(encoded)) continue;
        out.push({ account: encoded, pubkey: r.pubkey });
      }
      return cfg.withContext ? { context: ctx, value: out } : out;
    },
    async getTokenAccountsByOwner(params) {
      tooMany(params, 3);
      const owner = pubkeyParam(params[0]);
      const sel = params[1];
      if (!isObj(sel) || (sel.mint === undefined) === (sel.programId === undefined)) throw invalidParams('Invalid params: expected {mint} or {programId}.');
      const cfg = accountConfig(params[2], ACCOUNT_CONFIG);
      const mint = sel.mint !== undefined ? pubkeyParam(sel.mint) : null;
      // get_token_program_id_and_mint: the mint's own program, or the program asked for.
      const program = mint ? (await mintFor(mint)).owner : pubkeyParam(sel.programId).toBase58();
      if (!isTokenProgram(program)) throw invalidParams(mint ? 'Invalid param: not a Token mint' : 'Invalid param: unrecognized Token program id');
      const ctx = await context(cfg);
      const rows = await db.selectFrom('chain_account').select('pubkey').where('owner', '=', program).orderBy('pubkey').execute();
      const out = [];
      for (const r of rows) {
        const acc = await account(new PublicKey(r.pubkey));
        // Token account: mint(0..32) owner(32..64).
        if (!acc || acc.owner !== program || !isTokenAccountData(program, acc.data)) continue;
        if (!Buffer.from(acc.data.subarray(32, 64)).equals(owner.toBuffer())) continue;
        if (mint && !Buffer.from(acc.data.subarray(0, 32)).equals(mint.toBuffer())) continue;
        const encoded = await encode(acc, cfg);
        if (cfg.encoding === 'jsonParsed' && !parsed(encoded)) continue;
        out.push({ account: encoded, pubkey: r.pubkey });
      }
      return { context: ctx, value: out };
    },
    async getTokenSupply(params) {
      tooMany(params, 2);
      const mint = pubkeyParam(params[0]);
      const cfg = configParam(params[1], ['commitment']);
      const state = mintOrThrow(await account(mint));
      return wrap(cfg, tokenAmount(state.supply, state.decimals));
    },
    async getTokenAccountBalance(params) {
      tooMany(params, 2);
      const key = pubkeyParam(params[0]);
      const cfg = configParam(params[1], ['commitment']);
      const state = tokenAccountOrThrow(await account(key));
      return wrap(cfg, tokenAmount(state.amount, (await mintFor(new PublicKey(state.mint))).decimals));
    },
    async getTokenLargestAccounts(params) {
      tooMany(params, 2);
      const mint = pubkeyParam(params[0]);
      const cfg = configParam(params[1], ['commitment']);
      const { owner, decimals } = await mintFor(mint);
      if (!isTokenProgram(owner)) throw invalidParams('Invalid param: not a Token mint');
      const rows = await db.selectFrom('chain_account').select('pubkey').where('owner', '=', owner).execute();
      const holders: { address: PublicKey; amount: bigint }[] = [];
      for (const r of rows) {
        const a = await account(new PublicKey(r.pubkey));
        if (!a || a.owner !== owner || !isTokenAccountData(owner, a.data)) continue;
        if (!Buffer.from(a.data.subarray(0, 32)).equals(mint.toBuffer())) continue;
        holders.push({ address: new PublicKey(r.pubkey), amount: unpackTokenAccount(a.data)?.amount ?? 0n });
      }
      // Largest first; equal amounts by address bytes, also descending (the validator's heap of (amount, address)).
      holders.sort((x, y) => (y.amount > x.amount ? 1 : y.amount < x.amount ? -1 : Buffer.compare(y.address.toBuffer(), x.address.toBuffer())));
      return wrap(cfg, holders.slice(0, 20).map((h) => ({ address: h.address.toBase58(), ...tokenAmount(h.amount, decimals) })));
    },
    async getSupply(params) {
      const cfg = configParam(params[0], ['commitment', 'excludeNonCirculatingAccountsList']);
      const rows = await db.selectFrom('chain_account').select('lamports').execute();
      const total = rows.reduce((n, r) => n + BigInt(r.lamports), 0n);
      return wrap(cfg, { circulating: Number(total), nonCirculating: 0, nonCirculatingAccounts: [], total: Number(total) });
    },
    async getSignatureStatuses(params) {
      tooMany(params, 2);
      if (!Array.isArray(params[0])) throw invalidParams('Invalid params: invalid type: expected a sequence of signatures.');
      if (params[0].length > MAX_SIGNATURE_STATUSES) throw invalidParams(`Too many inputs provided; max ${MAX_SIGNATURE_STATUSES}`);
      const sigs = params[0].map(signatureParam);
      configParam(params[1], ['searchTransactionHistory']);
      const rows = await txStatusRows(sigs);
      const ctx = await context();
      return {
        context: ctx,
        value: sigs.map((s) => {
          const r = rows.get(s);
          if (!r) return null;
          const err = errJson(r);
          // Landed and persisted in one step: there is no fork to wait out.
          return { confirmationStatus: 'finalized', confirmations: null, err, slot: r.slot, status: err === null ? { Ok: null } : { Err: err } };
        }),
      };
    },
    getTransaction,
    async getSignaturesForAddress(params) {
      tooMany(params, 2);
      const key = pubkeyParam(params[0]);
      const cfg = configParam(params[1], ['commitment', 'minContextSlot', 'limit', 'before', 'until']);
      if (cfg.commitment === 'processed') throw invalidParams('Method does not support commitment below `confirmed`');
      const limit = cfg.limit === undefined ? MAX_SIGNATURES_FOR_ADDRESS : u64Param(cfg.limit, 'limit');
      if (limit < 1 || limit > MAX_SIGNATURES_FOR_ADDRESS) throw invalidParams(`Invalid limit; max ${MAX_SIGNATURES_FOR_ADDRESS}`);
      await context(cfg);
      let q = jdb
        .selectFrom('rpc_transaction_account as a')
        .innerJoin('rpc_transaction as t', 't.signature', 'a.signature')
        .select(['a.signature', 'a.slot', 't.block_time', 't.err'])
        .where('a.pubkey', '=', key.toBase58());
      // Newest first; within a slot by signature (one transaction per slot here).
      const bound = async (sig: unknown) => {
        const s = signatureParam(sig);
        return jdb.selectFrom('rpc_transaction').select(['slot', 'signature']).where('signature', '=', s).executeTakeFirst();
      };
      if (cfg.before !== undefined) {
        const b = await bound(cfg.before);
        if (!b) return [];
        q = q.where((eb) => eb.or([eb('a.slot', '<', b.slot), eb.and([eb('a.slot', '=', b.slot), eb('a.signature', '<', b.signature)])]));
      }
      if (cfg.until !== undefined) {
        const u = await bound(cfg.until);
        if (u) q = q.where((eb) => eb.or([eb('a.slot', '>', u.slot), eb.and([eb('a.slot', '=', u.slot), eb('a.signature', '>', u.signature)])]));
      }
      const rows = await q.orderBy('a.slot', 'desc').orderBy('a.signature', 'desc').limit(limit).execute();
      const statuses = await txStatusRows(rows.map((r) => r.signature));
      return rows.map((r) => {
        const st = statuses.get(r.signature);
        return { blockTime: r.block_time, confirmationStatus: 'finalized', err: st ? errJson(st) : r.err ? safeJson(r.err) : null, memo: null, signature: r.signature, slot: r.slot };
      });
    },
    async getBlockTime(params) {
      tooMany(params, 1);
      const s = u64Param(params[0], 'slot');
      const j = await jdb.selectFrom('rpc_transaction').select('block_time').where('slot', '=', s).executeTakeFirst();
      if (j) return j.block_time;
      const t = await db.selectFrom('chain_transaction').select('created_at').where('slot', '=', s).executeTakeFirst();
      if (t) return Math.floor(Date.parse(t.created_at) / 1000);
      throw new RpcError(RpcCode.BlockNotAvailable, `Block not available for slot ${s}`);
    },
    async simulateTransaction(params) {
      tooMany(params, 2);
      const cfg = configParam(params[1], ['sigVerify', 'replaceRecentBlockhash', 'commitment', 'encoding', 'accounts', 'minContextSlot', 'innerInstructions']);
      if (cfg.sigVerify && cfg.replaceRecentBlockhash) throw invalidParams('sigVerify may not be used with replaceRecentBlockhash');
      const { bytes, tx } = decodeTransaction(params[0], cfg.encoding);
      const ctx = await context(cfg);
      // A validator's simulation checks its status cache: a landed transaction is not run again. With
      // sigVerify the signature binds the message, so the landed signature identifies it.
      if (cfg.sigVerify === true && tx.signature && tx.verifySignatures(true) && (await landed(bs58.encode(tx.signature)))) {
        const ac = cfg.accounts;
        // Nothing ran, so there is no post-simulation state: each requested account is null.
        const accounts = isObj(ac) && Array.isArray(ac.addresses) ? ac.addresses.map(pubkeyParam).map(() => null) : null;
        return { context: ctx, value: { accounts, err: 'AlreadyProcessed', innerInstructions: null, logs: [], replacementBlockhash: null, returnData: null, unitsConsumed: 0 } };
      }
      const sim = chain.simulateWire(bytes, { sigVerify: cfg.sigVerify === true, replaceRecentBlockhash: cfg.replaceRecentBlockhash === true });
      let accounts: unknown = null;
      if (cfg.accounts !== undefined && cfg.accounts !== null) {
        const ac = cfg.accounts;
        if (!isObj(ac) || !Array.isArray(ac.addresses)) throw invalidParams('Invalid params: accounts must be {addresses, encoding}.');
        const post = new Map((sim.postAccounts ?? []).map((a) => [String(a.address), a]));
        // The state after the simulation (a token account's mint too), else the chain's.
        const read = async (addr: PublicKey): Promise<AccountSnapshot | null> => {
          const p = post.get(addr.toBase58());
          return p ? { pubkey: addr.toBase58(), owner: String(p.programAddress), lamports: BigInt(p.lamports), data: new Uint8Array(p.data), executable: p.executable } : account(addr);
        };
        accounts = [];
        for (const addr of ac.addresses.map(pubkeyParam)) (accounts as unknown[]).push(await encode(await read(addr), { encoding: ac.encoding ?? 'base64' }, read));
      }
      const replacementBlockhash = cfg.replaceRecentBlockhash ? { blockhash: await chain.latestBlockhash(), lastValidBlockHeight: ctx.slot + BLOCKHASH_VALIDITY } : null;
      return { context: ctx, value: simulationValue(sim, { accounts, replacementBlockhash }) };
    },
    async sendTransaction(params) {
      tooMany(params, 2);
      const cfg = configParam(params[1], ['skipPreflight', 'preflightCommitment', 'encoding', 'maxRetries', 'minContextSlot']);
      const { bytes, tx } = decodeTransaction(params[0], cfg.encoding);
      if (!tx.signature || !tx.verifySignatures(true)) throw new RpcError(RpcCode.SignatureVerificationFailure, 'Transaction signature verification failure');
      await context(cfg);
      // Refuse a replay before anything runs, as a validator's status cache does (LiteSVM's own history
      // is empty after a restart while the blockhash is the same). `sending` covers a copy sent while
      // the first is between this check and its landing; skipPreflight changes nothing here.
      const signature = bs58.encode(tx.signature);
      if (sending.has(signature)) throw alreadyProcessed();
      sending.add(signature);
      try {
        if (await landed(signature)) throw alreadyProcessed();
        // The embedded chain only keeps transactions that succeed (a failed one would leave fees
        // unpersisted), so the preflight always runs; skipPreflight cannot land a failing transaction.
        const sim = chain.simulateWire(bytes);
        if (sim.err !== null) {
          const { text } = transactionError(sim.err);
          throw new RpcError(RpcCode.PreflightFailure, `Transaction simulation failed: ${text}`, simulationValue(sim));
        }
        const receipt = await chain.sendSignedTransaction(tx, { kind: 'rpc_send' });
        return receipt.signature;
      } catch (e) {
        if (e instanceof ChainError) {
          const custom = e.code !== null ? { InstructionError: [0, { Custom: e.code }] } : e.message;
          throw new RpcError(RpcCode.PreflightFailure, `Transaction simulation failed: ${e.message}`, {
            accounts: null, err: custom, innerInstructions: null, logs: e.logs, replacementBlockhash: null, returnData: null, unitsConsumed: 0,
          });
        }
        throw e;
      } finally {
        sending.delete(signature);
      }
    },
    async requestAirdrop(params, call) {
      tooMany(params, 3);
      const to = pubkeyParam(params[0]);
      const lamports = u64Param(params[1], 'lamports');
      configParam(params[2], ['commitment', 'recentBlockhash']);
      const L = AIRDROP_LIMITS;
      if (lamports === 0) throw new RpcError(RpcCode.InvalidRequest, 'Invalid request: airdrop amount must be at least 1 lamport');
      if (lamports > L.maxLamportsPerRequest)
        throw new RpcError(RpcCode.InvalidRequest, `Invalid request: airdrop request too large; req: ${sol(lamports)}, cap: ${sol(L.maxLamportsPerRequest)} (at most ${L.maxLamportsPerRequest} lamports a request)`);
      // One airdrop at a time (they are rare): the balance read, the reserve and limit checks and the
      // transfer cannot interleave with another request's, so a burst cannot pass the same check twice.
      const run = airdropQueue.then(() => airdrop(to, lamports, clientKey(call.ip)));
      airdropQueue = run.catch(() => undefined);
      return run;
    },
  };

  /** requestAirdrop after its parameters are checked; runs alone (airdropQueue). */
  async function airdrop(to: PublicKey, lamports: number, client: string) {
    const L = AIRDROP_LIMITS;
    const op = (await account(chain.operator))?.lamports ?? 0n;
    if (op - BigInt(lamports) - BigInt(LAMPORTS_PER_SIGNATURE) < OPERATOR_RESERVE_LAMPORTS)
      throw new RpcError(RpcCode.Internal, `Internal error: the airdrop faucet has run dry (the operator keeps ${sol(Number(OPERATOR_RESERVE_LAMPORTS))} for the platform’s transaction fees)`);
    const grant = airdrops.take(client, lamports);
    if (!grant.ok) {
      const window = perWindow(L.windowMs);
      const why =
        grant.scope === 'ip'
          ? `each client address may receive ${sol(L.perClient.lamports)} in at most ${L.perClient.requests} airdrops ${window} (received ${sol(grant.received)} in ${grant.count}; requested ${sol(lamports)})`
          : `the faucet gives at most ${sol(L.global.lamports)} in ${L.global.requests} airdrops ${window} to all clients together`;
      throw new RpcError(RpcCode.TooManyRequests, `airdrop request limit reached: ${why}; try again in ${grant.retryAfter} seconds`, { retryAfter: grant.retryAfter, scope: grant.scope });
    }
    try {
      // A real transfer from the operator (the embedded faucet), landed and persisted like any other.
      const receipt = await svc.chain.sendTransaction(new Transaction().add(SystemProgram.transfer({ fromPubkey: chain.operator, toPubkey: to, lamports })), [], { kind: 'airdrop' });
      return receipt.signature;
    } catch (e) {
      grant.release(); // nothing was given
      throw e;
    }
  }
  return { methods, encodeAccount };
}

function safeJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return s;
  }
}

/** One getProgramAccounts filter (Agave's RpcFilterType) → a predicate on account data. */
function filterCheck(f: unknown): (data: Uint8Array) => boolean {
  if (!isObj(f)) throw invalidParams('Invalid params: invalid filter.');
  if ('dataSize' in f) {
    if (typeof f.dataSize !== 'number' || !Number.isInteger(f.dataSize) || f.dataSize < 0) throw invalidParams('Invalid params: dataSize must be a u64.');
    const n = f.dataSize;
    return (d) => d.length === n;
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
    return (d) => d.length >= off + bytes.length && bytes.every((b, i) => d[off + i] === b);
  }
  if ('tokenAccountState' in f) return (d) => tokenAccountMint(d) !== null; // Account::valid_account_data
  throw invalidParams('Invalid params: unknown filter; expected dataSize, memcmp or tokenAccountState.');
}
