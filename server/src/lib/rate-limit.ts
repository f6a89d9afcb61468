import { BlockList, isIP } from 'node:net';

// Token buckets in process memory: the one implementation behind every rate limit (sign-in, support
// forms, REST API, certificate creation). A bucket holds `capacity` tokens, refilled evenly over
// `windowMs`; a request takes one. One process owns its buckets: several servers sharing PostgreSQL
// each count their own (limits that must hold across servers are counted in the database instead,
// like the daily anchoring budget).

export interface BucketLimit {
  /** Burst size: requests allowed at once. */
  capacity: number;
  /** Window in ms over which `capacity` tokens refill. */
  windowMs: number;
}

/** Refused: the wait until a token is back, and which bucket was empty (the one with the longest wait). */
export type Taken = { ok: true; remaining: number } | { ok: false; retryAfterMs: number; key: string };

interface Bucket {
  tokens: number;
  at: number;
  capacity: number;
  rate: number; // tokens per ms
}

export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();
  private readonly maxKeys: number;
  /** The clock; tests replace it to move time instead of sleeping. */
  now: () => number;

  constructor(opts: { now?: () => number; maxKeys?: number } = {}) {
    this.now = opts.now ?? Date.now;
    this.maxKeys = opts.maxKeys ?? 50_000;
  }

  /** Takes one token from `key`; when it is empty, the ms until the next one. */
  take(key: string, limit: BucketLimit, t = this.now()): Taken {
    return this.takeAll([[key, limit]], t);
  }

  /**
   * One token from each bucket, or from none: when any is empty nothing is taken (a refusal by one
   * limit does not use up another), and the wait is the longest of the empty ones.
   */
  takeAll(entries: [key: string, limit: BucketLimit][], t = this.now()): Taken {
    const { levels, refused } = this.measure(entries, t);
    if (refused) return { ok: false, ...refused };
    for (const l of levels) {
      if (!l.known && this.buckets.size >= this.maxKeys) this.sweep(t);
      this.buckets.set(l.key, { tokens: l.tokens - 1, at: t, capacity: l.capacity, rate: l.rate });
    }
    return { ok: true, remaining: Math.min(...levels.map((l) => Math.floor(l.tokens - 1))) };
  }

  /** What takeAll would answer, taking nothing: for a cost counted only once it has happened. */
  check(entries: [key: string, limit: BucketLimit][], t = this.now()): Taken {
    const { levels, refused } = this.measure(entries, t);
    return refused ? { ok: false, ...refused } : { ok: true, remaining: Math.min(...levels.map((l) => Math.floor(l.tokens))) };
  }

  private measure(entries: [key: string, limit: BucketLimit][], t: number) {
    const levels = entries.map(([key, limit]) => {
      const rate = limit.capacity / limit.windowMs;
      const b = this.buckets.get(key);
      const tokens = b ? Math.min(limit.capacity, b.tokens + Math.max(0, t - b.at) * rate) : limit.capacity;
      return { key, capacity: limit.capacity, rate, tokens, known: !!b };
    });
    let refused: { key: string; retryAfterMs: number } | null = null;
    for (const l of levels) {
      // Rounded up to the ms; the epsilon keeps float noise (29999.999999999996) from adding one.
      const wait = l.tokens < 1 ? Math.ceil((1 - l.tokens) / l.rate - 1e-6) : 0;
      if (wait > 0 && (!refused || wait > refused.retryAfterMs)) refused = { key: l.key, retryAfterMs: wait };
    }
    return { levels, refused };
  }

  /**
   * Takes one token for a cost that has already happened, into debt when the bucket is empty (down to
   * `-capacity`): costs incurred at once, each admitted while a token was left, are all counted, and
   * the bucket is refused until it has refilled past them.
   */
  charge(key: string, limit: BucketLimit, t = this.now()) {
    const { levels } = this.measure([[key, limit]], t);
    const [l] = levels;
    if (!l.known && this.buckets.size >= this.maxKeys) this.sweep(t);
    this.buckets.set(key, { tokens: Math.max(-l.capacity, l.tokens - 1), at: t, capacity: l.capacity, rate: l.rate });
  }

  /** Gives back a token taken for a request that ended up costing nothing (never above capacity). */
  give(key: string, t = this.now()) {
    const b = this.buckets.get(key);
    if (!b) return;
    b.tokens = Math.min(b.capacity, b.tokens + Math.max(0, t - b.at) * b.rate + 1);
    b.at = t;
  }

  get size() {
    return this.buckets.size;
  }

  /** Refilled buckets carry no state; a flood of distinct keys loses its oldest half rather than grow. */
  private sweep(t: number) {
    for (const [k, b] of this.buckets) if (b.tokens + (t - b.at) * b.rate >= b.capacity) this.buckets.delete(k);
    if (this.buckets.size >= this.maxKeys) {
      let n = Math.floor(this.buckets.size / 2);
      for (const k of this.buckets.keys()) {
        if (n-- <= 0) break;
        this.buckets.delete(k);
      }
    }
  }
}

