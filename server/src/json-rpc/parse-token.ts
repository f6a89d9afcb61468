import { PublicKey } from '@solana/web3.js';
import { TOKEN_2022_ID, TOKEN_ID } from '../../../shared/program/ids';
import { invalidParams } from './errors';
import { ACCOUNT_STATES, Bytes, parseExtensions } from './token-extensions';

// `jsonParsed` for SPL Token and Token-2022 accounts, as a validator answers it: Agave's
// account-decoder (parse_token.rs, parse_token_extension.rs; serde shapes in
// account-decoder-client-types/src/token.rs) over spl-token-2022's `StateWithExtensions::unpack`.
// Only the byte layouts are re-stated here; every rule below names the Rust it follows.
//
// Not reproduced: the confidential-transfer extensions' states (answered as `unparseableExtension`),
// and the interest-bearing / scaled-UI-amount adjustment of `uiAmount` (their extension states are
// shown; amounts are the plain `amount / 10^decimals`).

export const TOKEN_PROGRAM = TOKEN_ID.toBase58();
export const TOKEN_2022_PROGRAM = TOKEN_2022_ID.toBase58();
export const TOKEN_PROGRAMS = [TOKEN_PROGRAM, TOKEN_2022_PROGRAM];
export const isTokenProgram = (owner: string) => TOKEN_PROGRAMS.includes(owner);

const ACCOUNT_LEN = 165; // spl_token_2022::state::Account::LEN, also BASE_ACCOUNT_LENGTH
const MINT_LEN = 82;
const MULTISIG_LEN = 355;
const ACCOUNT_TYPE_MINT = 1;
const ACCOUNT_TYPE_ACCOUNT = 2;

/** The validator's UiTokenAmount (token_amount_to_ui_amount without interest or scaling). */
export interface UiTokenAmount {
  amount: string;
  decimals: number;
  uiAmount: number | null;
  uiAmountString: string;
}

export function tokenAmount(amount: bigint, decimals: number): UiTokenAmount {
  let uiAmountString = amount.toString();
  if (decimals > 0) {
    // real_number_string_trimmed: left-pad to decimals + 1, insert the point, trim zeros, then the point.
    const s = uiAmountString.padStart(decimals + 1, '0');
    uiAmountString = `${s.slice(0, -decimals)}.${s.slice(-decimals)}`.replace(/0+$/, '').replace(/\.$/, '');
  }
  // `amount as f64 / 10^decimals`; None when 10^decimals overflows usize (decimals > 19).
  const uiAmount = decimals <= 19 ? Number(amount) / 10 ** decimals : null;
  return { amount: amount.toString(), decimals, uiAmount, uiAmountString };
}

/**
 * StateWithExtensions::unpack's checks after the base state: nothing more, or zero padding up to
 * byte 165, the account type there, then the TLV data. Null when it does not unpack.
 */
function tlvAfterBase(data: Uint8Array, baseLen: number, accountType: number): Uint8Array | null {
  if (data.length === MULTISIG_LEN || data.length < baseLen) return null;
  if (data.length === baseLen) return new Uint8Array(0);
  if (data.length < ACCOUNT_LEN + 1) return null;
  if (data.subarray(baseLen, ACCOUNT_LEN).some((b) => b !== 0)) return null;
  if (data[ACCOUNT_LEN] !== accountType) return null;
  return data.subarray(ACCOUNT_LEN + 1);
}

export interface TokenAccountState {
  mint: string;
  owner: string;
  amount: bigint;
  delegate: string | null;
  state: (typeof ACCOUNT_STATES)[number];
  isNative: bigint | null;
  delegatedAmount: bigint;
  closeAuthority: string | null;
  tlv: Uint8Array;
}

