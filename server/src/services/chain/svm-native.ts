// LiteSVM's native binding, spoken to in the bytes it takes. litesvm's JavaScript class converts
// every address through @solana/kit's codecs (base58 through BigInt, each checked again first: ~57 µs
// a key here, bs58 ~7 µs) and every transaction through kit's decoder and encoder. The embedded chain
// reads and writes a few accounts per key of every transaction it runs, so those conversions were a
// fifth of an anchoring's CPU (#15, CPU profile of bench:scale's fill). Keys here were encoded by this
// process and a compiled transaction's wire bytes are at hand, so they go to the binding directly;
// the few owners' base58 forms are remembered.
import bs58 from 'bs58';
import { Account, type FailedTransactionMetadata, type LiteSVM, type TransactionMetadata } from 'litesvm';
import type { LiteSvm as NativeLiteSvm } from 'litesvm/dist/internal';

/** An account as the embedded chain handles it (keys and owners in base58). */
export interface SvmAccount {
  owner: string;
  lamports: bigint;
  data: Uint8Array;
  executable: boolean;
}

/** Owners are few (the program, the system and token programs, loaders): each base58 form kept once. */
const OWNER_CACHE_MAX = 256;

export class NativeSvm {
  private readonly ownerNames = new Map<string, string>();
  private readonly ownerBytes = new Map<string, Uint8Array>();

  private constructor(private readonly native: NativeLiteSvm) {}

  /**
   * The binding behind `svm` (litesvm 1.x keeps it in `inner`). Checked at start: a litesvm that moved
   * it fails here, with what to look at, not at the first transaction.
   */
  static of(svm: LiteSVM): NativeSvm {
    const native = (svm as unknown as { inner?: NativeLiteSvm }).inner;
    for (const m of ['getAccount', 'getBalance', 'setAccount', 'sendLegacyTransaction', 'simulateLegacyTransaction'] as const) {
      if (typeof native?.[m] !== 'function') {
        throw new Error(`litesvm's native binding has no ${m} at LiteSVM.inner: server/src/services/chain/svm-native.ts must follow the installed litesvm version`);
      }
    }
    return new NativeSvm(native!);
  }

  getAccount(key: string): SvmAccount | null {
    const a = this.native.getAccount(keyBytes(key));
    if (a === null) return null;
    return { owner: this.ownerName(a.owner()), lamports: a.lamports(), data: a.data(), executable: a.executable() };
  }

  /** Lamports without copying the account's data; null when LiteSVM has no such account. */
  getBalance(key: string): bigint | null {
    return this.native.getBalance(keyBytes(key));
  }

  setAccount(key: string, a: SvmAccount): void {
    this.native.setAccount(keyBytes(key), new Account(a.lamports, a.data, this.ownerKey(a.owner), a.executable, 0n));
  }

  /** Runs a legacy transaction given as its wire bytes (signatures, then the message). */
  sendLegacy(wire: Uint8Array): TransactionMetadata | FailedTransactionMetadata {
    return this.native.sendLegacyTransaction(wire);
  }

  /** Simulates a legacy transaction given as its wire bytes; nothing changes. */
  simulateLegacy(wire: Uint8Array) {
    return this.native.simulateLegacyTransaction(wire);
  }

  private ownerName(bytes: Uint8Array): string {
    const id = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
    return remembered(this.ownerNames, id, () => bs58.encode(bytes));
  }

  private ownerKey(name: string): Uint8Array {
    return remembered(this.ownerBytes, name, () => keyBytes(name));
  }
}

/**
 * A base58 address as the binding takes it. Checked here: the binding aborts the whole process on a
 * key that is not 32 bytes (a Rust panic), where litesvm's class threw an error a caller could catch.
 */
function keyBytes(key: string): Uint8Array {
  const bytes = bs58.decode(key);
  if (bytes.length !== 32) throw new Error(`Not an address (${bytes.length} bytes, an address has 32): ${key}`);
  return bytes;
}

function remembered<V>(cache: Map<string, V>, key: string, make: () => V): V {
  let v = cache.get(key);
  if (v === undefined) {
    v = make();
    if (cache.size >= OWNER_CACHE_MAX) cache.clear();
    cache.set(key, v);
  }
  return v;
}
