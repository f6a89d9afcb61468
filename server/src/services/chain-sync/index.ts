import { PublicKey, VersionedTransaction, type ConfirmedSignatureInfo, type Connection, type VersionedTransactionResponse } from '@solana/web3.js';
import { decodeIssuer, ISSUER_DISCRIMINATOR } from '../../../../shared/program/codec';
import { sha256sOfRecords } from '../../db/certificates';
import { announceInstitutionChange } from '../issuers/certificates';
import type { LandedTransaction } from '../chain/types';
import type { Services } from '../index';
import { reconcileCertificate } from './reconcile';

export { chainChange, chainDecision, describeKey, reconcileCertificate, rowUpdateOf, type RowChange } from './reconcile';

/** A transaction the embedded chain landed: the accounts it names and who sent it (`rpc_send` for anything sent through /rpc). */
type LandedTx = Pick<LandedTransaction, 'slot' | 'keys' | 'kind' | 'signature'>;

/** Embedded chain: the last slot whose /rpc transactions are all applied. */
const CURSOR_KEY = 'chain_sync_cursor';
/** RPC chain: the newest program signature up to which every transaction is applied. */
const RPC_CURSOR_KEY = 'chain_sync_rpc_cursor';
const BATCH = 500;

export interface ChainSyncOptions {
  /** RPC chain: how often the program's signatures are polled. */
  intervalMs: number;
  /** RPC chain: the cluster's JSON-RPC. */
  connection?: Connection;
  /**
   * The backstop: every `intervalMs`, the next `batch` rows that are not final (pending, verified,
   * rejected) are reconciled with their record, in a slow cycle over all of them, whatever the
   * follower saw or missed (a transaction an RPC never returned, a listener that failed). False: off.
   */
  backstop?: { intervalMs: number; batch: number } | false;
  /**
   * RPC chain: a signature whose transaction the RPC cannot return yet (a load-balanced node a moment
   * behind the one that listed it) is retried at later polls; the cursor stays before it. After at
   * least `polls` polls and `ms` milliseconds the follower moves on without it (the backstop covers it).
   */
  unfetched?: { polls: number; ms: number };
  /** Embedded chain: how many /rpc transactions the catch-up at start reads a page (tests make it small). */
  catchUpBatch?: number;
}

const DEFAULT_BACKSTOP = { intervalMs: 60_000, batch: 300 };
const DEFAULT_UNFETCHED = { polls: 10, ms: 120_000 };

/** The accounts a transaction sent through /rpc names, from its wire bytes (the journal keeps them). */
function accountKeysOf(wire: Uint8Array): string[] {
  return VersionedTransaction.deserialize(wire).message.staticAccountKeys.map((k) => k.toBase58());
}

/** Every account a transaction loads: the message's own keys and, for version-0 transactions, those of its address lookup tables. */
export function accountsOf(tx: Pick<VersionedTransactionResponse, 'transaction' | 'meta'>): string[] {
  const b58 = (k: PublicKey | string) => (typeof k === 'string' ? k : k.toBase58());
  const loaded = tx.meta?.loadedAddresses;
  return [...tx.transaction.message.staticAccountKeys.map(b58), ...(loaded?.writable ?? []).map(b58), ...(loaded?.readonly ?? []).map(b58)];
}

/**
 * Keeps certificate rows in line with changes made on chain by others (see ./reconcile.ts).
 *
 * Embedded chain: every transaction sent through /rpc names its accounts; rows whose record is
 * among them are reconciled right after it lands (the server's own flows write their rows
 * themselves, in the same database transaction). At start, transactions of that kind since the
 * saved cursor are replayed, in case the process died in between.
 * RPC chain: the program's signatures are polled (`getSignaturesForAddress`) every `intervalMs`, and
 * each transaction's accounts (with those of its address lookup tables) are matched the same way; the
 * cursor never passes a signature whose transaction could not be fetched yet.
 * Both: the backstop reconciles every non-final row in a slow cycle, a bounded batch at a time.
 */
export class ChainSync {
  private queue: Promise<unknown> = Promise.resolve();
  private timers: NodeJS.Timeout[] = [];
  private stopped = false;
  private unsubscribe: (() => void) | null = null;
  /** RPC: signatures after the cursor already applied (not fetched again while the cursor waits behind one). */
  private applied = new Set<string>();
  /** RPC: signatures whose transaction the RPC has not returned yet: since when, and how many polls. */
  private unfetched = new Map<string, { since: number; polls: number }>();
  /** Backstop: the id after which its next batch starts ('' = from the start). */
  private backstopAfter = '';

  constructor(
    private readonly svc: Pick<Services, 'chain' | 'db' | 'bus'>,
    private readonly opts: ChainSyncOptions,
  ) {}

