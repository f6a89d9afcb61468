import fs from 'node:fs';
import { type Keypair, PublicKey, type Signer, type Transaction, VersionedTransaction } from '@solana/web3.js';
import { LiteSVM, FailedTransactionMetadata, type TransactionMetadata } from 'litesvm';
// litesvm 1.x takes @solana/kit transactions; its kit decodes a serialized web3.js v1 transaction.
import { address, getTransactionDecoder, lamports as kitLamports } from '@solana/kit';
import bs58 from 'bs58';
import type { Kysely } from 'kysely';
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
 * The embedded chain: LiteSVM in-process running the committed program. Accounts live in the
 * `chain_account` table; every successful transaction writes the accounts it could change, in the
 * caller's DB transaction when one is passed, and the whole set is loaded back on start.
 */
export class EmbeddedChain extends BaseChain {
  readonly mode = 'embedded' as const;
  private svm: LiteSVM;
  private slot = 1n;
  private decoder = getTransactionDecoder();

  private constructor(
    programId: PublicKey,
    operator: Keypair,
    private readonly db: Kysely<Database>,
    svm: LiteSVM,
  ) {
    super(programId, operator);
    this.svm = svm;
  }

  static async start(p: { db: Kysely<Database>; programId: PublicKey; programPath: string; operator: Keypair }): Promise<EmbeddedChain> {
    if (!fs.existsSync(p.programPath)) {
      throw new Error(`Program binary not found at ${p.programPath} (ATTESTA_PROGRAM_PATH). Build it with \`npm run build:program\`.`);
    }
    // Blockhashes are checked here (a window of recent ones, `isBlockhashValid`), not by LiteSVM,
    // which accepts only its latest: a wallet's blockhash must stay usable while the next one is made.
    const svm = new LiteSVM().withBlockhashCheck(false);
    svm.addProgram(address(p.programId.toBase58()), fs.readFileSync(p.programPath));
    const chain = new EmbeddedChain(p.programId, p.operator, p.db, svm);
    await chain.restore();
    return chain;
  }

  private async restore() {
    const rows = await this.db.selectFrom('chain_account').selectAll().execute();
    for (const r of rows) {
      this.svm.setAccount({
        address: address(r.pubkey),
        programAddress: address(r.owner),
        lamports: kitLamports(BigInt(r.lamports)),
        data: new Uint8Array(r.data),
        executable: r.executable === 1,
        space: BigInt(r.data.length),
      });
    }
    const meta = await this.db.selectFrom('chain_meta').select('value').where('key', '=', 'slot').executeTakeFirst();
    if (meta) this.slot = BigInt(meta.value);
    this.tick();
    const saved = await this.db.selectFrom('chain_meta').select('value').where('key', '=', 'recent_blockhashes').executeTakeFirst();
    for (const [h, at] of saved ? (JSON.parse(saved.value) as [string, number][]) : []) this.blockhashes.set(h, at);
    this.noteLatestBlockhash();
    const balance = this.svm.getBalance(address(this.operator.toBase58())) ?? 0n;
    if (balance < OPERATOR_RESERVE_LAMPORTS) {
      this.svm.airdrop(address(this.operator.toBase58()), kitLamports(OPERATOR_RESERVE_LAMPORTS * 10n));
      this.cache.clear();
      await this.persistAccounts([this.operator.toBase58()], this.db);
    }
  }

  /** Advance the slot and set the clock to wall time, so timestamps and expiry are real. */
  private tick() {
    this.slot += 1n;
    this.svm.warpToSlot(this.slot);
    const clock = this.svm.getClock();
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

  // Reads are served from a cache that every state change in this process invalidates exactly
  // (transactions, undo, airdrop): LiteSVM is only ever changed through this class.
  private cache = new Map<string, AccountSnapshot | null>();
  private version = 0;
  override stateVersion() {
    return this.version;
  }

  private cached(pubkey: string): AccountSnapshot | null {
    if (this.cache.has(pubkey)) return this.cache.get(pubkey)!;
    const v = this.snapshot(pubkey);
    if (this.cache.size > 20_000) this.cache.clear();
    this.cache.set(pubkey, v);
    return v;
  }

  private snapshot(pubkey: string): AccountSnapshot | null {
    const a = this.svm.getAccount(address(pubkey));
    if (!a.exists) return null;
    return { pubkey, owner: a.programAddress, lamports: a.lamports, data: a.data, executable: a.executable };
  }

  async getAccountInfo(pubkey: PublicKey) {
    return this.cached(pubkey.toBase58());
  }

  // Program accounts by discriminator (the issuers, once per verification job). LiteSVM's
  // getProgramAccounts copies every certificate record out synchronously (measured ~20 ms at 250
  // certificates, ~300 ms at 2,000: the soak's growing p99), so only the first call scans; after it
  // the key sets are kept exact from the accounts each state change writes (`track`).
  private byDiscriminator = new Map<string, Set<string>>();

  private hasDiscriminator(a: AccountSnapshot | null, discriminator: Uint8Array) {
    return !!a && a.owner === this.programId.toBase58() && discriminator.every((b, i) => a.data[i] === b);
  }

  protected async programAccounts(discriminator: Uint8Array) {
    const tag = Buffer.from(discriminator).toString('hex');
    let keys = this.byDiscriminator.get(tag);
    if (!keys) {
      keys = new Set(
        this.svm
          .getProgramAccounts(address(this.programId.toBase58()))
          .filter((a) => discriminator.every((b, i) => a.data[i] === b))
          .map((a) => a.address as string),
      );
      this.byDiscriminator.set(tag, keys);
    }
    const out: { pubkey: PublicKey; data: Uint8Array }[] = [];
    for (const k of [...keys].sort()) {
      const a = this.cached(k);
      if (this.hasDiscriminator(a, discriminator)) out.push({ pubkey: new PublicKey(k), data: new Uint8Array(a!.data) });
    }
    return out;
  }

  /** Keeps the discriminator key sets exact after `pubkeys` changed (only writable accounts can). */
  private track(pubkeys: Iterable<string>) {
    if (!this.byDiscriminator.size) return;
    for (const k of pubkeys) {
      const a = this.snapshot(k);
      for (const [tag, keys] of this.byDiscriminator) {
        if (this.hasDiscriminator(a, Buffer.from(tag, 'hex'))) keys.add(k);
        else keys.delete(k);
      }
    }
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
      tx.sign(this.operatorKey, ...extra);
      const sig = bs58.encode(tx.signature!);
      if (!this.signaturesThisBlockhash.has(sig)) break;
      this.rotateBlockhash();
    }
    return this.wire(tx);
  }

