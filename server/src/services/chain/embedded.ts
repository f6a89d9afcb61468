import { createPrivateKey, sign as cryptoSign, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import { type Keypair, PublicKey, type Signer, type Transaction, VersionedTransaction } from '@solana/web3.js';
import { LiteSVM, FailedTransactionMetadata, type TransactionMetadata } from 'litesvm';
// litesvm 1.x takes @solana/kit transactions; its kit decodes a serialized web3.js v1 transaction.
import { address, getTransactionDecoder, lamports as kitLamports } from '@solana/kit';
import bs58 from 'bs58';
import SqliteDatabase from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { BaseChain } from './base';
import { ChainError, chainErrorFromLogs, type AccountSnapshot, type ChainReceipt, type LandedListener, type SigningBlockhash, type TxOptions } from './types';

/**
 * The embedded fee payer's reserve: start-up refills the operator when it is below this, and the
 * JSON-RPC faucet (rpc/methods.ts requestAirdrop) never takes it below this. One constant for both.
 */
export const OPERATOR_RESERVE_LAMPORTS = 100n * 1_000_000_000n;
const SIGNATURES_PER_BLOCKHASH = 10_000;
/** A new blockhash at most once a slot, as a validator makes one per block. */
const BLOCKHASH_ROTATE_MS = 400;
/** How long a handed-out blockhash is accepted (a validator: 150 blocks; here it also covers the 120 s mint window). */
export const BLOCKHASH_VALID_MS = 150_000;
/** What a wallet-signed transaction is promised (and held to): within the blockhash's validity. */
export const SIGNING_WINDOW_MS = 120_000;
/** LiteSVM's TransactionError discriminant for BlockhashNotFound (see server/src/json-rpc/errors.ts). */
const BLOCKHASH_NOT_FOUND = 7;

/**
 * How many persisted accounts LiteSVM holds at once (the working set). Transactions name their
 * accounts, which are loaded from `chain_account` before they run; past this the least recently used
 * are removed from LiteSVM (never one a transaction is using, nor one whose write the database has not
 * committed yet). Every timestamp update (`tick`) copies LiteSVM's whole account map, so this also
 * bounds the per-transaction cost.
 */
export const WORKING_SET_ACCOUNTS = 4096;
/** Account reads (verdicts, JSON-RPC) are cached up to this many entries, least recently used out first. */
const READ_CACHE_ACCOUNTS = 50_000;
const SYSTEM_PROGRAM = '11111111111111111111111111111111';
const SYSVAR_OWNER = 'Sysvar1111111111111111111111111111111111111';
/** An address lookup table's addresses start after its 56-byte header. */
const LOOKUP_TABLE_META_SIZE = 56;

type AccountRow = { pubkey: string; owner: string; lamports: string; data: Uint8Array };

/**
 * Committed `chain_account` rows, read outside the server's own DB connection: on SQLite a second,
 * read-only connection to the same file (WAL: it never waits for a writer, so a read made while a
 * caller holds a transaction cannot deadlock, and it sees committed rows only); on PostgreSQL the pool.
 */
interface AccountReader {
  /** Rows of those of `keys` that exist (synchronous on SQLite). */
  rows(keys: string[], db?: Kysely<Database>): Map<string, AccountRow> | Promise<Map<string, AccountRow>>;
  /** Keys of accounts owned by `owner`, optionally only those whose data starts with `tag` (8 bytes). */
  keysByOwner(owner: string, tag?: Uint8Array): string[] | Promise<string[]>;
  /** Rows owned by `owner`, in key order. */
  rowsByOwner(owner: string): AccountRow[] | Promise<AccountRow[]>;
  close(): void;
}

function sqliteReader(file: string): AccountReader {
  const conn = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
  conn.pragma('busy_timeout = 5000');
  const one = conn.prepare<[string], AccountRow>('select pubkey, owner, lamports, data from chain_account where pubkey = ?');
  // The same expression as the index of migration 1500 (owner, substr(data, 1, 8)).
  const byTag = conn.prepare<[string, Buffer], { pubkey: string }>('select pubkey from chain_account where owner = ? and substr(data, 1, 8) = ?');
  const byOwner = conn.prepare<[string], { pubkey: string }>('select pubkey from chain_account where owner = ?');
  const rowsByOwner = conn.prepare<[string], AccountRow>('select pubkey, owner, lamports, data from chain_account where owner = ? order by pubkey');
  return {
    rows(keys) {
      const out = new Map<string, AccountRow>();
      for (const k of keys) {
        const r = one.get(k);
        if (r) out.set(k, r);
      }
      return out;
    },
    keysByOwner: (owner, tag) => (tag ? byTag.all(owner, Buffer.from(tag)) : byOwner.all(owner)).map((r) => r.pubkey),
    rowsByOwner: (owner) => rowsByOwner.all(owner),
    close: () => conn.close(),
  };
}

function kyselyReader(db: Kysely<Database>): AccountReader {
  return {
    async rows(keys, via = db) {
      const out = new Map<string, AccountRow>();
      for (let i = 0; i < keys.length; i += 500) {
        const rows = await via.selectFrom('chain_account').select(['pubkey', 'owner', 'lamports', 'data']).where('pubkey', 'in', keys.slice(i, i + 500)).execute();
        for (const r of rows) out.set(r.pubkey, r);
      }
      return out;
    },
    async keysByOwner(owner, tag) {
      let q = db.selectFrom('chain_account').select('pubkey').where('owner', '=', owner);
      if (tag) q = q.where(sql`substr(data, 1, 8)`, '=', Buffer.from(tag));
      return (await q.execute()).map((r) => r.pubkey);
    },
    rowsByOwner: (owner) => db.selectFrom('chain_account').select(['pubkey', 'owner', 'lamports', 'data']).where('owner', '=', owner).orderBy('pubkey').execute(),
    close() {},
  };
}

const isThenable = <T>(v: T | Promise<T>): v is Promise<T> => typeof (v as { then?: unknown })?.then === 'function';
/** Calls `then` at once on a plain value (no microtask: a synchronous read stays synchronous), else after it resolves. */
function after<T, R>(v: T | Promise<T>, then: (x: T) => R): R | Promise<Awaited<R>> {
  return isThenable(v) ? (v.then(then) as Promise<Awaited<R>>) : then(v);
}

// Ed25519 signing with Node's crypto (OpenSSL) instead of web3.js's JavaScript implementation: the
// same signatures (Ed25519 is deterministic), ~20× less CPU per transaction.
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const signingKeys = new Map<string, KeyObject>();
function signingKey(s: Signer): KeyObject {
  const id = s.publicKey.toBase58();
  let k = signingKeys.get(id);
  if (!k) {
    k = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, Buffer.from(s.secretKey.subarray(0, 32))]), format: 'der', type: 'pkcs8' });
    if (signingKeys.size >= 1000) signingKeys.delete(signingKeys.keys().next().value!);
    signingKeys.set(id, k);
  }
  return k;
}
/** What `tx.sign(...signers)` does (signer order, fee payer first), signing natively. */
function signNatively(tx: Transaction, signers: Signer[]) {
  const unique = signers.filter((s, i) => signers.findIndex((o) => o.publicKey.equals(s.publicKey)) === i);
  tx.signatures = unique.map((s) => ({ signature: null, publicKey: s.publicKey }));
  const message = tx.serializeMessage(); // compiles, and orders `signatures` as the message's signers
  for (const s of unique) tx.addSignature(s.publicKey, cryptoSign(null, message, signingKey(s)));
}

