import { PublicKey } from '@solana/web3.js';

// Token-2022 extensions as Agave's account-decoder shows them (parse_token_extension.rs): the TLV
// entries after a mint's or an account's base state, each by its ExtensionType name, with its state
// where the layout is fixed (./parse-token.ts unpacks the base states).

/** Little-endian reads over one account's bytes; `null` from a reader means "does not unpack". */
export class Bytes {
  constructor(readonly d: Uint8Array) {}
  u8 = (o: number) => this.d[o];
  u16 = (o: number) => this.d[o] | (this.d[o + 1] << 8);
  u32 = (o: number) => Buffer.from(this.d.buffer, this.d.byteOffset + o, 4).readUInt32LE(0);
  u64 = (o: number) => Buffer.from(this.d.buffer, this.d.byteOffset + o, 8).readBigUInt64LE(0);
  i64 = (o: number) => Buffer.from(this.d.buffer, this.d.byteOffset + o, 8).readBigInt64LE(0);
  i16 = (o: number) => Buffer.from(this.d.buffer, this.d.byteOffset + o, 2).readInt16LE(0);
  f64 = (o: number) => Buffer.from(this.d.buffer, this.d.byteOffset + o, 8).readDoubleLE(0);
  key = (o: number) => new PublicKey(this.d.subarray(o, o + 32)).toBase58();
  /** OptionalNonZeroPubkey: all zeros is None. */
  optKey = (o: number) => (this.d.subarray(o, o + 32).some((b) => b !== 0) ? this.key(o) : null);
  /** COption<Pubkey> (4-byte tag 0 or 1, then 32 bytes); undefined when the tag is neither. */
  coptionKey(o: number): string | null | undefined {
    const tag = this.u32(o);
    return tag === 0 ? null : tag === 1 ? this.key(o + 4) : undefined;
  }
  coptionU64(o: number): bigint | null | undefined {
    const tag = this.u32(o);
    return tag === 0 ? null : tag === 1 ? this.u64(o + 4) : undefined;
  }
  /** PodBool / bool: 0 or 1 (spl-pod reads any non-zero as true). */
  podBool = (o: number) => this.d[o] !== 0;
}

export type Extension = { extension: string; state?: Record<string, unknown> };

// ExtensionType discriminants (spl-token-2022 extension/mod.rs); Agave's UiExtension names are their camelCase.
const EXTENSION_NAMES = [
  'uninitialized',
  'transferFeeConfig',
  'transferFeeAmount',
  'mintCloseAuthority',
  'confidentialTransferMint',
  'confidentialTransferAccount',
  'defaultAccountState',
  'immutableOwner',
  'memoTransfer',
  'nonTransferable',
  'interestBearingConfig',
  'cpiGuard',
  'permanentDelegate',
  'nonTransferableAccount',
  'transferHook',
  'transferHookAccount',
  'confidentialTransferFeeConfig',
  'confidentialTransferFeeAmount',
  'metadataPointer',
  'tokenMetadata',
  'groupPointer',
  'tokenGroup',
  'groupMemberPointer',
  'tokenGroupMember',
  'confidentialMintBurn',
  'scaledUiAmountConfig',
  'pausableConfig',
  'pausableAccount',
] as const;
const ACCOUNT_EXTENSIONS = new Set([2, 5, 7, 8, 11, 13, 15, 17, 27]); // the rest belong to mints
const UNIT_EXTENSIONS = new Set([0, 7, 9, 13, 27]); // parsed without reading their bytes
const UNPARSEABLE: Extension = { extension: 'unparseableExtension' };
export const ACCOUNT_STATES = ['uninitialized', 'initialized', 'frozen'] as const;

const transferFee = (b: Bytes, o: number) => ({ epoch: Number(b.u64(o)), maximumFee: Number(b.u64(o + 8)), transferFeeBasisPoints: b.u16(o + 16) });