  async start() {
    if (this.svc.chain.mode === 'embedded') {
      await this.catchUpEmbedded();
      this.unsubscribe = this.svc.chain.onLanded((tx) => {
        if (tx.kind === 'rpc_send') this.enqueue(() => this.onLanded(tx));
      });
    } else {
      await this.pollRpc().catch((e) => console.warn('chain sync:', (e as Error).message));
      this.every(this.opts.intervalMs, () => this.pollRpc());
    }
    const backstop = this.opts.backstop ?? DEFAULT_BACKSTOP;
    if (backstop) this.every(backstop.intervalMs, () => this.backstop(backstop.batch));
  }

  /** Resolves when everything queued so far has been applied (tests, shutdown). */
  idle(): Promise<void> {
    return this.queue.then(() => undefined);
  }

  async stop() {
    this.stopped = true;
    this.unsubscribe?.();
    for (const t of this.timers) clearInterval(t);
    await this.idle();
  }

  private every(ms: number, fn: () => Promise<unknown>) {
    const t = setInterval(() => this.enqueue(fn), ms);
    t.unref();
    this.timers.push(t);
  }

  private enqueue(fn: () => Promise<unknown>) {
    this.queue = this.queue.then(() => (this.stopped ? undefined : fn())).catch((e) => console.warn('chain sync:', (e as Error).message));
  }

  /** `signature`: the transaction that named these accounts (the certificates' history names it). */
  private async reconcileKeys(keys: string[], signature: string | null = null) {
    for (const sha256 of await sha256sOfRecords(this.svc.db, keys)) await reconcileCertificate(this.svc, sha256, { signature });
  }

  private async onLanded(tx: LandedTx) {
    await this.reconcileKeys(tx.keys, tx.signature);
    await this.announceInstitutions(tx.keys);
    await this.saveCursor(CURSOR_KEY, String(tx.slot));
  }

  /**
   * An institution's account that a transaction sent through /rpc touched (the registry admin's
   * set_issuer_status, with its own tools): the pages open on its certificates re-read their verdict.
   * The server's own flows announce their changes themselves; nothing is read when nobody watches.
   */
  private async announceInstitutions(keys: string[]) {
    if (!this.svc.bus.watched().length) return;
    const programId = this.svc.chain.programId.toBase58();
    for (const key of keys) {
      const acc = await this.svc.chain.getAccountInfo(new PublicKey(key));
      if (!acc || acc.owner !== programId || !ISSUER_DISCRIMINATOR.every((b, i) => acc.data[i] === b)) continue;
      await announceInstitutionChange(this.svc, decodeIssuer(acc.data).authority.toBase58());
    }
  }

  /**
   * Replays the /rpc transactions after the saved slot, oldest first, a page at a time. Each
   * transaction's accounts are read from its own wire bytes (the journal's row, by its key): the
   * account-to-signature index is keyed by account, and a join through it scanned that whole index
   * per transaction (on 1,000,000 certificates, 140 s for one transaction left by a crash on SQLite).
   * The saved slot only ever names a slot whose transactions are all applied.
   */
  private async catchUpEmbedded() {
    const cursor = Number((await this.loadCursor(CURSOR_KEY)) ?? 0);
    let saved = cursor;
    const batch = this.opts.catchUpBatch ?? BATCH;
    type Position = { slot: number; signature: string };
    let after: Position | null = null;
    for (;;) {
      const from: Position | null = after;
      const rows: { slot: number; signature: string; wire: Uint8Array }[] = await this.svc.db
        .selectFrom('chain_transaction as c')
        .innerJoin('rpc_transaction as t', 't.signature', 'c.signature')
        .select(['c.slot', 'c.signature', 't.wire'])
        .where('c.kind', '=', 'rpc_send')
        .where((eb) =>
          from
            ? eb.or([eb('c.slot', '>', from.slot), eb.and([eb('c.slot', '=', from.slot), eb('c.signature', '>', from.signature)])])
            : eb('c.slot', '>', cursor),
        )
        .orderBy('c.slot')
        .orderBy('c.signature')
        .limit(batch)
        .execute();
      if (!rows.length) break;
      // Transaction by transaction (in the order they landed), so each change is told with its own.
      for (const r of rows) await this.reconcileKeys(accountKeysOf(r.wire), r.signature);
      const last = rows.at(-1)!;
      after = { slot: Number(last.slot), signature: last.signature };
      // A full page may end inside a slot: only the slots before it are certainly complete.
      const full = rows.length === batch;
      const complete = full ? after.slot - 1 : after.slot;
      if (complete > saved) {
        await this.saveCursor(CURSOR_KEY, String(complete));
        saved = complete;
      }
      if (!full) break;
    }
  }