  /**
   * Whether this process landed `signature` under the current blockhash — also while the caller's DB
   * transaction holding its `chain_transaction` row is not committed yet (JSON-RPC replay check).
   */
  hasRecentSignature(signature: string): boolean {
    return this.signaturesThisBlockhash.has(signature);
  }

  private wire(tx: Transaction) {
    const msg = tx.compileMessage();
    const accountKeys = msg.accountKeys.map((k) => k.toBase58());
    const writable = accountKeys.filter((_, i) => msg.isAccountWritable(i));
    return { tx, wire: this.decoder.decode(tx.serialize()), accountKeys, writable, blockhash: tx.recentBlockhash };
  }

  private lamportsOf(keys: string[]) {
    return keys.map((k) => Number(this.cached(k)?.lamports ?? 0n));
  }

  async simulate(tx: Transaction, signers: Signer[]) {
    const { wire } = this.prepare(tx, signers);
    const res = this.svm.simulateTransaction(wire as never);
    const meta = res instanceof FailedTransactionMetadata ? res.meta() : res.meta();
    return {
      ok: !(res instanceof FailedTransactionMetadata),
      logs: meta.logs(),
      error: res instanceof FailedTransactionMetadata ? String(res.err()) : null,
      computeUnits: Number(meta.computeUnitsConsumed()),
    };
  }

  /**
   * JSON-RPC simulateTransaction and sendTransaction's preflight (server/src/json-rpc): runs a client's
   * serialized transaction exactly as given, changing nothing. `sigVerify: false` and
   * `replaceRecentBlockhash` are the RPC's options (web3.js simulates unsigned transactions).
   */
  simulateWire(bytes: Uint8Array, opts: { sigVerify?: boolean; replaceRecentBlockhash?: boolean } = {}) {
    const clock = this.svm.getClock();
    clock.unixTimestamp = BigInt(Math.floor(Date.now() / 1000));
    this.svm.setClock(clock);
    const wire = this.decoder.decode(bytes);
    if (!opts.replaceRecentBlockhash && !this.isBlockhashValid(VersionedTransaction.deserialize(bytes).message.recentBlockhash)) {
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
  }

  async sendTransaction(tx: Transaction, signers: Signer[], o: TxOptions): Promise<ChainReceipt> {
    return this.execute(this.prepare(tx, signers), o);
  }

  /** A transaction already signed by everyone (e.g. a wallet-signed mint with the operator as payer). */
  async sendSignedTransaction(tx: Transaction, o: TxOptions): Promise<ChainReceipt> {
    this.tick();
    return this.execute(this.wire(tx), o);
  }

  private async execute({ tx, wire, accountKeys, writable, blockhash }: ReturnType<EmbeddedChain['wire']>, o: TxOptions): Promise<ChainReceipt> {
    if (!this.isBlockhashValid(blockhash)) throw new ChainError('Transaction failed: Blockhash not found (it expired before it was sent); sign it again with a recent blockhash', null, 'BlockhashNotFound', []);
    const before = writable.map((k) => [k, this.snapshot(k)] as const);
    const preBalances = this.landedListeners.length ? this.lamportsOf(accountKeys) : [];
    const res = this.svm.sendTransaction(wire as never);
    this.cache.clear(); // fees and writes: drop everything (cheap; reads repopulate)
    this.version++;
    if (res instanceof FailedTransactionMetadata) {
      const logs = res.meta().logs();
      throw chainErrorFromLogs(`Transaction failed: ${String(res.err())}`, logs);
    }
    this.track(writable);
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

  private restoreAccount(pubkey: string, snap: AccountSnapshot | null) {
    this.cache.delete(pubkey);
    this.version++;
    this.svm.setAccount({
      address: address(pubkey),
      programAddress: address(snap?.owner ?? '11111111111111111111111111111111'),
      lamports: kitLamports(snap?.lamports ?? 0n),
      data: snap?.data ?? new Uint8Array(0),
      executable: snap?.executable ?? false,
      space: BigInt(snap?.data.length ?? 0),
    });
    this.track([pubkey]);
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

  async close() {}
}