/** Whole seconds for a Retry-After header (at least 1). */
export const retryAfterSeconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/**
 * The bucket key of a client address: IPv4 as is (also when IPv4-mapped), IPv6 by its /64, since one
 * subscriber usually holds a whole /64 and could otherwise rotate addresses to reset the limit.
 */
export function clientKey(ip: string | undefined): string {
  if (!ip) return 'internal';
  const v4 = ip.match(/^(?:::ffff:)?(\d{1,3}(?:\.\d{1,3}){3})$/i);
  if (v4) return v4[1];
  if (!ip.includes(':')) return ip;
  // Expand "::" so the first four groups are the real /64 prefix.
  const [head, tail = ''] = ip.toLowerCase().split('%')[0].split('::');
  const h = head ? head.split(':') : [];
  const t = ip.includes('::') ? (tail ? tail.split(':') : []) : [];
  const groups = ip.includes('::') ? [...h, ...Array(8 - h.length - t.length).fill('0'), ...t] : h;
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

// ── Client addresses behind proxies ─────────────────────────────────────────────────────────────
//
// Every per-address limit (REST, sign-in, creation, support forms, faucet, PubSub sockets, uploads,
// connections) counts the address one rule derives: fastify's req.ip, given `proxyTrust(TRUST_PROXY)`
// as its trust function, and `forwardedClient` for raw sockets (the WebSocket upgrade), which is the
// same algorithm (proxy-addr's). A proxy appends the address it saw to X-Forwarded-For, after whatever
// the client wrote there, so only the right-hand entries added by trusted proxies can be believed: the
// client is the right-most address that is not a trusted proxy — never the left-most.

/**
 * TRUST_PROXY, parsed (config.ts): `false` trusts no X-Forwarded-For; `{ hops: n }` trusts the n
 * nearest hops whatever their address (`true` is one: the server's peer is the proxy); `{ addresses }`
 * trusts hops whose address is in the list (IPs, CIDRs, or proxy-addr's names loopback, linklocal,
 * uniquelocal) and nothing else.
 */
export type TrustProxy = false | { hops: number } | { addresses: string[] };
/** proxy-addr's trust function: is the hop at `address`, `hop` steps from this server (0 = the socket's peer), a trusted proxy? */
export type ProxyTrust = (address: string, hop: number) => boolean;

const NAMED_RANGES: Record<string, string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/** An address as a BlockList checks it: IPv4-mapped IPv6 as IPv4, no brackets or zone. */
function plainAddress(address: string): string {
  const a = address.trim().replace(/^\[|\]$/g, '').split('%')[0];
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(a);
  return mapped ? mapped[1] : a;
}

/**
 * Why an entry of a TRUST_PROXY address list is not usable, or null when it is (an IP, a CIDR, or
 * loopback / linklocal / uniquelocal).
 */
export function trustEntryProblem(entry: string): string | null {
  if (NAMED_RANGES[entry]) return null;
  const [addr, prefix, extra] = entry.split('/');
  const family = isIP(addr);
  if (!family || extra !== undefined) return `"${entry}" is not an IP address, a CIDR range or one of ${Object.keys(NAMED_RANGES).join(', ')}`;
  if (prefix === undefined) return null;
  const bits = Number(prefix);
  if (!/^\d{1,3}$/.test(prefix) || bits > (family === 4 ? 32 : 128)) return `"${entry}" has an invalid prefix length`;
  return null;
}

/** The trust function of a TRUST_PROXY setting (null: trust nothing; `true` is one hop). Entries are checked by config.ts. */
export function proxyTrust(setting: TrustProxy | boolean | number | undefined): ProxyTrust | null {
  if (setting === undefined || setting === false || setting === 0) return null;
  const hops = setting === true ? 1 : typeof setting === 'number' ? setting : 'hops' in setting ? setting.hops : null;
  if (hops !== null) return (_address, hop) => hop < hops;
  const list = new BlockList();
  for (const entry of (setting as { addresses: string[] }).addresses.flatMap((e) => NAMED_RANGES[e] ?? [e])) {
    const [addr, prefix] = entry.split('/');
    const type = isIP(addr) === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) list.addAddress(addr, type);
    else list.addSubnet(addr, Number(prefix), type);
  }
  return (address) => {
    const a = plainAddress(address);
    const family = isIP(a);
    return family !== 0 && list.check(a, family === 4 ? 'ipv4' : 'ipv6');
  };
}

