// The embedded chain's accounts: which of them LiteSVM holds (a bounded working set over the
// `chain_account` table), and reads of every account. Kept apart from EmbeddedChain, which runs
// transactions: this is the bookkeeping of where each account's truth is (LiteSVM or the committed row).
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { after, type AccountReader, type AccountRow, type RowMatch, type ScanPage } from './embedded-account-reader';
import type { NativeSvm } from './svm-native';
import type { AccountSnapshot } from './types';

/**
 * How many persisted accounts LiteSVM holds at once (the working set). Transactions name their
 * accounts, which are loaded from `chain_account` before they run; past this the least recently used
 * are removed from LiteSVM (never one a transaction is using, nor one whose write the database has not
 * committed yet). Every timestamp update (`tick`) copies LiteSVM's whole account map, so this also
 * bounds the per-transaction cost.
 */
export const WORKING_SET_ACCOUNTS = 4096;
/**
 * Account reads (verdicts, JSON-RPC) are cached up to this many bytes (ATTESTA_CHAIN_READ_CACHE_MB),
 * least recently used out first: 8 MB is ~14,000 certificate records (172 bytes each).
 */
export const READ_CACHE_BYTES = 8 * 1024 * 1024;
/**
 * What one cached read holds besides its data, estimated: the map entry, the key string (44 base58
 * characters), the snapshot object, its owner string and lamports, and the data's typed array with
 * its own ArrayBuffer (the database driver's Buffers each have their own backing store).
 */
export const READ_CACHE_ENTRY_OVERHEAD = 400;
const cacheCost = (v: AccountSnapshot | null) => READ_CACHE_ENTRY_OVERHEAD + (v ? v.data.length : 0);
/** A scan (`scan`) reads this many keys of an owner's accounts a page, and their data at most this many bytes at a time. */
export const SCAN_PAGE_KEYS = 500;
export const SCAN_CHUNK_BYTES = 1024 * 1024;
const SYSTEM_PROGRAM = '11111111111111111111111111111111';
const SYSVAR_OWNER = 'Sysvar1111111111111111111111111111111111111';

/** An account LiteSVM holds (zero lamports: it has none, and its row goes). */
export const accountExists = (a: AccountSnapshot | null): a is AccountSnapshot => !!a && a.lamports !== 0n;
const view = (u: Uint8Array) => Buffer.from(u.buffer, u.byteOffset, u.byteLength);
/** Two states of an account are the same (absent and zero lamports alike). */
export const sameState = (a: AccountSnapshot | null, b: AccountSnapshot | null) =>
  accountExists(a) ? accountExists(b) && a.lamports === b.lamports && a.owner === b.owner && a.executable === b.executable && view(a.data).equals(view(b.data)) : !accountExists(b);
/** LiteSVM's state of an account is its committed row's. */
const sameAccount = (a: AccountSnapshot | null, r: AccountRow | undefined) =>
  !accountExists(a) ? !r : !!r && r.owner === a.owner && r.lamports === a.lamports.toString() && view(a.data).equals(view(r.data));

/**
 * The accounts LiteSVM holds (at most `limit` persisted ones, least recently used out) and reads of
 * every account, from LiteSVM or from the committed row.
 *
 * `resident`: the persisted accounts LiteSVM holds (in least-recently-used order). For those LiteSVM
 * is the truth (it can be ahead of the database while a caller's DB transaction is open); for every
 * other account the committed `chain_account` row is, and LiteSVM holds nothing for it. LiteSVM's own
 * accounts (programs, sysvars, builtins) are never persisted and never evicted.
 * `pins`: accounts a transaction is loading, running or persisting: never evicted.
 * `unconfirmed`: accounts written in a caller's DB transaction, not evicted until the committed row
 * matches LiteSVM (`confirm`): evicting one earlier would lose the write, or load a stale row back.
 */
export class EmbeddedAccounts {
  private resident = new Map<string, true>();
  private pins = new Map<string, number>();
  private unconfirmed = new Set<string>();

  // Reads are served from a cache that every state change in this process invalidates exactly
  // (transactions, undo, airdrop: the accounts they write): LiteSVM is only ever changed through
  // EmbeddedChain and this class.
  private cache = new Map<string, AccountSnapshot | null>();
  private cacheBytes = 0;
  private version = 0;
  /**
   * Accounts LiteSVM holds of its own (programs, sysvars, builtins: executable or sysvar-owned, never
   * persisted, never resident), learned as they are read: any other account that is not resident is
   * read from its row first, and from LiteSVM only when it has none.
   */
  private own = new Set<string>();