const sameAccount = (a: AccountSnapshot | null, r: AccountRow | undefined) =>
  !a || a.lamports === 0n ? !r : !!r && r.owner === a.owner && r.lamports === a.lamports.toString() && Buffer.from(a.data).equals(Buffer.from(r.data));

/**
 * The embedded chain: LiteSVM in-process running the committed program. Accounts live in the
 * `chain_account` table; every successful transaction writes the accounts it could change, in the
 * caller's DB transaction when one is passed. Nothing is loaded at start: a transaction's accounts are
 * loaded into LiteSVM before it runs (its account keys are known), reads come from LiteSVM for the
 * accounts it holds and from the database otherwise, and LiteSVM keeps a bounded working set
 * (WORKING_SET_ACCOUNTS, least recently used out).
 */
export class EmbeddedChain extends BaseChain {
  readonly mode = 'embedded' as const;
  private svm: LiteSVM;
  private slot = 1n;
  private decoder = getTransactionDecoder();
  private readonly reader: AccountReader;
  private readonly workingSet: number;

  private constructor(
    programId: PublicKey,
    operator: Keypair,
    private readonly db: Kysely<Database>,
    svm: LiteSVM,
    opts: { sqliteFile?: string; workingSet?: number },
  ) {
    super(programId, operator);
    this.svm = svm;
    this.reader = opts.sqliteFile ? sqliteReader(opts.sqliteFile) : kyselyReader(db);
    this.workingSet = opts.workingSet ?? WORKING_SET_ACCOUNTS;
  }

