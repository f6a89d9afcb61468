import type { Connection } from '@solana/web3.js';
import { sha256sOfRecords } from '../../db/certificates';
import type { LandedTransaction } from '../chain/types';
import type { Services } from '../index';
import { reconcileCertificate } from './reconcile';

export { chainChange, describeKey, reconcileCertificate, type RowChange } from './reconcile';

/** A transaction the embedded chain landed: the accounts it names and who sent it (`rpc_send` for anything sent through /rpc). */
type LandedTx = Pick<LandedTransaction, 'slot' | 'keys' | 'kind'>;

const CURSOR_KEY = 'chain_sync_cursor';
const BATCH = 500;

/**
 * Keeps certificate rows in line with changes made on chain by others (see ./reconcile.ts).
 *
 * Embedded chain: every transaction sent through /rpc names its accounts; rows whose record is
 * among them are reconciled right after it lands (the server's own flows write their rows
 * themselves, in the same database transaction). At start, transactions of that kind since the
 * saved cursor are replayed, in case the process died in between.
 * RPC chain: the program's signatures are polled (`getSignaturesForAddress`) every `intervalMs`, and
 * each transaction's accounts are matched the same way; the newest signature is the cursor.
 */
export class ChainSync {
  private queue: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly svc: Pick<Services, 'chain' | 'db' | 'bus'>,
    private readonly opts: { intervalMs: number; connection?: Connection },
  ) {}

  async start() {
    if (this.svc.chain.mode === 'embedded') {
      await this.catchUpEmbedded();
      this.unsubscribe = this.svc.chain.onLanded((tx) => {
        if (tx.kind === 'rpc_send') this.enqueue(() => this.onLanded(tx));
      });
    } else {
      await this.pollRpc().catch((e) => console.warn('chain sync:', (e as Error).message));
      this.timer = setInterval(() => this.enqueue(() => this.pollRpc()), this.opts.intervalMs);
      this.timer.unref();
    }
  }

  /** Resolves when everything queued so far has been applied (tests, shutdown). */
  idle(): Promise<void> {
    return this.queue.then(() => undefined);
  }

  async stop() {
    this.stopped = true;
    this.unsubscribe?.();
    if (this.timer) clearInterval(this.timer);
    await this.idle();
  }

  private enqueue(fn: () => Promise<unknown>) {
    this.queue = this.queue.then(() => (this.stopped ? undefined : fn())).catch((e) => console.warn('chain sync:', (e as Error).message));
  }

  private async reconcileKeys(keys: string[]) {
    for (const sha256 of await sha256sOfRecords(this.svc.db, keys)) await reconcileCertificate(this.svc, sha256);
  }

  private async onLanded(tx: LandedTx) {
    await this.reconcileKeys(tx.keys);
    await this.saveCursor(String(tx.slot));
  }

  private async catchUpEmbedded() {
    const cursor = Number((await this.loadCursor()) ?? 0);
    for (let after = cursor; ; ) {
      const rows = await this.svc.db
        .selectFrom('chain_transaction')
        .innerJoin('rpc_transaction_account as a', 'a.signature', 'chain_transaction.signature')
        .select(['chain_transaction.slot', 'a.pubkey'])
        .where('chain_transaction.kind', '=', 'rpc_send')
        .where('chain_transaction.slot', '>', after)
        .orderBy('chain_transaction.slot')
        .limit(BATCH)
        .execute();
      if (!rows.length) break;
      await this.reconcileKeys([...new Set(rows.map((r) => r.pubkey))]);
      after = Number(rows.at(-1)!.slot);
      await this.saveCursor(String(after));
      if (rows.length < BATCH) break;
    }
  }

  private async pollRpc() {
    const conn = this.opts.connection;
    if (!conn) return;
    const cursor = await this.loadCursor();
    const newest: string[] = [];
    // Newest first, back to the cursor; applied oldest first.
    let before: string | undefined;
    for (;;) {
      const page = await conn.getSignaturesForAddress(this.svc.chain.programId, { until: cursor ?? undefined, before, limit: 1000 }, 'confirmed');
      newest.push(...page.filter((s) => !s.err).map((s) => s.signature));
      if (page.length < 1000 || !cursor) break; // no cursor yet: start from now, after one full pass below
      before = page.at(-1)!.signature;
    }
    if (!cursor) {
      await this.reconcileAll();
    } else {
      for (const sig of newest.reverse()) {
        const tx = await conn.getTransaction(sig, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 });
        if (!tx || tx.meta?.err) continue;
        await this.reconcileKeys(tx.transaction.message.staticAccountKeys.map((k) => k.toBase58()));
      }
    }
    const head = newest.length ? (cursor ? newest.at(-1) : newest[0]) : cursor;
    if (head && head !== cursor) await this.saveCursor(head);
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

  private async loadCursor(): Promise<string | null> {
    return (await this.svc.db.selectFrom('chain_meta').select('value').where('key', '=', CURSOR_KEY).executeTakeFirst())?.value ?? null;
  }

  private async saveCursor(value: string) {
    await this.svc.db.insertInto('chain_meta').values({ key: CURSOR_KEY, value }).onConflict((c) => c.column('key').doUpdateSet({ value })).execute();
  }
}