  private confirming: Promise<void> | null = null;
  private confirmDelayMs = 20;
  private closed = false;

  /**
   * `limit`: how many persisted accounts LiteSVM holds at once (WORKING_SET_ACCOUNTS by default);
   * `cacheLimitBytes`: what cached reads may hold (READ_CACHE_BYTES by default).
   */
  constructor(
    private readonly svm: NativeSvm,
    private readonly reader: AccountReader,
    private readonly limit: number,
    private readonly cacheLimitBytes: number = READ_CACHE_BYTES,
  ) {}

  /** A number that changes whenever any account may have changed (ChainService.stateVersion). */
  stateVersion() {
    return this.version;
  }

  /** `keys` changed (or may have): a new state version, their cached reads dropped. */
  changed(keys: Iterable<string> = []) {
    this.version++;
    for (const k of keys) this.forget(k);
  }

  /** LiteSVM's current state of `pubkey` (a resident account, or one of LiteSVM's own). */
  snapshot(pubkey: string): AccountSnapshot | null {
    const a = this.svm.getAccount(pubkey);
    return a && { pubkey, ...a };
  }

  /** LiteSVM's lamports of `pubkey` (0 when absent): a balance without copying the account's data. */
  balance(pubkey: string): bigint {
    return this.svm.getBalance(pubkey) ?? 0n;
  }

  private static fromRow(r: AccountRow): AccountSnapshot {
    return { pubkey: r.pubkey, owner: r.owner, lamports: BigInt(r.lamports), data: r.data, executable: false };
  }

  private forget(pubkey: string) {
    const had = this.cache.get(pubkey);
    if (had === undefined) return;
    this.cache.delete(pubkey);
    this.cacheBytes -= cacheCost(had);
  }

  /** Caches a read, the least recently used out until the cache is within its bytes again. */
  private remember(pubkey: string, v: AccountSnapshot | null) {
    this.forget(pubkey);
    const cost = cacheCost(v);
    if (cost > this.cacheLimitBytes) return;
    this.cache.set(pubkey, v);
    this.cacheBytes += cost;
    for (const [k, old] of this.cache) {
      if (this.cacheBytes <= this.cacheLimitBytes) break;
      this.cache.delete(k);
      this.cacheBytes -= cacheCost(old);
    }
  }

  /** The current state of an account; synchronous when it is cached, resident or read from SQLite. */
  read(pubkey: string): AccountSnapshot | null | Promise<AccountSnapshot | null> {
    const hit = this.cache.get(pubkey);
    if (hit !== undefined) {
      this.cache.delete(pubkey); // most recently used last
      this.cache.set(pubkey, hit);
      return hit;
    }
    if (this.resident.has(pubkey)) {
      const v = this.snapshot(pubkey);
      this.remember(pubkey, v);
      return v;
    }
    // Not resident: LiteSVM holds it only if it is one of its own (sysvars change every slot: not cached).
    if (this.own.has(pubkey)) return this.snapshot(pubkey);
    const version = this.version;
    return after(this.reader.rows([pubkey]), (rows) => {
      // A transaction loaded it meanwhile (and may have changed it): LiteSVM has the truth.
      if (this.resident.has(pubkey)) return this.snapshot(pubkey);
      const r = rows.get(pubkey);
      if (!r) {
        // No row: one of LiteSVM's own, an account written but not persisted yet (the operator's
        // first airdrop), or no account.
        const held = this.snapshot(pubkey);
        if (held) {
          if (held.executable || held.owner === SYSVAR_OWNER) this.own.add(pubkey);
          return held;
        }
      }
      const v = r ? EmbeddedAccounts.fromRow(r) : null;
      if (this.version === version) this.remember(pubkey, v);
      return v;
    });
  }

  /**
   * Keys of the accounts `owner` may own now whose data starts with `tag`: the committed rows' (from
   * the database's (owner, first 8 bytes) index), plus every account written but not committed yet
   * (a caller's open DB transaction) or being written. Each is to be read at its current state.
   */
  async keysOwnedBy(owner: string, tag: Uint8Array): Promise<Set<string>> {
    const keys = new Set(await this.reader.keysByOwner(owner, tag));
    for (const k of this.unconfirmed) keys.add(k);
    for (const k of this.pins.keys()) keys.add(k);
    return keys;
  }