  /**
   * `sqliteFile`: the SQLite database behind `db` (reads then use their own read-only connection);
   * without it (PostgreSQL) reads go through `db`.
   */
  static async start(p: { db: Kysely<Database>; programId: PublicKey; programPath: string; operator: Keypair; sqliteFile?: string; workingSet?: number }): Promise<EmbeddedChain> {
    if (!fs.existsSync(p.programPath)) {
      throw new Error(`Program binary not found at ${p.programPath} (ATTESTA_PROGRAM_PATH). Build it with \`npm run build:program\`.`);
    }
    // Blockhashes are checked here (a window of recent ones, `isBlockhashValid`), not by LiteSVM,
    // which accepts only its latest: a wallet's blockhash must stay usable while the next one is made.
    const svm = new LiteSVM().withBlockhashCheck(false);
    svm.addProgram(address(p.programId.toBase58()), fs.readFileSync(p.programPath));
    const chain = new EmbeddedChain(p.programId, p.operator, p.db, svm, { sqliteFile: p.sqliteFile, workingSet: p.workingSet });
    await chain.restore();
    return chain;
  }

  /** The slot, the recent blockhashes and the operator's balance: no account is loaded but the operator's. */
  private async restore() {
    const meta = await this.db.selectFrom('chain_meta').select('value').where('key', '=', 'slot').executeTakeFirst();
    if (meta) this.slot = BigInt(meta.value);
    this.tick();
    const saved = await this.db.selectFrom('chain_meta').select('value').where('key', '=', 'recent_blockhashes').executeTakeFirst();
    for (const [h, at] of saved ? (JSON.parse(saved.value) as [string, number][]) : []) this.blockhashes.set(h, at);
    this.noteLatestBlockhash();
    const op = this.operator.toBase58();
    await this.withAccounts([op], undefined, async () => {
      const balance = this.svm.getBalance(address(op)) ?? 0n;
      if (balance < OPERATOR_RESERVE_LAMPORTS) {
        this.svm.airdrop(address(op), kitLamports(OPERATOR_RESERVE_LAMPORTS * 10n));
        this.changed([op]);
        await this.persistAccounts([op], this.db);
      }
    });
  }

  /** Advance the slot and set the clock to wall time, so timestamps and expiry are real (one Clock write: each copies LiteSVM's account map). */
  private tick() {
    this.slot += 1n;
    const clock = this.svm.getClock();
    clock.slot = this.slot;
    clock.unixTimestamp = BigInt(Math.floor(Date.now() / 1000));
    this.svm.setClock(clock);
  }

  async now() {
    return BigInt(Math.floor(Date.now() / 1000));
  }

  // Recent blockhashes and when each became the latest. A new one is made for a caller at most once
  // a slot (so a wallet retrying a failed transaction gets a fresh one, as on a cluster); each stays
  // valid for BLOCKHASH_VALID_MS.
  private blockhashes = new Map<string, number>();
  private latestAt = 0;

