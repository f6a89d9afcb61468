import type { FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { Database, UserRow } from '../../db/schema';
import { isPostgres } from '../../db/dialect';
import { DomainError } from '../../lib/errors';
import { clientKey, retryAfterSeconds, type BucketLimit, type Taken } from '../../lib/rate-limit';
import type { Services } from '../index';

// Limits on adding certificates. Every certificate is anchored on chain at the operator's expense
// (rent + fees, ~0.0021 SOL) and queues a verification job, so both the pace and the daily total are
// bounded (config.limits, README "Configuration"):
// - a burst limit per wallet and per client address (token buckets in memory, lib/rate-limit): a
//   script cannot fire dozens at once, nor hop between fresh wallets from one address;
// - refused uploads (a refused file, a duplicate: each read and checked in a document reader) per
//   wallet and per client address, charged when they happen;
// - a daily anchoring budget per wallet, counted from the certificate rows of the last 24 hours, so it
//   holds across restarts and across servers sharing PostgreSQL.
// Both the web app (tRPC certificate.create) and REST (POST /api/v1/certificates) come through
// createCertificate, which applies them; a refused request writes nothing.

const DAY_MS = 24 * 60 * 60_000;

/** What the limits read from a request: its client address (the buckets are `creationLimiter`; its clock also dates the daily budget). */
export type CreationContext = Services & { req?: FastifyRequest };

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** "10 minutes", "hour", "90 seconds": a window as a reader says it after "every". */
function every(ms: number): string {
  const [n, unit] = ms % 3_600_000 === 0 ? [ms / 3_600_000, 'hour'] : ms % 60_000 === 0 ? [ms / 60_000, 'minute'] : [Math.ceil(ms / 1000), 'second'];
  return n === 1 ? unit : plural(n, unit);
}

/** "40 seconds", "3 minutes", "2 hours" (rounded up: never sooner than said). */
function waitWords(ms: number): string {
  const s = retryAfterSeconds(ms);
  if (s < 60) return plural(s, 'second');
  if (s < 3600) return plural(Math.ceil(s / 60), 'minute');
  return plural(Math.ceil(s / 3600), 'hour');
}

function tooMany(retryAfterMs: number, message: string): never {
  throw new DomainError('TOO_MANY_REQUESTS', message, { retryAfterSec: retryAfterSeconds(retryAfterMs) });
}

export interface Reservation {
  /** Gives the tokens back: the request was refused for another reason and created nothing. */
  release(): void;
}

/** A creation's reservation: given back when it creates nothing; a refusal counted when its file was read and refused. */
export interface CreationReservation extends Reservation {
  /** The file was read and refused (the upload's checks, a duplicate): its creation is given back, a refusal charged. */
  refused(): void;
}

/**
 * Takes one creation from the wallet's bucket and the client address's bucket (both or neither), or
 * refuses with 429 + Retry-After; also refuses while their buckets of refused uploads are empty.
 * In-process callers (no request) have no address: only the wallet counts. Only certificates
 * actually added use up the pace: an upload refused after its file was read (`refused`: a damaged
 * file, a duplicate) gives its creation back and is charged as a refusal instead, so the parses such
 * uploads cost are paced too; anything else (`release`: the daily budget) gives its creation back.
 * Refusals are charged when they happen (an upload in flight holds none, so uploads sent at once are
 * not refused for refusals that may never come), into debt when several were in flight at once: a
 * burst of refused uploads is paid off before the next is read.
 */
export function reserveCreation(ctx: CreationContext, user: UserRow): CreationReservation {
  const { createPerWallet, createPerIp, createWindowMs: windowMs, refusedUploadsPerWallet, refusedUploadsPerIp } = ctx.config.limits;
  const limiter = ctx.creationLimiter;
  const per = every(windowMs);
  const walletKey = `wallet:${user.wallet_address}`;
  const ipKey = ctx.req ? `ip:${clientKey(ctx.req.ip)}` : null;
  // Each bucket with what a refusal by it says (`wait`: how long until it has a token again).
  type Limit = { key: string; limit: BucketLimit; refusal: (wait: string) => string };
  const creations: Limit[] = [
    { key: walletKey, limit: { capacity: createPerWallet, windowMs }, refusal: (wait) => `You are adding certificates too quickly: at most ${createPerWallet} every ${per} from one wallet. You can add another in ${wait}.` },
  ];
  const refusals: Limit[] = [
    {
      key: `refused:${walletKey}`,
      limit: { capacity: refusedUploadsPerWallet, windowMs },
      refusal: (wait) => `Too many of your recent uploads could not be added (refused files or duplicates): at most ${refusedUploadsPerWallet} every ${per} from one wallet. You can upload again in ${wait}.`,
    },
  ];
  if (ipKey) {
    creations.push({ key: ipKey, limit: { capacity: createPerIp, windowMs }, refusal: (wait) => `Too many certificates are being added from your network: at most ${createPerIp} every ${per}. You can add another in ${wait}.` });
    refusals.push({
      key: `refused:${ipKey}`,
      limit: { capacity: refusedUploadsPerIp, windowMs },
      refusal: (wait) => `Too many uploads from your network could not be added (refused files or duplicates): at most ${refusedUploadsPerIp} every ${per}. You can upload again in ${wait}.`,
    });
  }
  const entries = (limits: Limit[]) => limits.map((l): [string, BucketLimit] => [l.key, l.limit]);
  const refuseIfEmpty = (limits: Limit[], r: Taken) => {
    if (!r.ok) tooMany(r.retryAfterMs, limits.find((l) => l.key === r.key)!.refusal(waitWords(r.retryAfterMs)));
  };
  refuseIfEmpty(refusals, limiter.check(entries(refusals)));
  refuseIfEmpty(creations, limiter.takeAll(entries(creations)));
  const reservation = releaseOnce(() => {
    for (const l of creations) limiter.give(l.key);
  });
  return {
    release: reservation.release,
    refused() {
      if (reservation.release()) for (const l of refusals) limiter.charge(l.key, l.limit);
    },
  };
}

/** A reservation whose `release` gives back once (true that time, false after). */
function releaseOnce(giveBack: () => void): { release: () => boolean } {
  let released = false;
  return {
    release() {
      if (released) return false;
      released = true;
      giveBack();
      return true;
    },
  };
}

/**
 * Takes one verification re-run (Check Status, Try Again, corrected details: web app and REST together)
 * from the wallet's bucket, or refuses with 429 + Retry-After. Every run reads the document again in a
 * child process (OCR for a scan, up to its time budget), so a holder cannot keep the workers busy for
 * everyone else by re-running an unreadable file in a loop. Call it only when a run will really be
 * queued (none is queued or running), and release it when none was after all: a click that starts
 * nothing does not use up the pace.
 */
export function reserveRerun(ctx: Pick<Services, 'config' | 'creationLimiter'>, user: UserRow): Reservation {
  const { rerunsPerWallet, createWindowMs } = ctx.config.limits;
  const key = `rerun:${user.wallet_address}`;
  const r = ctx.creationLimiter.take(key, { capacity: rerunsPerWallet, windowMs: createWindowMs });
  if (!r.ok) {
    tooMany(
      r.retryAfterMs,
      `You are starting verification again too often: at most ${rerunsPerWallet} runs every ${every(createWindowMs)} from one wallet (Check Status, Try Again and corrected details together). You can start another in ${waitWords(r.retryAfterMs)}. A run already finished keeps its result: a file whose text could not be read needs a PDF with selectable text, or the institution's confirmation.`,
    );
  }
  const { release } = releaseOnce(() => ctx.creationLimiter.give(key));
  return { release: () => void release() };
}

/**
 * Refuses (429 + Retry-After) when the holder has added `dailyAnchorsPerWallet` certificates in the
 * last 24 hours, saying when the oldest of them leaves the window. Reads through `db`: call it again
 * inside the creating transaction, after lockAnchorsOf, so concurrent requests cannot both pass.
 */
export async function checkDailyAnchors(ctx: CreationContext, user: UserRow, db: Kysely<Database> = ctx.db): Promise<void> {
  const limit = ctx.config.limits.dailyAnchorsPerWallet;
  const now = ctx.creationLimiter.now();
  const since = new Date(now - DAY_MS).toISOString();
  const inWindow = db.selectFrom('certificate').where('user_id', '=', user.id).where('created_at', '>', since);
  // The limit-th most recent of the window (index certificate_user_idx): none means there is room.
  const nth = await inWindow.select('created_at').orderBy('created_at', 'desc').limit(1).offset(limit - 1).executeTakeFirst();
  if (!nth) return;
  const { n } = await inWindow.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  // Room again once that one is 24 hours old; the time is rounded up to the minute, so "after" holds.
  const freeAt = Date.parse(nth.created_at) + DAY_MS;
  const at = new Date(Math.ceil(freeAt / 60_000) * 60_000);
  const hhmm = at.toISOString().slice(11, 16);
  const day = at.toISOString().slice(0, 10) === new Date(now).toISOString().slice(0, 10) ? 'today' : 'tomorrow';
  tooMany(
    freeAt - now,
    `You have added ${plural(Number(n), 'certificate')} in the last 24 hours, the daily limit. You can add more after ${hhmm} UTC ${day}.`,
  );
}

/**
 * Serialises the creating transactions of one holder until commit, so the budget counted inside
 * them is exact: PostgreSQL takes a transaction-scoped advisory lock (several servers may share it);
 * SQLite needs nothing, one connection runs one transaction at a time.
 */
export async function lockAnchorsOf(trx: Kysely<Database>, user: UserRow): Promise<void> {
  if (!isPostgres(trx)) return;
  await sql`select pg_advisory_xact_lock(hashtextextended(${`attesta.anchors:${user.id}`}, 0))`.execute(trx);
}