/** Fixed-size extension states: [size of the Pod struct, its UI state]. */
const FIXED: Record<number, [number, (b: Bytes) => Record<string, unknown>]> = {
  1: [108, (b) => ({
    transferFeeConfigAuthority: b.optKey(0),
    withdrawWithheldAuthority: b.optKey(32),
    withheldAmount: Number(b.u64(64)),
    olderTransferFee: transferFee(b, 72),
    newerTransferFee: transferFee(b, 90),
  })],
  2: [8, (b) => ({ withheldAmount: Number(b.u64(0)) })],
  3: [32, (b) => ({ closeAuthority: b.optKey(0) })],
  // AccountState::try_from(u8).unwrap_or_default()
  6: [1, (b) => ({ accountState: ACCOUNT_STATES[b.u8(0)] ?? 'uninitialized' })],
  8: [1, (b) => ({ requireIncomingTransferMemos: b.podBool(0) })],
  10: [52, (b) => ({
    rateAuthority: b.optKey(0),
    initializationTimestamp: Number(b.i64(32)),
    preUpdateAverageRate: b.i16(40),
    lastUpdateTimestamp: Number(b.i64(42)),
    currentRate: b.i16(50),
  })],
  11: [1, (b) => ({ lockCpi: b.podBool(0) })],
  12: [32, (b) => ({ delegate: b.optKey(0) })],
  14: [64, (b) => ({ authority: b.optKey(0), programId: b.optKey(32) })],
  15: [1, (b) => ({ transferring: b.podBool(0) })],
  18: [64, (b) => ({ authority: b.optKey(0), metadataAddress: b.optKey(32) })],
  20: [64, (b) => ({ authority: b.optKey(0), groupAddress: b.optKey(32) })],
  21: [80, (b) => ({ updateAuthority: b.optKey(0), mint: b.key(32), size: Number(b.u64(64)), maxSize: Number(b.u64(72)) })],
  22: [64, (b) => ({ authority: b.optKey(0), memberAddress: b.optKey(32) })],
  23: [72, (b) => ({ mint: b.key(0), group: b.key(32), memberNumber: Number(b.u64(64)) })],
  // f64::to_string: Rust never uses an exponent; JS does past 1e21 (multipliers are far smaller).
  25: [56, (b) => ({ authority: b.optKey(0), multiplier: String(b.f64(32)), newMultiplierEffectiveTimestamp: Number(b.i64(40)), newMultiplier: String(b.f64(48)) })],
  26: [33, (b) => ({ authority: b.optKey(0), paused: b.podBool(32) })],
};

/** spl-token-metadata's TokenMetadata (Borsh; every byte consumed, strings UTF-8), or null. */
function tokenMetadataState(d: Uint8Array): Record<string, unknown> | null {
  const b = new Bytes(d);
  let o = 64;
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  const str = () => {
    if (o + 4 > d.length) throw new Error('short');
    const n = b.u32(o);
    if (o + 4 + n > d.length) throw new Error('short');
    const s = utf8.decode(d.subarray(o + 4, o + 4 + n));
    o += 4 + n;
    return s;
  };
  try {
    if (d.length < 64) return null;
    const name = str();
    const symbol = str();
    const uri = str();
    if (o + 4 > d.length) return null;
    const count = b.u32(o);
    o += 4;
    const additionalMetadata: [string, string][] = [];
    for (let i = 0; i < count; i++) additionalMetadata.push([str(), str()]);
    if (o !== d.length) return null;
    return { updateAuthority: b.optKey(0), mint: b.key(32), name, symbol, uri, additionalMetadata };
  } catch {
    return null;
  }
}

/**
 * The TLV entries' types in order (get_tlv_data_info): stops at an Uninitialized type or where no
 * type fits; an unknown type or an entry running past the end is an error → no extensions at all
 * (`get_extension_types().unwrap_or_default()`).
 */
function extensionEntries(tlv: Uint8Array): { type: number; value: Uint8Array }[] {
  const out: { type: number; value: Uint8Array }[] = [];
  const b = new Bytes(tlv);
  let i = 0;
  while (i < tlv.length) {
    if (tlv.length < i + 2) break;
    const type = b.u16(i);
    if (type >= EXTENSION_NAMES.length) return [];
    if (type === 0) break;
    if (tlv.length < i + 4) return [];
    const len = b.u16(i + 2);
    if (i + 4 + len > tlv.length) return [];
    out.push({ type, value: tlv.subarray(i + 4, i + 4 + len) });
    i += 4 + len;
  }
  return out;
}

/** parse_extension: one UiExtension per listed type, read from that type's first entry. */
export function parseExtensions(tlv: Uint8Array, kind: 'mint' | 'account'): Extension[] {
  const entries = extensionEntries(tlv);
  return entries.map(({ type }) => {
    const extension = EXTENSION_NAMES[type];
    if (UNIT_EXTENSIONS.has(type)) return { extension };
    // get_extension refuses an extension of the other account kind, and a value of the wrong size.
    if (ACCOUNT_EXTENSIONS.has(type) !== (kind === 'account')) return UNPARSEABLE;
    const value = entries.find((e) => e.type === type)!.value;
    if (type === 19) {
      const state = tokenMetadataState(value);
      return state ? { extension, state } : UNPARSEABLE;
    }
    const fixed = FIXED[type];
    if (!fixed || value.length !== fixed[0]) return UNPARSEABLE;
    return { extension, state: fixed[1](new Bytes(value)) };
  });
}