/** StateWithExtensions::<Account>::unpack (initialized accounts only), or null. */
export function unpackTokenAccount(data: Uint8Array): TokenAccountState | null {
  if (data.length < ACCOUNT_LEN) return null;
  const tlv = tlvAfterBase(data, ACCOUNT_LEN, ACCOUNT_TYPE_ACCOUNT);
  if (!tlv) return null;
  const b = new Bytes(data);
  const delegate = b.coptionKey(72);
  const state = ACCOUNT_STATES[b.u8(108)];
  const isNative = b.coptionU64(109);
  const closeAuthority = b.coptionKey(129);
  if (delegate === undefined || !state || isNative === undefined || closeAuthority === undefined || state === 'uninitialized') return null;
  return { mint: b.key(0), owner: b.key(32), amount: b.u64(64), delegate, state, isNative, delegatedAmount: b.u64(121), closeAuthority, tlv };
}

export interface MintState {
  mintAuthority: string | null;
  supply: bigint;
  decimals: number;
  freezeAuthority: string | null;
  tlv: Uint8Array;
}

/** StateWithExtensions::<Mint>::unpack (initialized mints only), or null. */
export function unpackMint(data: Uint8Array): MintState | null {
  if (data.length < MINT_LEN) return null;
  const tlv = tlvAfterBase(data, MINT_LEN, ACCOUNT_TYPE_MINT);
  if (!tlv) return null;
  const b = new Bytes(data);
  const mintAuthority = b.coptionKey(0);
  const freezeAuthority = b.coptionKey(46);
  if (mintAuthority === undefined || freezeAuthority === undefined || b.u8(45) !== 1) return null;
  return { mintAuthority, supply: b.u64(36), decimals: b.u8(44), freezeAuthority, tlv };
}

/** get_token_account_mint: the mint of anything that is token-account data (Account::valid_account_data), else null. */
export function tokenAccountMint(data: Uint8Array): PublicKey | null {
  const valid =
    (data.length === ACCOUNT_LEN && data[108] !== 0) || (data.length > ACCOUNT_LEN && data.length !== MULTISIG_LEN && data[ACCOUNT_LEN] === ACCOUNT_TYPE_ACCOUNT);
  return valid ? new PublicKey(data.subarray(0, 32)) : null;
}

/** What parsing a token account needs from its mint (SplTokenAdditionalData): the decimals. */
export interface MintData {
  decimals: number;
}

/** get_additional_mint_data: null when the bytes are not a mint. */
export function mintDataOf(data: Uint8Array): MintData | null {
  const m = unpackMint(data);
  return m ? { decimals: m.decimals } : null;
}

export interface ParsedAccount {
  program: 'spl-token' | 'spl-token-2022';
  parsed: { type: 'account' | 'mint' | 'multisig'; info: Record<string, unknown> };
  space: number;
}

/**
 * parse_account_data for the token programs: `{program, parsed: {type, info}, space}`, or null
 * when the data does not parse (the caller then answers base64, as the validator does). A token
 * account needs its mint's data; without it (no such mint) it does not parse either.
 */
