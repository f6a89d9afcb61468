import { PublicKey } from '@solana/web3.js';
import { sql, type CompiledQuery, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { isPostgres } from '../../db/dialect';
import type { PointReads } from '../../db';
import type { Services } from '../index';
import type { EmbeddedChain } from '../chain/embedded';
import { chainPartOf, computeVerdict, verdictText, type StoredVerdicts } from './verdict';

// The public verdict by hash, kept in the database (table public_verdict, migration
// 2026-11-24T0000-public-verdict) so that a verify nobody asked for lately is one primary-key read
// instead of the certificate, its holder, its record, its institution and its transactions.
//
// Why a stored verdict is never stale: it is computed in one database transaction from committed rows
// only (the chain's records as `chain_account` holds them, not LiteSVM's state, which runs ahead while
// a transaction persists), and every table it is made of has a trigger that deletes the stored
// verdicts that read the changed row — in the writer's transaction — and marks their hashes dirty.
// Writers and this store's transactions do not interleave: SQLite has one writer (and Kysely one
// connection); on PostgreSQL the store takes a SHARE ROW EXCLUSIVE lock on public_verdict, which the
// triggers' DELETE (ROW EXCLUSIVE) waits for and which waits for writers whose trigger already ran.
// Time is the one input no trigger sees: a verdict whose record expires carries `stale_at` and is not
// served after it (and computed again).
//
// Embedded chain only: on a public cluster others change records without a row here changing.

const BATCH = 100;
/**
 * Verdicts computed per database transaction: writers wait for it (SQLite's one connection, ~0.1 ms a
 * verdict; PostgreSQL's table lock, ~1 ms a verdict), so it is kept short.
 */
const PER_TRANSACTION = 10;
const IDLE_MS = 200;

/**
 * The stored body has the certificate's URLs relative (`/files/…`, `/view/…`); a request's origin is
 * put in front. The keys are matched with their quotes: inside a JSON string a quote is always escaped,
 * so `"certificate_url":"/` can only be the key itself (a title holding that text reads `\"…\"` in JSON).
 */
export function withOrigin(body: string, origin: string): string {
  const o = JSON.stringify(origin).slice(1, -1);
  return body.replace('"certificate_url":"/', () => `"certificate_url":"${o}/`).replace('"verification_url":"/', () => `"verification_url":"${o}/`);
}

/**
 * Up to `limit` stored verdicts whose record expired before `now`. Ordered by stale_at, so its index
 * answers at any size: unordered, PostgreSQL's generic plan for the prepared statement (a third of the
 * rows guessed expired) scanned the whole table at every refresh, every 200 ms idle — 187 ms a scan at
 * 1,000,000 verdicts (#15).
 */
export function expiredVerdicts(db: Kysely<Database>, now: number, limit: number) {
  return db.selectFrom('public_verdict').select('sha256').where('stale_at', '<', now).orderBy('stale_at').limit(limit);
}

type StoredRow = { body: string; stale_at: number | null };

export class VerdictStore implements StoredVerdicts {
  private lookup: CompiledQuery;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> = Promise.resolve();
  private stopped = false;

  /** `reads`: where the lookup runs (compose.ts: a pipelined connection on PostgreSQL); else on `db`. */
  constructor(private readonly svc: Pick<Services, 'db'> & { chain: EmbeddedChain; reads?: PointReads }) {
    // Compiled once: the hot path skips building and compiling the query (its one parameter is the hash).
    this.lookup = svc.db.selectFrom('public_verdict').select(['body', 'stale_at']).where('sha256', '=', '').compile();
  }

  /** The stored verdict of `sha256` for a request from `origin` (null: none, or its record has expired since). */
  async read(sha256: string, origin: string): Promise<string | null> {
    const query = { ...this.lookup, parameters: [sha256] };
    const rows = this.svc.reads ? await this.svc.reads.rows<StoredRow>(query) : (await this.svc.db.executeQuery<StoredRow>(query)).rows;
    const r = rows[0];
    if (!r || (r.stale_at !== null && nowSeconds() > r.stale_at)) return null;
    return withOrigin(r.body, origin);
  }

  /** Computes up to `limit` dirty or expired verdicts; how many it computed. */
  async refresh(limit = BATCH): Promise<number> {
    const { db } = this.svc;
    const dirty = await db.selectFrom('public_verdict_dirty').select('sha256').limit(limit).execute();
    const expired = await expiredVerdicts(db, nowSeconds(), limit).execute();
    const hashes = [...new Set([...dirty, ...expired].map((r) => r.sha256))];
    for (let i = 0; i < hashes.length; i += PER_TRANSACTION) await this.computeAndStore(hashes.slice(i, i + PER_TRANSACTION));
    return hashes.length;
  }

  /** Computes until nothing is dirty (the scale bench's fill; tests). */
  async settle(): Promise<void> {
    while ((await this.refresh()) > 0);
  }

  private async computeAndStore(hashes: string[]) {
    const { chain } = this.svc;
    await this.svc.db.transaction().execute(async (trx) => {
      if (isPostgres(trx)) await sql`lock table public_verdict in share row exclusive mode`.execute(trx);
      const records = chain.committedRecords(trx);
      const src = { db: trx, chainPart: (sha256: string, stored?: string | null) => chainPartOf({ db: trx, chain: records }, sha256, stored) };
      for (const sha256 of hashes) {
        let computed: Awaited<ReturnType<typeof computeVerdict>>;
        try {
          computed = await computeVerdict(src, { sha256, origin: '' });
        } catch (e) {
          // Not stored: this hash is computed at each request, as without the store.
          console.warn(`verdict store: ${sha256}: ${(e as Error).message}`);
          await trx.deleteFrom('public_verdict_dirty').where('sha256', '=', sha256).execute();
          continue;
        }
        const { verdict, inputs } = computed;
        const recordAddress = inputs.recordAddress ?? chain.certificateAddress(Buffer.from(sha256, 'hex')).toBase58();
        const issuerAddress = inputs.issuerAuthority ? chain.issuerAddress(new PublicKey(inputs.issuerAuthority)).toBase58() : null;
        const row = {
          body: verdictText(verdict),
          stale_at: inputs.expiresAt,
          cert_id: inputs.certId,
          user_id: inputs.userId,
          record_address: recordAddress,
          issuer_authority: inputs.issuerAuthority,
          issuer_address: issuerAddress,
          computed_at: new Date().toISOString(),
        };
        await trx
          .insertInto('public_verdict')
          .values({ sha256, ...row })
          .onConflict((oc) => oc.column('sha256').doUpdateSet(row))
          .execute();
        await trx.deleteFrom('public_verdict_dirty').where('sha256', '=', sha256).execute();
      }
    });
  }

  /** Computes dirty verdicts beside requests: a batch, then the next at once while there is more. */
  start() {
    const tick = () => {
      this.timer = null;
      if (this.stopped) return;
      this.running = this.refresh()
        .catch((e) => {
          console.warn('verdict store:', (e as Error).message);
          return 0;
        })
        .then((n) => {
          if (!this.stopped) this.timer = setTimeout(tick, n >= BATCH ? 0 : IDLE_MS).unref() as NodeJS.Timeout;
        });
    };
    this.timer = setTimeout(tick, 0).unref() as NodeJS.Timeout;
  }

  async stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  /** Releases its reads' connection (closeServices; lookups after it run on `db`). */
  async close() {
    await this.svc.reads?.close();
  }
}

const nowSeconds = () => Math.floor(Date.now() / 1000);