  private async pollRpc() {
    const conn = this.opts.connection;
    if (!conn) return;
    const cursor = await this.loadRpcCursor();
    const listed: ConfirmedSignatureInfo[] = [];
    // Newest first, back to the cursor; applied oldest first.
    let before: string | undefined;
    for (;;) {
      const page = await conn.getSignaturesForAddress(this.svc.chain.programId, { until: cursor ?? undefined, before, limit: 1000 }, 'confirmed');
      listed.push(...page);
      if (page.length < 1000 || !cursor) break; // no cursor yet: start from now, after one full pass below
      before = page.at(-1)!.signature;
    }
    if (!cursor) {
      await this.reconcileAll();
      if (listed.length) await this.saveCursor(RPC_CURSOR_KEY, listed[0].signature);
      return;
    }
    const oldestFirst = listed.reverse();
    let head: string = cursor; // every transaction up to this signature is applied
    let waiting = false; // a transaction the RPC could not return yet: the cursor stays before it
    for (const s of oldestFirst) {
      if (!s.err && !this.applied.has(s.signature)) {
        const tx = await conn.getTransaction(s.signature, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 });
        if (tx) {
          this.unfetched.delete(s.signature);
          if (!tx.meta?.err) await this.reconcileKeys(accountsOf(tx), s.signature);
          this.applied.add(s.signature);
        } else if (this.giveUp(s.signature)) {
          console.warn(`chain sync: the RPC did not return transaction ${s.signature}; moving on (the backstop reconciles its certificates)`);
          this.applied.add(s.signature);
        } else {
          waiting = true;
          continue;
        }
      }
      if (!waiting) head = s.signature;
    }
    if (head !== cursor) {
      await this.saveCursor(RPC_CURSOR_KEY, head);
      // Signatures up to the new cursor are no longer listed: forget them.
      for (const s of oldestFirst) {
        this.applied.delete(s.signature);
        if (s.signature === head) break;
      }
    }
    if (this.applied.size > 100_000) this.applied.clear(); // bounded; at worst some are fetched again
  }

  /** True when a signature the RPC keeps not returning has been retried long enough. */
  private giveUp(signature: string): boolean {
    const { polls, ms } = this.opts.unfetched ?? DEFAULT_UNFETCHED;
    const seen = this.unfetched.get(signature) ?? { since: Date.now(), polls: 0 };
    seen.polls += 1;
    this.unfetched.set(signature, seen);
    if (seen.polls >= polls && Date.now() - seen.since >= ms) {
      this.unfetched.delete(signature);
      return true;
    }
    return false;
  }

  /** First start against an RPC chain: every row once. */
  private async reconcileAll() {
    for (let after = ''; ; ) {
      const rows = await this.svc.db.selectFrom('certificate').select(['id', 'sha256']).where('id', '>', after).orderBy('id').limit(BATCH).execute();
      for (const r of rows) await reconcileCertificate(this.svc, r.sha256);
      if (rows.length < BATCH) break;
      after = rows.at(-1)!.id;
    }
  }

  /** One step of the slow cycle: the next `batch` rows that are not final, by id, then from the start again. */
  private async backstop(batch: number) {
    const rows = await this.svc.db
      .selectFrom('certificate')
      .select(['id', 'sha256'])
      .where('verification_status', 'in', ['pending', 'verified', 'rejected'])
      .where('id', '>', this.backstopAfter)
      .orderBy('id')
      .limit(batch)
      .execute();
    for (const sha256 of new Set(rows.map((r) => r.sha256))) {
      if (this.stopped) return;
      await reconcileCertificate(this.svc, sha256);
    }
    this.backstopAfter = rows.length < batch ? '' : rows.at(-1)!.id;
  }

  private async loadCursor(key: string): Promise<string | null> {
    return (await this.svc.db.selectFrom('chain_meta').select('value').where('key', '=', key).executeTakeFirst())?.value ?? null;
  }

  /** The RPC cursor; a data dir from before it had its own key kept the signature under the embedded key. */
  private async loadRpcCursor(): Promise<string | null> {
    const own = await this.loadCursor(RPC_CURSOR_KEY);
    if (own) return own;
    const legacy = await this.loadCursor(CURSOR_KEY);
    return legacy && !/^\d+$/.test(legacy) ? legacy : null; // a slot number is the embedded follower's
  }

  private async saveCursor(key: string, value: string) {
    await this.svc.db.insertInto('chain_meta').values({ key, value }).onConflict((c) => c.column('key').doUpdateSet({ value })).execute();
  }
}