export function parseTokenAccountData(owner: string, data: Uint8Array, mint: MintData | null): ParsedAccount | null {
  if (!isTokenProgram(owner)) return null;
  const program = owner === TOKEN_2022_PROGRAM ? 'spl-token-2022' : 'spl-token';
  // The validator builds `parsed` as a serde_json::Value, whose objects keep their keys sorted.
  const wrap = (type: ParsedAccount['parsed']['type'], info: Record<string, unknown>): ParsedAccount => ({ program, parsed: { info: sortKeys(info), type }, space: data.length });

  // Account first, then Mint, then Multisig (parse_token).
  const account = unpackTokenAccount(data);
  if (account) {
    if (!mint) return null; // AdditionalDataMissing
    const extensions = parseExtensions(account.tlv, 'account');
    return wrap('account', {
      // serde skips None options and an empty extension list.
      isNative: account.isNative !== null,
      mint: account.mint,
      owner: account.owner,
      state: account.state,
      tokenAmount: tokenAmount(account.amount, mint.decimals),
      ...(account.delegate ? { delegate: account.delegate, delegatedAmount: tokenAmount(account.delegatedAmount, mint.decimals) } : {}),
      ...(account.isNative !== null ? { rentExemptReserve: tokenAmount(account.isNative, mint.decimals) } : {}),
      ...(account.closeAuthority ? { closeAuthority: account.closeAuthority } : {}),
      ...(extensions.length ? { extensions } : {}),
    });
  }
  const m = unpackMint(data);
  if (m) {
    const extensions = parseExtensions(m.tlv, 'mint');
    return wrap('mint', {
      decimals: m.decimals,
      freezeAuthority: m.freezeAuthority,
      isInitialized: true,
      mintAuthority: m.mintAuthority,
      supply: m.supply.toString(),
      ...(extensions.length ? { extensions } : {}),
    });
  }
  // Multisig::unpack: initialized (is_initialized byte exactly 1).
  if (data.length === MULTISIG_LEN && data[2] === 1) {
    const b = new Bytes(data);
    const signers: string[] = [];
    for (let k = 0; k < 11; k++) {
      const o = 3 + 32 * k;
      if (data.subarray(o, o + 32).some((x) => x !== 0)) signers.push(b.key(o));
    }
    return wrap('multisig', { isInitialized: true, numRequiredSigners: data[0], numValidSigners: data[1], signers });
  }
  return null;
}

function sortKeys<T>(v: T): T {
  if (Array.isArray(v)) return v.map(sortKeys) as T;
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(
    Object.keys(v)
      .sort()
      .map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]),
  ) as T;
}

/**
 * The mint data a token account's jsonParsed needs (get_parsed_token_account): null when `data` is
 * not token-account data, or its mint is missing or not a mint (the account then answers base64).
 */
export async function mintDataFor(data: Uint8Array, read: (k: PublicKey) => Promise<{ data: Uint8Array } | null>): Promise<MintData | null> {
  const mint = tokenAccountMint(data);
  if (!mint) return null;
  const m = await read(mint);
  return m ? mintDataOf(m.data) : null;
}

/**
 * The token accounts a validator's owner/mint queries scan (get_filtered_spl_token_accounts_by_*):
 * SPL Token filters on the 165-byte size, Token-2022 on the token-account-state filter.
 */
export function isTokenAccountData(program: string, data: Uint8Array): boolean {
  return program === TOKEN_PROGRAM ? data.length === ACCOUNT_LEN : tokenAccountMint(data) !== null;
}

/** A mint for the token methods, with the validator's errors (get_mint_owner_and_additional_data). */
export async function readMint(key: PublicKey, read: (k: PublicKey) => Promise<{ owner: string; data: Uint8Array } | null>) {
  const m = await read(key);
  if (!m) throw invalidParams('Invalid param: could not find mint');
  const data = mintDataOf(m.data);
  if (!data) throw invalidParams('Invalid param: Token mint could not be unpacked');
  return { owner: m.owner, ...data };
}

/** getTokenSupply's mint, with the validator's errors. */
export function mintOrThrow(m: { owner: string; data: Uint8Array } | null): MintState {
  if (!m) throw invalidParams('Invalid param: could not find account');
  if (!isTokenProgram(m.owner)) throw invalidParams('Invalid param: not a Token mint');
  const state = unpackMint(m.data);
  if (!state) throw invalidParams('Invalid param: mint could not be unpacked');
  return state;
}

/** getTokenAccountBalance's account, with the validator's errors. */
export function tokenAccountOrThrow(a: { owner: string; data: Uint8Array } | null): TokenAccountState {
  if (!a) throw invalidParams('Invalid param: could not find account');
  const state = isTokenProgram(a.owner) ? unpackTokenAccount(a.data) : null;
  if (!state) throw invalidParams('Invalid param: not a Token account');
  return state;
}