  /**
   * The accounts `owner` owns whose committed rows pass `match`, at their current state, in key order
   * (byte order), read a page of keys at a time and their data a chunk at a time: however many the
   * owner has, what is held at once is one page of keys and one chunk of data (plus one account larger
   * than a chunk), and the caller stops reading when its answer is full. The accounts LiteSVM is ahead
   * on (written in a caller's open DB transaction, or being written) come from LiteSVM, merged in key
   * order, whatever their committed row says. The event loop is let go between pages. The caller checks
   * `match` again on what it gets (an account LiteSVM holds may not pass it).
   */
  async *scan(owner: string, match: RowMatch, opts: { pageKeys?: number; chunkBytes?: number } = {}): AsyncGenerator<AccountSnapshot> {
    const pageKeys = opts.pageKeys ?? SCAN_PAGE_KEYS;
    const chunkBytes = opts.chunkBytes ?? SCAN_CHUNK_BYTES;
    let after: string | null = null;
    for (;;) {
      const page: ScanPage = await this.reader.scanPage(owner, after, pageKeys, match);
      const lo = after;
      const hi = page.last;
      const inRange = (k: string) => (lo === null || k > lo) && (hi === null || k <= hi);
      // LiteSVM's truth for the accounts it is ahead on: their rows are skipped, their state merged in.
      const ahead = new Set<string>();
      for (const k of [...this.unconfirmed, ...this.pins.keys()]) if (this.resident.has(k) && inRange(k)) ahead.add(k);
      type Entry = ScanPage['keys'][number] & { held?: true };
      const entries: Entry[] = ahead.size ? page.keys.filter((e) => !ahead.has(e.pubkey)) : page.keys;
      if (ahead.size) {
        for (const k of ahead) entries.push({ pubkey: k, size: 0, held: true });
        entries.sort((a, b) => (a.pubkey < b.pubkey ? -1 : a.pubkey > b.pubkey ? 1 : 0));
      }
      let loaded = new Map<string, AccountRow>();
      for (let i = 0; i < entries.length; i++) {
        const e = entries[i];
        let state: AccountSnapshot | null;
        if (e.held || this.resident.has(e.pubkey)) state = this.snapshot(e.pubkey);
        else if (e.row) state = EmbeddedAccounts.fromRow(e.row);
        else {
          if (!loaded.has(e.pubkey)) {
            // The next large rows to read, up to chunkBytes of data (at least this one).
            const chunk: string[] = [];
            for (let j = i, bytes = 0; j < entries.length && (chunk.length === 0 || bytes + entries[j].size <= chunkBytes); j++) {
              if (entries[j].held || entries[j].row) continue;
              chunk.push(entries[j].pubkey);
              bytes += entries[j].size;
            }
            loaded = await this.reader.rows(chunk);
          }
          const r = loaded.get(e.pubkey);
          // Gone since the page was read, or loaded meanwhile by a transaction (LiteSVM has the truth).
          state = this.resident.has(e.pubkey) ? this.snapshot(e.pubkey) : r ? EmbeddedAccounts.fromRow(r) : null;
        }
        if (accountExists(state) && state.owner === owner) yield state;
      }
      if (hi === null) return;
      after = hi;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  private pin(keys: string[]) {
    for (const k of keys) this.pins.set(k, (this.pins.get(k) ?? 0) + 1);
  }

  private unpin(keys: string[]) {
    for (const k of keys) {
      const n = (this.pins.get(k) ?? 1) - 1;
      if (n) this.pins.set(k, n);
      else this.pins.delete(k);
    }
  }

  private touch(pubkey: string) {
    this.resident.delete(pubkey);
    this.resident.set(pubkey, true);
  }

  /** Loads those of `keys` LiteSVM does not hold from their committed rows (`db`: the caller's transaction, PostgreSQL). */
  private load(keys: string[], db?: Kysely<Database>): void | Promise<void> {
    const missing: string[] = [];
    for (const k of keys) {
      if (this.resident.has(k)) this.touch(k);
      else missing.push(k);
    }
    if (!missing.length) return;
    return after(this.reader.rows(missing, db), (rows) => {
      for (const k of missing) {
        if (this.resident.has(k)) continue; // loaded meanwhile by another transaction: LiteSVM is ahead
        const r = rows.get(k);
        if (!r) continue; // never persisted: absent, or one of LiteSVM's own
        this.svm.setAccount(k, { owner: r.owner, lamports: BigInt(r.lamports), data: new Uint8Array(r.data), executable: false });
        this.touch(k);
      }
    });
  }

  /**
   * Runs `fn` with `keys` loaded into LiteSVM and kept there (pinned) until it settles; then trims the
   * working set. `keys` are pinned before the load, so none can be evicted between its read and `fn`.
   */
  async withLoaded<T>(keys: string[], db: Kysely<Database> | undefined, fn: () => T | Promise<T>): Promise<T> {
    this.pin(keys);
    try {
      const loading = this.load(keys, db);
      if (loading) await loading;
      return await fn();
    } finally {
      this.unpin(keys);
      this.trim();
    }
  }

  /** A transaction wrote `keys` (they are loaded): LiteSVM now answers for them. */
  written(keys: string[]) {
    for (const k of keys) this.touch(k);
    this.changed(keys);
  }

  /** `keys` were written in a caller's DB transaction: LiteSVM keeps them until the database has committed them. */
  holdUntilCommitted(keys: string[]) {
    for (const k of keys) this.unconfirmed.add(k);
  }

  /**
   * Puts an account back as it was before a transaction (undo). It stays in LiteSVM until the committed
   * row matches (after the caller's rollback it does at once).
   */
  putBack(pubkey: string, snap: AccountSnapshot | null) {
    this.svm.setAccount(pubkey, {
      owner: snap?.owner ?? SYSTEM_PROGRAM,
      lamports: snap?.lamports ?? 0n,
      data: snap?.data ?? new Uint8Array(0),
      executable: snap?.executable ?? false,
    });
    this.touch(pubkey);
    this.unconfirmed.add(pubkey);
    this.changed([pubkey]);
    this.scheduleConfirm();
  }

  /** Evicts least recently used accounts past the working set (not pinned, not awaiting their commit). */
  private trim() {
    if (this.unconfirmed.size) this.scheduleConfirm();
    if (this.resident.size <= this.limit) return;
    const target = Math.floor(this.limit * 0.9);
    for (const k of this.resident.keys()) {
      if (this.resident.size <= target) break;
      if (this.pins.has(k) || this.unconfirmed.has(k)) continue;
      this.resident.delete(k);
      const a = this.svm.getAccount(k);
      // Never one of LiteSVM's own (a program or sysvar is never written by a transaction; this is a guard).
      if (a && (a.executable || a.owner === SYSVAR_OWNER)) continue;
      // Zero lamports: LiteSVM removes the account. Reads now come from the row, which holds the same state.
      if (a) this.svm.setAccount(k, { owner: SYSTEM_PROGRAM, lamports: 0n, data: new Uint8Array(0), executable: false });
      this.forget(k);
    }
  }

  /** Soon: drops from `unconfirmed` the accounts whose committed row now matches LiteSVM. */
  private scheduleConfirm() {
    if (this.confirming) return;
    this.confirming = new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        void this.confirm()
          .catch((e) => console.warn('embedded chain: could not check committed accounts', e))
          .finally(() => {
            this.confirming = null;
            resolve();
            if (this.unconfirmed.size) this.scheduleConfirm();
          });
      }, this.confirmDelayMs);
      t.unref();
    });
  }

  private async confirm() {
    if (this.closed) return this.unconfirmed.clear();
    const keys = [...this.unconfirmed].slice(0, 1000);
    const rows = await this.reader.rows(keys);
    let confirmed = 0;
    for (const k of keys) {
      if (this.pins.has(k)) continue; // being written again
      if (sameAccount(this.snapshot(k), rows.get(k))) {
        this.unconfirmed.delete(k);
        confirmed++;
      }
    }
    // Still open (a long caller transaction): look again less often.
    this.confirmDelayMs = confirmed ? 20 : Math.min(this.confirmDelayMs * 2, 2000);
  }

  /**
   * Now: checks every unconfirmed account against its committed row and trims the working set. For a
   * caller that writes in long batches (the scale bench's fill) and must not let them pile up; the
   * server relies on the timer (`scheduleConfirm`). Returns how many are still awaiting their commit.
   */
  async settle(): Promise<number> {
    for (let before = -1; this.unconfirmed.size && this.unconfirmed.size !== before; ) {
      before = this.unconfirmed.size;
      await this.confirm();
    }
    this.trim();
    return this.unconfirmed.size;
  }

  /** What LiteSVM holds (tests and benchmarks). */
  stats() {
    return { resident: this.resident.size, pinned: this.pins.size, unconfirmed: this.unconfirmed.size, cached: this.cache.size, cachedBytes: this.cacheBytes, cacheLimitBytes: this.cacheLimitBytes, limit: this.limit };
  }

  close() {
    this.closed = true;
    this.reader.close();
  }
}
