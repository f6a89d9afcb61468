import fs from 'node:fs';
import { type Keypair, PublicKey, type Signer, type Transaction, VersionedTransaction } from '@solana/web3.js';
import { LiteSVM, FailedTransactionMetadata, type TransactionMetadata } from 'litesvm';
// litesvm 1.x takes @solana/kit transactions (simulateWire, a client's, possibly versioned); its kit decodes the wire.
import { address, getTransactionDecoder, lamports as kitLamports } from './kit';
import bs58 from 'bs58';
import type { Insertable, Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { detachedFromTransaction } from '../../db/sqlite-guard';
import { BaseChain } from './base';
import { kyselyReader, sqliteReader, type RowMatch } from './embedded-account-reader';
import { EmbeddedAccounts, WORKING_SET_ACCOUNTS, accountExists, sameState } from './embedded-accounts';
import { BlockhashWindow, SIGNING_WINDOW_MS } from './embedded-blockhashes';
import { compileAndSign, compileSigned, type CompiledTx } from './compiled-tx';
import { NativeSvm } from './svm-native';
import { ChainError, chainErrorFromLogs, type AccountSnapshot, type ChainReceipt, type ChainRecords, type LandedListener, type SigningBlockhash, type TxOptions } from './types';

// The embedded chain in parts: embedded-accounts.ts (which accounts LiteSVM holds, and reads),
// embedded-account-reader.ts (committed rows, SQLite or PostgreSQL), embedded-blockhashes.ts (the
// window of valid blockhashes), compiled-tx.ts (a transaction compiled and signed once), svm-native.ts
// (LiteSVM's binding, in bytes). This file runs transactions and persists them.
export { WORKING_SET_ACCOUNTS } from './embedded-accounts';
export { BLOCKHASH_VALID_MS, SIGNING_WINDOW_MS } from './embedded-blockhashes';

/**
 * The embedded fee payer's reserve: start-up refills the operator when it is below this, and the
 * JSON-RPC faucet (rpc/methods.ts requestAirdrop) never takes it below this. One constant for both.
 */
export const OPERATOR_RESERVE_LAMPORTS = 100n * 1_000_000_000n;
const SIGNATURES_PER_BLOCKHASH = 10_000;
/** LiteSVM's TransactionError discriminant for BlockhashNotFound (see server/src/json-rpc/errors.ts). */
const BLOCKHASH_NOT_FOUND = 7;
/** An address lookup table's addresses start after its 56-byte header. */
const LOOKUP_TABLE_META_SIZE = 56;

/** As litesvm's own sendTransaction checked before it ran anything (a missing signature is zeros on the wire). */
function refuseUnsigned(tx: Transaction) {
  const unsigned = tx.signatures.filter((s) => !s.signature).map((s) => s.publicKey.toBase58());
  if (unsigned.length) throw new Error(`Transaction is missing signatures for addresses: ${unsigned.join(', ')}`);
}

/**
 * The embedded chain: LiteSVM in-process running the committed program. Accounts live in the
 * `chain_account` table; every successful transaction writes the accounts it changed, in the
 * caller's DB transaction when one is passed. Nothing is loaded at start: a transaction's accounts are
 * loaded into LiteSVM before it runs (its account keys are known), reads come from LiteSVM for the
 * accounts it holds and from the database otherwise, and LiteSVM keeps a bounded working set
 * (WORKING_SET_ACCOUNTS, least recently used out).
 */
export class EmbeddedChain extends BaseChain {
  readonly mode = 'embedded' as const;
  private svm: LiteSVM;
  /** The same LiteSVM, for account reads and writes and transactions in bytes (svm-native.ts). */
  private readonly native: NativeSvm;
  /** The operator's address in base58, as account keys are compared (once: every transaction asks). */
  private readonly operatorAddress: string;
  private slot = 1n;
  private decoder = getTransactionDecoder();
  private readonly accounts: EmbeddedAccounts;
  private readonly blockhashes = new BlockhashWindow();

  private constructor(
    programId: PublicKey,
    operator: Keypair,
    private readonly db: Kysely<Database>,
    svm: LiteSVM,
    opts: { sqliteFile?: string; workingSet?: number; readCacheBytes?: number },
  ) {
    super(programId, operator);
    this.operatorAddress = operator.publicKey.toBase58();
    this.svm = svm;
    this.native = NativeSvm.of(svm);
    const reader = opts.sqliteFile ? sqliteReader(opts.sqliteFile) : kyselyReader(db);
    this.accounts = new EmbeddedAccounts(this.native, reader, opts.workingSet ?? WORKING_SET_ACCOUNTS, opts.readCacheBytes);
  }

  /**
   * `sqliteFile`: the SQLite database behind `db` (reads then use their own read-only connection);
   * without it (PostgreSQL) reads go through `db`.
   */
  static async start(p: { db: Kysely<Database>; programId: PublicKey; programPath: string; operator: Keypair; sqliteFile?: string; workingSet?: number; readCacheBytes?: number }): Promise<EmbeddedChain> {
    if (!fs.existsSync(p.programPath)) {
      throw new Error(`Program binary not found at ${p.programPath} (ATTESTA_PROGRAM_PATH). Build it with \`npm run build:program\`.`);
    }
    // Blockhashes are checked here (a window of recent ones, `isBlockhashValid`), not by LiteSVM,
    // which accepts only its latest: a wallet's blockhash must stay usable while the next one is made.
    const svm = new LiteSVM().withBlockhashCheck(false);
    svm.addProgram(address(p.programId.toBase58()), fs.readFileSync(p.programPath));
    const chain = new EmbeddedChain(p.programId, p.operator, p.db, svm, { sqliteFile: p.sqliteFile, workingSet: p.workingSet, readCacheBytes: p.readCacheBytes });
    await chain.restore();
    return chain;
  }

  /** The slot, the recent blockhashes and the operator's balance: no account is loaded but the operator's. */
  private async restore() {
    const meta = await this.db.selectFrom('chain_meta').select('value').where('key', '=', 'slot').executeTakeFirst();
    if (meta) this.slot = BigInt(meta.value);
    this.tick();
    const saved = await this.db.selectFrom('chain_meta').select('value').where('key', '=', 'recent_blockhashes').executeTakeFirst();
    if (saved) this.blockhashes.load(saved.value);
    this.blockhashes.noteLatest(this.svm.latestBlockhash());
    const op = this.operatorAddress;
    await this.accounts.withLoaded([op], undefined, async () => {
      if (this.refillOperator()) await this.persistAccounts([op], this.db);
    });
  }

  /**
   * The platform pays every anchor's rent and fees. Lamports cost nothing on this chain, so an operator
   * below its reserve is given ten times the reserve again — at start, and before any transaction it
   * pays for: a server that ran on without a restart otherwise found it empty after ~430,000
   * certificates (InsufficientFundsForRent for every new one). Whether it did (the account changed).
   */
  private refillOperator(): boolean {
    const op = this.operatorAddress;
    if ((this.native.getBalance(op) ?? 0n) >= OPERATOR_RESERVE_LAMPORTS) return false;
    this.svm.airdrop(address(op), kitLamports(OPERATOR_RESERVE_LAMPORTS * 10n));
    this.accounts.changed([op]);
    return true;
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

  private rotateBlockhash() {
    this.svm.expireBlockhash();
    this.signaturesThisBlockhash.clear();
    this.blockhashes.noteLatest(this.svm.latestBlockhash());
    // Kept across restarts: a transaction a wallet signed just before one (a mint) still lands after it.
    const value = this.blockhashes.serialize();
    // Not awaited, and a caller's transaction may be what ticked the chain: this write waits its turn.
    detachedFromTransaction(() => this.db.insertInto('chain_meta').values({ key: 'recent_blockhashes', value }).onConflict((c) => c.column('key').doUpdateSet({ value })).execute())
      .catch((e) => console.warn('embedded chain: could not save recent blockhashes', e));
  }

  async latestBlockhash() {
    if (this.blockhashes.dueForRotation()) this.rotateBlockhash();
    return this.svm.latestBlockhash();
  }

  async signingBlockhash(): Promise<SigningBlockhash> {
    return { blockhash: await this.latestBlockhash(), lastValidBlockHeight: null, expiresAt: Date.now() + SIGNING_WINDOW_MS };
  }

  async blockhashExpired(a: { expiresAt: number }) {
    return Date.now() > a.expiresAt;
  }

  /** Whether a transaction naming `blockhash` may still land. */
  isBlockhashValid(blockhash: string | null | undefined): boolean {
    return this.blockhashes.isValid(blockhash);
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

  // ---- Accounts (embedded-accounts.ts) ----

  override stateVersion() {
    return this.accounts.stateVersion();
  }

  async getAccountInfo(pubkey: PublicKey) {
    return this.accounts.read(pubkey.toBase58());
  }

  /** What LiteSVM holds (tests and benchmarks). */
  workingSetStats() {
    return this.accounts.stats();
  }

  /**
   * The program's records as `db` (a caller's transaction) has them committed in `chain_account`,
   * rather than as LiteSVM holds them (it runs ahead of the database while a transaction persists):
   * what the public verdict store computes from, in the same transaction as it reads the rest.
   */
  committedRecords(db: Kysely<Database>): ChainRecords {
    const get = async (pk: PublicKey): Promise<AccountSnapshot | null> => {
      const r = await db.selectFrom('chain_account').select(['pubkey', 'owner', 'lamports', 'data']).where('pubkey', '=', pk.toBase58()).executeTakeFirst();
      return r ? { pubkey: r.pubkey, owner: r.owner, lamports: BigInt(r.lamports), data: new Uint8Array(r.data), executable: false } : null;
    };
    return {
      mode: this.mode,
      programId: this.programId,
      now: () => this.now(),
      readCertificateRecord: (hash, stored) => this.certificateRecordVia(get, hash, stored),
      readIssuer: (authority) => this.issuerVia(get, authority),
      certificateAddress: (hash) => this.certificateAddress(hash),
      issuerAddress: (authority) => this.issuerAddress(authority),
    };
  }

  /** Releases the accounts whose writes are committed now (see EmbeddedAccounts.settle). */
  settleWorkingSet() {
    return this.accounts.settle();
  }

  /** The accounts a transaction names (fee payer, instruction accounts, programs). */
  private keysOf(tx: Transaction): string[] {
    const keys = new Set<string>([this.operatorAddress, (tx.feePayer ?? this.operator).toBase58()]);
    for (const ix of tx.instructions) {
      keys.add(ix.programId.toBase58());
      for (const m of ix.keys) keys.add(m.pubkey.toBase58());
    }
    return [...keys];
  }

  private hasDiscriminator(a: AccountSnapshot | null, discriminator: Uint8Array) {
    return !!a && a.owner === this.programId.toBase58() && discriminator.every((b, i) => a.data[i] === b);
  }

  // Program accounts by discriminator (the issuers, once per verification job), each read at its current state.
  protected async programAccounts(discriminator: Uint8Array) {
    const keys = await this.accounts.keysOwnedBy(this.programId.toBase58(), discriminator);
    const out: { pubkey: PublicKey; data: Uint8Array }[] = [];
    for (const k of [...keys].sort()) {
      const a = await this.accounts.read(k);
      if (this.hasDiscriminator(a, discriminator)) out.push({ pubkey: new PublicKey(k), data: new Uint8Array(a!.data) });
    }
    return out;
  }

  /**
   * The accounts `owner` owns whose rows pass `match`, at their current state, in key order, read a
   * page at a time (JSON-RPC getProgramAccounts and the token methods stop reading when their answer is
   * full): the committed rows, with the accounts LiteSVM is ahead on read from it.
   */
  scanOwnedBy(owner: PublicKey, match: RowMatch = { bytes: [] }): AsyncGenerator<AccountSnapshot> {
    return this.accounts.scan(owner.toBase58(), match);
  }

  // LiteSVM accepts only its latest blockhash, so it is kept until a transaction would repeat a
  // signature already used under it (identical instructions): then a new one is made. Blockhashes
  // handed to wallets (latestBlockhash) thus stay valid while they sign.
  private signaturesThisBlockhash = new Set<string>();

  private prepare(tx: Transaction, signers: Signer[]) {
    this.tick();
    // A current blockhash, as a cluster's client asks for one per transaction: the latest is rotated
    // only when someone asks (latestBlockhash), and one nobody replaced for BLOCKHASH_VALID_MS is no
    // longer valid — the server's own transactions named it and were refused.
    if (this.blockhashes.dueForRotation()) this.rotateBlockhash();
    const extra = signers.filter((s) => !s.publicKey.equals(this.operator));
    for (;;) {
      tx.feePayer = this.operator;
      tx.recentBlockhash = this.svm.latestBlockhash();
      // Signed here: LiteSVM verifies every signature; web3.js's own check (in JavaScript) is not repeated.
      const compiled = compileAndSign(tx, [this.operatorKey, ...extra]);
      if (!this.signaturesThisBlockhash.has(bs58.encode(tx.signature!))) return compiled;
      this.rotateBlockhash();
    }
  }

  /**
   * Whether this process landed `signature` under the current blockhash — also while the caller's DB
   * transaction holding its `chain_transaction` row is not committed yet (JSON-RPC replay check).
   */
  hasRecentSignature(signature: string): boolean {
    return this.signaturesThisBlockhash.has(signature);
  }

  /** Lamports of accounts a transaction has loaded (all resident or LiteSVM's own). */
  private lamportsOf(keys: string[]) {
    return keys.map((k) => Number(this.accounts.balance(k)));
  }

  async simulate(tx: Transaction, signers: Signer[]) {
    return this.accounts.withLoaded(this.keysOf(tx), undefined, () => {
      const prepared = this.prepare(tx, signers);
      refuseUnsigned(prepared.tx);
      const res = this.native.simulateLegacy(prepared.wire);
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
    return this.accounts.withLoaded(keys, undefined, () => {
      const looked: string[] = [];
      for (const l of lookups) {
        const table = this.accounts.snapshot(l.accountKey.toBase58());
        for (const i of [...l.writableIndexes, ...l.readonlyIndexes]) {
          const at = LOOKUP_TABLE_META_SIZE + 32 * i;
          if (table && at + 32 <= table.data.length) looked.push(bs58.encode(table.data.subarray(at, at + 32)));
        }
      }
      return this.accounts.withLoaded(looked, undefined, () => {
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
    return this.accounts.withLoaded(this.keysOf(tx), o.db, () => this.execute(this.prepare(tx, signers), o));
  }

  /** A transaction already signed by everyone (e.g. a wallet-signed mint with the operator as payer). */
  async sendSignedTransaction(tx: Transaction, o: TxOptions): Promise<ChainReceipt> {
    return this.accounts.withLoaded(this.keysOf(tx), o.db, () => {
      this.tick();
      // Its signatures are checked as a validator checks them: by LiteSVM, when it runs.
      return this.execute(compileSigned(tx), o);
    });
  }

  /** Runs a prepared transaction whose accounts are loaded and pinned (withAccounts), then persists it. */
  private async execute({ tx, wire, accountKeys, writable, blockhash, fee }: CompiledTx, o: TxOptions): Promise<ChainReceipt> {
    refuseUnsigned(tx);
    if (!this.isBlockhashValid(blockhash)) throw new ChainError('Transaction failed: Blockhash not found (it expired before it was sent); sign it again with a recent blockhash', null, 'BlockhashNotFound', []);
    const before = writable.map((k) => [k, this.accounts.snapshot(k)] as const);
    // Refilled in the transaction's own write: persisted with it, taken back by its undo.
    if (accountKeys[0] === this.operatorAddress) this.refillOperator();
    const preBalances = this.landedListeners.length ? this.lamportsOf(accountKeys) : [];
    const res = this.native.sendLegacy(wire);
    // Only writable accounts can change (fees too); they are now LiteSVM's to answer for.
    this.accounts.written(writable);
    if (res instanceof FailedTransactionMetadata) {
      const logs = res.meta().logs();
      throw chainErrorFromLogs(`Transaction failed: ${String(res.err())}`, logs);
    }
    const meta = res as TransactionMetadata;
    // What it changed is written, and taken back by its undo: anyone can name any account writable, and
    // a row rewritten unchanged still takes away the stored verdicts that read it (the triggers).
    const changed = before.filter(([k, snap]) => !sameState(snap, this.accounts.snapshot(k)));
    const changedKeys = changed.map(([k]) => k);
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
        for (const [k, snap] of changed) this.accounts.putBack(k, snap);
      },
    };
    const db = o.db ?? this.db;
    // Written in the caller's DB transaction: LiteSVM keeps these until the database has committed them.
    if (db.isTransaction) this.accounts.holdUntilCommitted(changedKeys);
    // Accounts and the transaction row are written together: a failed insert must not leave the
    // accounts' new state behind in the database while LiteSVM is rolled back (a restart would then
    // load a transfer that never happened).
    const persist = async (trx: Kysely<Database>) => {
      await this.persistAccounts(changedKeys, trx);
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
    this.accounts.changed(); // again: readers that cached during the DB write see the transaction row now
    if (this.landedListeners.length) {
      const landed = {
        signature,
        slot: receipt.slot,
        keys: [...new Set(accountKeys)],
        err: null,
        kind: o.kind,
        tx,
        wire,
        fee,
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
   * Writes the *current* state of each account, so a late writer never stores a stale copy: each
   * statement's accounts are read from LiteSVM just before it is sent, never across an await (another
   * transaction may run meanwhile and commit its own write first; on PostgreSQL its connection does not
   * wait for ours until our statement holds the row: a copy read before an await would then overwrite it).
   */
  private async persistAccounts(pubkeys: string[], db: Kysely<Database>) {
    // One statement for the accounts gone and one for the rest: a statement per account was a round
    // trip each to PostgreSQL (#15).
    const gone = pubkeys.filter((k) => !accountExists(this.accounts.snapshot(k)));
    if (gone.length) await db.deleteFrom('chain_account').where('pubkey', 'in', gone).execute();
    const now = new Date().toISOString();
    const rows: Insertable<Database['chain_account']>[] = [];
    for (const k of pubkeys) {
      const a = this.accounts.snapshot(k);
      // (Programs are loaded from the committed binary, not the DB.)
      if (accountExists(a) && !a.executable) rows.push({ pubkey: k, owner: a.owner, lamports: a.lamports.toString(), data: Buffer.from(a.data), executable: 0, rent_epoch: '0', updated_at: now });
    }
    if (rows.length) {
      await db
        .insertInto('chain_account')
        .values(rows)
        .onConflict((c) =>
          c.column('pubkey').doUpdateSet((eb) => ({
            owner: eb.ref('excluded.owner'),
            lamports: eb.ref('excluded.lamports'),
            data: eb.ref('excluded.data'),
            executable: eb.ref('excluded.executable'),
            rent_epoch: eb.ref('excluded.rent_epoch'),
            updated_at: eb.ref('excluded.updated_at'),
          })),
        )
        .execute();
    }
    const slot = this.slot.toString();
    await db.insertInto('chain_meta').values({ key: 'slot', value: slot }).onConflict((c) => c.column('key').doUpdateSet({ value: slot })).execute();
  }

  async close() {
    this.accounts.close();
  }
}
