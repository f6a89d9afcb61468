import type { RpcLimits } from '../config';
import { clientKey, ConcurrencyLimiter, retryAfterSeconds, TokenBuckets, type BucketLimit } from '../lib/rate-limit';
import { RpcCode, RpcError } from './errors';

// What one anonymous caller of /rpc can make the server build, hold and persist. The 1 MB body cap
// bounded what came in, not what went out: 23 KB of getMultipleAccounts (a built-in program's ~100 KB
// account, 100 times a call, 100 calls a batch) asked for 70 MB of JSON. So, as a validator and the
// public RPC providers bound theirs:
// - what comes in: Agave's own limits: a 50 KiB body (its HTTP service's MAX_REQUEST_BODY_SIZE),
//   100 calls a batch, 100 keys a getMultipleAccounts, simulateTransaction's `accounts` no more than
//   the transaction's own account keys;
// - what goes out: an answer budget in bytes per request, a batch counting as one (Agave's
//   `--accounts-index-scan-results-limit-mb`, answered with its scan error code, -32012). Answers are
//   counted as they are built and the scans read a page at a time, so building stops at the budget;
// - how often: per client address (lib/rate-limit.ts's buckets and the one client-address rule that
//   honours TRUST_PROXY), calls to the methods that read many accounts, sendTransaction (each landed
//   transaction is kept: chain_transaction and the journal) and simulateTransaction;
// - at once: requests with such calls being answered, per client address and in all, so that many
//   callers (or one that does not read its answers) hold at most that many budgets.

/** Agave's JSON-RPC HTTP service: MAX_REQUEST_BODY_SIZE (rpc_service.rs), 50 KiB. */
export const MAX_BODY_BYTES = 50 * 1024;
/** Calls in one JSON-RPC batch. */
export const MAX_BATCH = 100;
/** Agave's getMultipleAccounts cap (`--rpc-max-multiple-accounts`, default MAX_MULTIPLE_ACCOUNTS). */
export const MAX_MULTIPLE_ACCOUNTS = 100;

/**
 * The methods whose answer or work grows with the chain's accounts: scans of an owner's accounts, a
 * hundred accounts at once, the supply (a sum over every account). Each call takes one of the
 * address's RPC_SCAN_RATE_LIMIT_PER_MIN, and a request that has one holds an in-flight slot.
 */
export const SCAN_METHODS = ['getProgramAccounts', 'getTokenAccountsByOwner', 'getTokenLargestAccounts', 'getMultipleAccounts', 'getSupply'];

/** Requests with a SCAN_METHODS call being built or sent, per client address and in all. */
export const IN_FLIGHT = { perAddress: 4, total: 16 };

const MINUTE = 60_000;
const sizeText = (bytes: number) => (bytes >= 1024 * 1024 ? `${+(bytes / 1024 / 1024).toFixed(2)} MB` : `${Math.round(bytes / 1024)} KB`);

/** Agave's code for a scan whose results passed its limit (JSON_RPC_SCAN_ERROR). */
export const ANSWER_TOO_LARGE = -32012;

/** The refusal of an answer past the budget: what the limit is and how to ask for less. */
export function answerTooLarge(limit: number) {
  return new RpcError(
    ANSWER_TOO_LARGE,
    `Answer too large: this node answers one request (a batch counts as one) with at most ${sizeText(limit)} of JSON, and this one needs more. ` +
      'Ask for less: narrow getProgramAccounts with filters (memcmp, dataSize), take a dataSlice of each account, ask for fewer keys at a time, or split the batch.',
    { limitBytes: limit },
  );
}

/**
 * The bytes of JSON one request is answered with, counted as it is built: a method charges each item
 * before adding it (so it stops at the budget instead of building the rest), and the request handler
 * charges each call's reply as it is serialized.
 */
export class AnswerBudget {
  used = 0;
  /** A call of this request was refused for the budget: the later calls that read many accounts are refused unrun. */
  spent = false;
  constructor(readonly limit: number) {}

  /** Counts `bytes` more; past the limit nothing is counted and the refusal is thrown. */
  charge(bytes: number) {
    this.expect(bytes);
    this.used += bytes;
  }