  private noteLatestBlockhash() {
    this.latestAt = Date.now();
    this.blockhashes.set(this.svm.latestBlockhash(), this.latestAt);
    for (const [h, at] of this.blockhashes) {
      if (this.latestAt - at < BLOCKHASH_VALID_MS) break; // in insertion order: the rest are newer
      this.blockhashes.delete(h);
    }
  }

  private rotateBlockhash() {
    this.svm.expireBlockhash();
    this.signaturesThisBlockhash.clear();
    this.noteLatestBlockhash();
    // Kept across restarts: a transaction a wallet signed just before one (a mint) still lands after it.
    const value = JSON.stringify([...this.blockhashes]);
    this.db
      .insertInto('chain_meta')
      .values({ key: 'recent_blockhashes', value })
      .onConflict((c) => c.column('key').doUpdateSet({ value }))
      .execute()
      .catch((e) => console.warn('embedded chain: could not save recent blockhashes', e));
  }

  async latestBlockhash() {
    if (Date.now() - this.latestAt >= BLOCKHASH_ROTATE_MS) this.rotateBlockhash();
    return this.svm.latestBlockhash();
  }

  async signingBlockhash(): Promise<SigningBlockhash> {
    return { blockhash: await this.latestBlockhash(), lastValidBlockHeight: null, expiresAt: Date.now() + SIGNING_WINDOW_MS };
  }

  async blockhashExpired(a: { expiresAt: number }) {
    return Date.now() > a.expiresAt;
  }

  // Who hears of each landed transaction: the JSON-RPC journal (first, in the caller's DB
  // transaction), PubSub sockets and the chain follower (services/chain-sync).
  private landedListeners: LandedListener[] = [];

  override onLanded(listener: LandedListener): () => void {
    this.landedListeners.push(listener);
    return () => {
      this.landedListeners = this.landedListeners.filter((l) => l !== listener);
    };
  }

  /** How many listeners are subscribed (tests: sockets free theirs on close). */
  get landedListenerCount() {
    return this.landedListeners.length;
  }

  /** Whether a transaction naming `blockhash` may still land. */
  isBlockhashValid(blockhash: string | null | undefined): boolean {
    const at = blockhash ? this.blockhashes.get(blockhash) : undefined;
    return at !== undefined && Date.now() - at < BLOCKHASH_VALID_MS;
  }

  // ---- Accounts: the working set in LiteSVM, and reads ----
  //
  // `resident`: the persisted accounts LiteSVM holds (in least-recently-used order). For those LiteSVM
  // is the truth (it can be ahead of the database while a caller's DB transaction is open); for every
  // other account the committed `chain_account` row is, and LiteSVM holds nothing for it. LiteSVM's own
  // accounts (programs, sysvars, builtins) are never persisted and never evicted.
  // `pins`: accounts a transaction is loading, running or persisting: never evicted.
  // `unconfirmed`: accounts written in a caller's DB transaction, not evicted until the committed row
  // matches LiteSVM (`confirm`): evicting one earlier would lose the write, or load a stale row back.
  private resident = new Map<string, true>();
  private pins = new Map<string, number>();
  private unconfirmed = new Set<string>();

  // Reads are served from a cache that every state change in this process invalidates exactly
  // (transactions, undo, airdrop: the accounts they write): LiteSVM is only ever changed through this class.
  private cache = new Map<string, AccountSnapshot | null>();
  private version = 0;
  override stateVersion() {
    return this.version;
  }

  /** `keys` changed (or may have): a new state version, their cached reads dropped. */
  private changed(keys: Iterable<string>) {
    this.version++;
    for (const k of keys) this.cache.delete(k);
  }

  /** LiteSVM's current state of `pubkey` (a resident account, or one of LiteSVM's own). */
  private snapshot(pubkey: string): AccountSnapshot | null {
    const a = this.svm.getAccount(address(pubkey));
    if (!a.exists) return null;
    return { pubkey, owner: a.programAddress, lamports: a.lamports, data: a.data, executable: a.executable };
  }