/**
 * The client's address of a connection from `remote` carrying `forwardedFor` (X-Forwarded-For), as
 * fastify's req.ip derives it with the same trust function: walking from this server outwards (the
 * peer, then X-Forwarded-For right to left), the first hop that is not a trusted proxy; the left-most
 * entry only when every hop before it is trusted.
 */
export function forwardedClient(remote: string | undefined, forwardedFor: string | string[] | undefined, trust: ProxyTrust | null): string {
  const peer = remote ?? '';
  if (!trust) return peer;
  const header = Array.isArray(forwardedFor) ? forwardedFor.join(',') : (forwardedFor ?? '');
  const hops = [peer, ...header.split(',').map((s) => s.trim()).filter(Boolean).reverse()];
  for (let i = 0; i < hops.length - 1; i++) if (!trust(hops[i], i)) return hops[i];
  return hops[hops.length - 1];
}

// ── Concurrency ─────────────────────────────────────────────────────────────────────────────────

/**
 * Slots held at once, per key (a client address) and in all: unlike a token bucket, a slot is given
 * back when its work ends (an upload read and answered), so it bounds what is in memory at one time.
 */
export class ConcurrencyLimiter {
  private readonly held = new Map<string, number>();
  private total = 0;

  constructor(readonly limits: { perKey: number; total: number }) {}

  /** A slot for `key` (call `release` once, when the work ends), or which limit is full. */
  acquire(key: string): { ok: true; release: () => void } | { ok: false; scope: 'key' | 'total' } {
    const mine = this.held.get(key) ?? 0;
    if (mine >= this.limits.perKey) return { ok: false, scope: 'key' };
    if (this.total >= this.limits.total) return { ok: false, scope: 'total' };
    this.held.set(key, mine + 1);
    this.total++;
    let released = false;
    return {
      ok: true,
      release: () => {
        if (released) return;
        released = true;
        this.total--;
        const n = (this.held.get(key) ?? 1) - 1;
        if (n > 0) this.held.set(key, n);
        else this.held.delete(key);
      },
    };
  }

  /** Slots held now, in all and by how many keys (tests: every slot is given back). */
  stats() {
    return { total: this.total, keys: this.held.size };
  }
}