  /** Refuses before building something of at least `bytes` that could not fit. */
  expect(bytes: number) {
    if (this.used + bytes <= this.limit) return;
    this.spent = true;
    throw answerTooLarge(this.limit);
  }

  /** Charges `item` as the JSON it will be in the answer (and a separator). */
  add<T>(item: T): T {
    this.charge(JSON.stringify(item).length + 1);
    return item;
  }
}

/** What a refused call's client is told: which pace, when to try again. */
function paceRefusal(scope: 'scan' | 'send' | 'simulate', perMin: number, retryAfter: number) {
  const what = {
    scan: `${perMin} calls a minute to ${SCAN_METHODS.join(', ')} (together)`,
    send: `${perMin} sendTransaction calls a minute`,
    simulate: `${perMin} simulateTransaction calls a minute`,
  }[scope];
  return new RpcError(RpcCode.TooManyRequests, `rate limit reached: each client address may make ${what} to this node; try again in ${retryAfter} seconds`, { retryAfter, scope });
}

/** One request's share of the limits: its answer budget, and the in-flight slot it holds once it has a scan call. */
export interface RequestLimits {
  budget: AnswerBudget;
  /** Gives back what the request holds; called once its answer has been sent (or the connection closed). */
  release(): void;
  /** Admits one call of `method` (the pace of its kind, an in-flight slot), or throws the refusal. */
  admit(method: string): void;
}

/** The /rpc limits of one server: per-address paces and in-flight slots, and each request's budget. */
export class RpcGuard {
  readonly buckets: TokenBuckets;
  readonly inFlight: ConcurrencyLimiter;
  private readonly scan: BucketLimit;
  private readonly send: BucketLimit;
  private readonly simulate: BucketLimit;

  constructor(
    readonly limits: RpcLimits,
    opts: { now?: () => number; inFlight?: { perAddress: number; total: number } } = {},
  ) {
    this.buckets = new TokenBuckets({ now: opts.now });
    const f = opts.inFlight ?? IN_FLIGHT;
    this.inFlight = new ConcurrencyLimiter({ perKey: f.perAddress, total: f.total });
    this.scan = { capacity: limits.scanPerMin, windowMs: MINUTE };
    this.send = { capacity: limits.sendPerMin, windowMs: MINUTE };
    this.simulate = { capacity: limits.simulatePerMin, windowMs: MINUTE };
  }

  /** A request from `ip` (fastify's req.ip: TRUST_PROXY's client address). */
  request(ip: string): RequestLimits {
    const client = clientKey(ip);
    let slot: (() => void) | null = null;
    const take = (scope: 'scan' | 'send' | 'simulate', limit: BucketLimit) => {
      const t = this.buckets.take(`${scope}:${client}`, limit);
      if (!t.ok) throw paceRefusal(scope, limit.capacity, retryAfterSeconds(t.retryAfterMs));
    };
    const budget = new AnswerBudget(this.limits.answerBytes);
    return {
      budget,
      release: () => {
        slot?.();
        slot = null;
      },
      admit: (method) => {
        if (budget.spent && SCAN_METHODS.includes(method)) throw answerTooLarge(budget.limit);
        if (method === 'sendTransaction') return take('send', this.send);
        if (method === 'simulateTransaction') return take('simulate', this.simulate);
        if (!SCAN_METHODS.includes(method)) return;
        if (!slot) {
          const s = this.inFlight.acquire(client);
          if (!s.ok) {
            const message =
              s.scope === 'key'
                ? `too many requests at once: each client address may have ${this.inFlight.limits.perKey} requests to ${SCAN_METHODS.join(', ')} being answered at a time; wait for an answer, then try again in 1 second`
                : `server busy: ${this.inFlight.limits.total} requests to ${SCAN_METHODS.join(', ')} are being answered; try again in 1 second`;
            throw new RpcError(RpcCode.TooManyRequests, message, { retryAfter: 1, scope: s.scope === 'key' ? 'in_flight' : 'server' });
          }
          try {
            take('scan', this.scan);
          } catch (e) {
            s.release();
            throw e;
          }
          slot = s.release;
          return;
        }
        take('scan', this.scan);
      },
    };
  }
}
