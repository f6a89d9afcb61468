import { SYSVAR_CLOCK_PUBKEY, type PublicKey } from '@solana/web3.js';
import bs58 from 'bs58';
import type { Services } from '../../services';
import type { EmbeddedChain } from '../../services/chain/embedded';
import type { AccountSnapshot } from '../../services/chain/types';
import { invalidParams, RpcCode, RpcError } from '../errors';
import type { AnswerBudget } from '../limits';
import { isObj, safeJson, type Params } from '../params';
import { isTokenProgram, mintDataFor, parseTokenAccountData, readMint, type MintData } from '../parse-token';

// What every family of methods shares: the embedded chain and its database, the slot and context
// of an answer, and accounts encoded as the validator encodes them.

// The Agave runtime LiteSVM 1.5 executes with (its binary links solana-program-runtime 4.3.0).
export const SOLANA_CORE_VERSION = '4.3.0';
export const FEATURE_SET = 0;
export const SLOTS_PER_EPOCH = 432_000;
const MAX_BASE58_BYTES = 128;
export const BLOCKHASH_VALIDITY = 150;
/** u64::MAX, what a validator reports as rentEpoch of rent-exempt accounts; JSON numbers cannot carry it, see ../index.ts. */
export const RENT_EPOCH_SENTINEL = '__u64_max_rent_epoch__';
export const ACCOUNT_CONFIG = ['commitment', 'encoding', 'dataSlice', 'minContextSlot'];

/** Who is calling: the client address (fastify's req.ip, which honours TRUST_PROXY), and what is left of its request's answer budget. */
export interface CallContext {
  ip: string;
  budget: AnswerBudget;
}
export type Method = (params: Params, ctx: CallContext) => Promise<unknown>;

export type RpcEnv = ReturnType<typeof createRpcEnv>;

/** The least an account's data takes in the answer (base64 of what dataSlice leaves; jsonParsed: the raw size). */
function encodedDataLength(acc: AccountSnapshot, cfg: Record<string, unknown>): number {
  const slice = cfg.dataSlice;
  let n = acc.data.length;
  if (isObj(slice) && typeof slice.offset === 'number' && typeof slice.length === 'number') n = Math.max(0, Math.min(slice.offset + slice.length, n) - Math.min(slice.offset, n));
  return cfg.encoding === 'jsonParsed' ? n : Math.ceil(n / 3) * 4;
}

export function createRpcEnv(svc: Services) {
  const chain = svc.chain as unknown as EmbeddedChain;
  const db = svc.db;

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
  /**
   * encodeAccount, with a token account's mint looked up for jsonParsed (`read` defaults to the chain).
   * With a budget, an account whose encoded data alone could not fit is refused before it is encoded.
   */
  const encode = async (acc: AccountSnapshot | null, cfg: Record<string, unknown>, read = account, budget?: AnswerBudget) => {
    if (acc && budget) budget.expect(encodedDataLength(acc, cfg));
    return encodeAccount(acc, cfg, acc && cfg.encoding === 'jsonParsed' && isTokenProgram(acc.owner) ? await mintDataFor(acc.data, read) : null);
  };
  const parsed = (e: ReturnType<typeof encodeAccount>) => !Array.isArray(e?.data); // get_parsed_token_accounts leaves out the others
  const mintFor = (k: PublicKey) => readMint(k, account);

  async function txStatusRows(signatures: string[]) {
    if (!signatures.length) return new Map<string, { slot: number; status: string; error: string | null }>();
    const rows = await db.selectFrom('chain_transaction').select(['signature', 'slot', 'status', 'error']).where('signature', 'in', signatures).execute();
    return new Map(rows.map((r) => [r.signature, r]));
  }

  const errJson = (row: { status: string; error: string | null }) => (row.status === 'success' ? null : row.error ? safeJson(row.error) : 'GenericError');

  return { svc, chain, db, landed, slot, context, wrap, encodeAccount, account, encode, parsed, mintFor, txStatusRows, errJson };
}