  private static fromRow(r: AccountRow): AccountSnapshot {
    return { pubkey: r.pubkey, owner: r.owner, lamports: BigInt(r.lamports), data: r.data, executable: false };
  }

  private remember(pubkey: string, v: AccountSnapshot | null) {
    if (this.cache.size >= READ_CACHE_ACCOUNTS) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(pubkey, v);
  }

  /** The current state of an account; synchronous when it is cached, resident or read from SQLite. */
  private read(pubkey: string): AccountSnapshot | null | Promise<AccountSnapshot | null> {
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
    const own = this.snapshot(pubkey);
    if (own) return own;
    const version = this.version;
    return after(this.reader.rows([pubkey]), (rows) => {
      // A transaction loaded it meanwhile (and may have changed it): LiteSVM has the truth.
      if (this.resident.has(pubkey)) return this.snapshot(pubkey);
      const r = rows.get(pubkey);
      const v = r ? EmbeddedChain.fromRow(r) : null;
      if (this.version === version) this.remember(pubkey, v);
      return v;
    });
  }

  async getAccountInfo(pubkey: PublicKey) {
    return this.read(pubkey.toBase58());
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
        this.svm.setAccount({
          address: address(k),
          programAddress: address(r.owner),
          lamports: kitLamports(BigInt(r.lamports)),
          data: new Uint8Array(r.data),
          executable: false,
          space: BigInt(r.data.length),
        });
        this.touch(k);
      }
    });
  }

  /**
   * Runs `fn` with `keys` loaded into LiteSVM and kept there (pinned) until it settles; then trims the
   * working set. `keys` are pinned before the load, so none can be evicted between its read and `fn`.
   */
  private async withAccounts<T>(keys: string[], db: Kysely<Database> | undefined, fn: () => T | Promise<T>): Promise<T> {
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

  /** Evicts least recently used accounts past the working set (not pinned, not awaiting their commit). */
  private trim() {
    if (this.unconfirmed.size) this.scheduleConfirm();
    if (this.resident.size <= this.workingSet) return;
    const target = Math.floor(this.workingSet * 0.9);
    for (const k of this.resident.keys()) {
      if (this.resident.size <= target) break;
      if (this.pins.has(k) || this.unconfirmed.has(k)) continue;
      this.resident.delete(k);
      const a = this.svm.getAccount(address(k));
      // Never one of LiteSVM's own (a program or sysvar is never written by a transaction; this is a guard).
      if (a.exists && (a.executable || a.programAddress === SYSVAR_OWNER)) continue;
      // Zero lamports: LiteSVM removes the account. Reads now come from the row, which holds the same state.
      if (a.exists) this.svm.setAccount({ address: address(k), programAddress: address(SYSTEM_PROGRAM), lamports: kitLamports(0n), data: new Uint8Array(0), executable: false, space: 0n });
      this.cache.delete(k);
    }
  }

  private confirming: Promise<void> | null = null;
  private confirmDelayMs = 20;

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

  /** What LiteSVM holds (tests and benchmarks). */
  workingSetStats() {
    return { resident: this.resident.size, pinned: this.pins.size, unconfirmed: this.unconfirmed.size, cached: this.cache.size, limit: this.workingSet };
  }

  /** The accounts a transaction names (fee payer, instruction accounts, programs). */
  private keysOf(tx: Transaction): string[] {
    const keys = new Set<string>([this.operator.toBase58(), (tx.feePayer ?? this.operator).toBase58()]);
    for (const ix of tx.instructions) {
      keys.add(ix.programId.toBase58());
      for (const m of ix.keys) keys.add(m.pubkey.toBase58());
    }
    return [...keys];
  }

  private hasDiscriminator(a: AccountSnapshot | null, discriminator: Uint8Array) {
    return !!a && a.owner === this.programId.toBase58() && discriminator.every((b, i) => a.data[i] === b);
  }

  // Program accounts by discriminator (the issuers, once per verification job): the committed rows
  // from the database's (owner, first 8 bytes) index, plus the accounts written but not committed yet
  // (a caller's open DB transaction), each read at its current state.
  protected async programAccounts(discriminator: Uint8Array) {
    const keys = new Set(await this.reader.keysByOwner(this.programId.toBase58(), discriminator));
    for (const k of this.unconfirmed) keys.add(k);
    for (const k of this.pins.keys()) keys.add(k);
    const out: { pubkey: PublicKey; data: Uint8Array }[] = [];
    for (const k of [...keys].sort()) {
      const a = await this.read(k);
      if (this.hasDiscriminator(a, discriminator)) out.push({ pubkey: new PublicKey(k), data: new Uint8Array(a!.data) });
    }
    return out;
  }

  /**
   * Every account `owner` owns, at its current state (JSON-RPC getProgramAccounts and the token
   * methods): the committed rows, with the accounts LiteSVM is ahead on read from it.
   */
  async accountsOwnedBy(owner: PublicKey): Promise<AccountSnapshot[]> {
    const o = owner.toBase58();
    const out = new Map<string, AccountSnapshot | null>();
    for (const r of await this.reader.rowsByOwner(o)) out.set(r.pubkey, this.resident.has(r.pubkey) ? this.snapshot(r.pubkey) : EmbeddedChain.fromRow(r));
    for (const k of [...this.unconfirmed, ...this.pins.keys()]) if (!out.has(k) && this.resident.has(k)) out.set(k, this.snapshot(k));
    return [...out.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, a]) => a)
      .filter((a): a is AccountSnapshot => !!a && a.owner === o);
  }

  // LiteSVM accepts only its latest blockhash, so it is kept until a transaction would repeat a
  // signature already used under it (identical instructions): then a new one is made. Blockhashes
  // handed to wallets (latestBlockhash) thus stay valid while they sign.
  private signaturesThisBlockhash = new Set<string>();

  private prepare(tx: Transaction, signers: Signer[]) {
    this.tick();
    const extra = signers.filter((s) => !s.publicKey.equals(this.operator));
    for (;;) {
      tx.feePayer = this.operator;
      tx.recentBlockhash = this.svm.latestBlockhash();
      signNatively(tx, [this.operatorKey, ...extra]);
      const sig = bs58.encode(tx.signature!);
      if (!this.signaturesThisBlockhash.has(sig)) break;
      this.rotateBlockhash();
    }
    // Signed here a moment ago: LiteSVM verifies every signature; web3.js's own check (in JavaScript) is not repeated.
    return this.wire(tx, false);
  }

  /**
   * Whether this process landed `signature` under the current blockhash — also while the caller's DB
   * transaction holding its `chain_transaction` row is not committed yet (JSON-RPC replay check).
   */
  hasRecentSignature(signature: string): boolean {
    return this.signaturesThisBlockhash.has(signature);
  }

  private wire(tx: Transaction, verifySignatures = true) {
    const msg = tx.compileMessage();
    const accountKeys = msg.accountKeys.map((k) => k.toBase58());
    const writable = accountKeys.filter((_, i) => msg.isAccountWritable(i));
    return { tx, wire: this.decoder.decode(tx.serialize({ verifySignatures })), accountKeys, writable, blockhash: tx.recentBlockhash };
  }

  /** Lamports of accounts a transaction has loaded (all resident or LiteSVM's own). */
  private lamportsOf(keys: string[]) {
    return keys.map((k) => Number(this.snapshot(k)?.lamports ?? 0n));
  }

  async simulate(tx: Transaction, signers: Signer[]) {
    return this.withAccounts(this.keysOf(tx), undefined, () => {
      const { wire } = this.prepare(tx, signers);
      const res = this.svm.simulateTransaction(wire as never);
      const meta = res instanceof FailedTransactionMetadata ? res.meta() : res.meta();
      return {
        ok: !(res instanceof FailedTransactionMetadata),
        logs: meta.logs(),
        error: res instanceof FailedTransactionMetadata ? String(res.err()) : null,
        computeUnits: Number(meta.computeUnitsConsumed()),
      };
    });
  }

  /**
   * JSON-RPC simulateTransaction and sendTransaction's preflight (server/src/json-rpc): runs a client's
   * serialized transaction exactly as given, changing nothing. `sigVerify: false` and
   * `replaceRecentBlockhash` are the RPC's options (web3.js simulates unsigned transactions).
   * Its accounts (and those of its address lookup tables) are loaded first.
   */
  async simulateWire(bytes: Uint8Array, opts: { sigVerify?: boolean; replaceRecentBlockhash?: boolean } = {}) {
    const wire = this.decoder.decode(bytes);
    const message = VersionedTransaction.deserialize(bytes).message;
    const lookups = message.addressTableLookups ?? [];
    const keys = [...message.staticAccountKeys.map((k) => k.toBase58()), ...lookups.map((l) => l.accountKey.toBase58())];
    return this.withAccounts(keys, undefined, () => {
      const looked: string[] = [];
      for (const l of lookups) {
        const table = this.snapshot(l.accountKey.toBase58());
        for (const i of [...l.writableIndexes, ...l.readonlyIndexes]) {
          const at = LOOKUP_TABLE_META_SIZE + 32 * i;
          if (table && at + 32 <= table.data.length) looked.push(bs58.encode(table.data.subarray(at, at + 32)));
        }
      }
      return this.withAccounts(looked, undefined, () => {
        const clock = this.svm.getClock();
        clock.unixTimestamp = BigInt(Math.floor(Date.now() / 1000));
        this.svm.setClock(clock);
        if (!opts.replaceRecentBlockhash && !this.isBlockhashValid(message.recentBlockhash)) {
          return { err: BLOCKHASH_NOT_FOUND, meta: null, postAccounts: null };
        }
        this.svm.withSigverify(opts.sigVerify ?? true);
        try {
          const res = this.svm.simulateTransaction(wire as never);
          if (res instanceof FailedTransactionMetadata) return { err: res.err(), meta: res.meta(), postAccounts: null };
          return { err: null, meta: res.meta(), postAccounts: res.postAccounts() };
        } finally {
          this.svm.withSigverify(true);
        }
      });
    });
  }

  async sendTransaction(tx: Transaction, signers: Signer[], o: TxOptions): Promise<ChainReceipt> {
    return this.withAccounts(this.keysOf(tx), o.db, () => this.execute(this.prepare(tx, signers), o));
  }

  /** A transaction already signed by everyone (e.g. a wallet-signed mint with the operator as payer). */
  async sendSignedTransaction(tx: Transaction, o: TxOptions): Promise<ChainReceipt> {
    return this.withAccounts(this.keysOf(tx), o.db, () => {
      this.tick();
      return this.execute(this.wire(tx), o);
    });
  }

  /** Runs a prepared transaction whose accounts are loaded and pinned (withAccounts), then persists it. */
  private async execute({ tx, wire, accountKeys, writable, blockhash }: ReturnType<EmbeddedChain['wire']>, o: TxOptions): Promise<ChainReceipt> {
    if (!this.isBlockhashValid(blockhash)) throw new ChainError('Transaction failed: Blockhash not found (it expired before it was sent); sign it again with a recent blockhash', null, 'BlockhashNotFound', []);
    const before = writable.map((k) => [k, this.snapshot(k)] as const);
    const preBalances = this.landedListeners.length ? this.lamportsOf(accountKeys) : [];
    const res = this.svm.sendTransaction(wire as never);
    // Only writable accounts can change (fees too); they are now LiteSVM's to answer for.
    for (const k of writable) this.touch(k);
    this.changed(writable);
    if (res instanceof FailedTransactionMetadata) {
      const logs = res.meta().logs();
      throw chainErrorFromLogs(`Transaction failed: ${String(res.err())}`, logs);
    }
    const meta = res as TransactionMetadata;
    const signature = bs58.encode(meta.signature());
    this.signaturesThisBlockhash.add(signature);
    // The blockhash otherwise never changes, so the set grew by one per transaction for the life of
    // the process: rotate it now and then (a real cluster's blockhash lasts ~1 minute anyway).
    if (this.signaturesThisBlockhash.size >= SIGNATURES_PER_BLOCKHASH) this.rotateBlockhash();
    const receipt: ChainReceipt = {
      signature,
      slot: Number(this.slot),
      logs: meta.logs(),
      computeUnits: Number(meta.computeUnitsConsumed()),
      undo: () => {
        for (const [k, snap] of before) this.restoreAccount(k, snap);
      },
    };
    const db = o.db ?? this.db;
    // Written in the caller's DB transaction: LiteSVM keeps these until the database has committed them.
    if (db.isTransaction) for (const k of writable) this.unconfirmed.add(k);
    // Accounts and the transaction row are written together: a failed insert must not leave the
    // accounts' new state behind in the database while LiteSVM is rolled back (a restart would then
    // load a transfer that never happened).
    const persist = async (trx: Kysely<Database>) => {
      await this.persistAccounts(writable, trx);
      await trx
        .insertInto('chain_transaction')
        .values({
          signature,
          slot: receipt.slot,
          status: 'success',
          kind: o.kind,
          certificate_id: o.certificateId ?? null,
          logs: JSON.stringify(receipt.logs),
          error: null,
          compute_units: receipt.computeUnits,
          created_at: new Date().toISOString(),
        })
        .execute();
    };
    try {
      if (db.isTransaction) await persist(db);
      else await db.transaction().execute(persist);
    } catch (e) {
      receipt.undo!(); // not persisted → not happened: the chain never runs ahead of the database
      throw e;
    }
    this.version++; // again: readers that cached during the DB write see the transaction row now
    if (this.landedListeners.length) {
      const landed = {
        signature,
        slot: receipt.slot,
        keys: [...new Set(accountKeys)],
        err: null,
        kind: o.kind,
        tx,
        accountKeys,
        preBalances,
        postBalances: this.lamportsOf(accountKeys),
        db,
      };
      for (const listener of [...this.landedListeners]) {
        try {
          await listener(landed);
        } catch (e) {
          console.warn('embedded chain: a landed-transaction listener failed', e);
        }
      }
    }
    return receipt;
  }

  /**
   * Puts an account back as it was before a transaction (undo). It stays in LiteSVM until the committed
   * row matches (after the caller's rollback it does at once).
   */
  private restoreAccount(pubkey: string, snap: AccountSnapshot | null) {
    this.svm.setAccount({
      address: address(pubkey),
      programAddress: address(snap?.owner ?? SYSTEM_PROGRAM),
      lamports: kitLamports(snap?.lamports ?? 0n),
      data: snap?.data ?? new Uint8Array(0),
      executable: snap?.executable ?? false,
      space: BigInt(snap?.data.length ?? 0),
    });
    this.touch(pubkey);
    this.unconfirmed.add(pubkey);
    this.changed([pubkey]);
    this.scheduleConfirm();
  }

  /** Writes the *current* state of each account, so a late writer never stores a stale copy. */
  private async persistAccounts(pubkeys: string[], db: Kysely<Database>) {
    const now = new Date().toISOString();
    for (const k of pubkeys) {
      const a = this.snapshot(k);
      if (!a || a.lamports === 0n) {
        await db.deleteFrom('chain_account').where('pubkey', '=', k).execute();
        continue;
      }
      if (a.executable) continue; // programs are loaded from the committed binary, not the DB
      const row = { owner: a.owner, lamports: a.lamports.toString(), data: Buffer.from(a.data), executable: 0, rent_epoch: '0', updated_at: now };
      await db.insertInto('chain_account').values({ pubkey: k, ...row }).onConflict((c) => c.column('pubkey').doUpdateSet(row)).execute();
    }
    const slot = this.slot.toString();
    await db.insertInto('chain_meta').values({ key: 'slot', value: slot }).onConflict((c) => c.column('key').doUpdateSet({ value: slot })).execute();
  }

  private closed = false;

  async close() {
    this.closed = true;
    this.reader.close();
  }
}
