import { isIPv4, isIPv6 } from 'node:net';

// The embedded chain's faucet (`requestAirdrop`) pays out of the operator, the platform's fee payer.
// Every caller of /rpc is anonymous, so it gives small amounts, per client address and for everyone
// together per sliding window, like Agave's faucet (per-request cap + per-IP cap per time slice).
// Sized for a developer's wallet or a test paying fees: one test file asks for 1–2 SOL.

const SOL = 1_000_000_000;

export const AIRDROP_LIMITS = {
  /** Agave's faucet `per_request_cap`; what a wallet needs for thousands of transaction fees. */
  maxLamportsPerRequest: 2 * SOL,
  windowMs: 60 * 60 * 1000,
  /** Per client address (IPv4, or IPv6 /64) per window. */
  perClient: { lamports: 5 * SOL, requests: 10 },
  /** All clients together per window: bounds what many addresses can take (≤ 600 SOL a day). */
  global: { lamports: 25 * SOL, requests: 50 },
} as const;

export type AirdropLimits = typeof AIRDROP_LIMITS;

type Refusal = { ok: false; scope: 'ip' | 'global'; retryAfter: number; received: number; count: number };
type Grant = { ok: true; release(): void };

interface Entry {
  at: number;
  key: string;
  lamports: number;
}

/**
 * Sliding-window accounting of granted airdrops. Only grants are stored (a refusal costs nothing),
 * so memory is bounded by the global request cap; entries older than the window are dropped.
 * `take` checks and records in one synchronous step, so concurrent requests cannot both pass.
 */
export class AirdropLimiter {
  private entries: Entry[] = [];

  constructor(
    private readonly limits: AirdropLimits = AIRDROP_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  take(key: string, lamports: number): Grant | Refusal {
    const now = this.now();
    const since = now - this.limits.windowMs;
    while (this.entries.length && this.entries[0].at <= since) this.entries.shift();
    const mine = this.entries.filter((e) => e.key === key);
    const client = this.wait(mine, lamports, this.limits.perClient, now);
    if (client !== null) return { ok: false, scope: 'ip', retryAfter: client, received: sum(mine), count: mine.length };
    const all = this.wait(this.entries, lamports, this.limits.global, now);
    if (all !== null) return { ok: false, scope: 'global', retryAfter: all, received: sum(this.entries), count: this.entries.length };
    const entry: Entry = { at: now, key, lamports };
    this.entries.push(entry);
    return {
      ok: true,
      release: () => {
        const i = this.entries.indexOf(entry);
        if (i >= 0) this.entries.splice(i, 1);
      },
    };
  }

  /** Live grants (tests: nothing outlives the window). */
  live() {
    const since = this.now() - this.limits.windowMs;
    const e = this.entries.filter((x) => x.at > since);
    return { grants: e.length, lamports: sum(e) };
  }

  /**
   * null when `lamports` more fits under `cap`; otherwise whole seconds until enough of the oldest
   * grants leave the window for it to fit (exact for a sliding window).
   */
  private wait(entries: Entry[], lamports: number, cap: { lamports: number; requests: number }, now: number): number | null {
    let total = sum(entries) + lamports;
    let count = entries.length + 1;
    let k = 0;
    while ((total > cap.lamports || count > cap.requests) && k < entries.length) {
      total -= entries[k].lamports;
      count--;
      k++;
    }
    if (k === 0) return null;
    return Math.max(1, Math.ceil((entries[k - 1].at + this.limits.windowMs - now) / 1000));
  }
}

const sum = (entries: Entry[]) => entries.reduce((n, e) => n + e.lamports, 0);

/**
 * The key a client is counted under: its IPv4 address (also when IPv4-mapped), or the /64 prefix of
 * its IPv6 address (one host or LAN usually holds a whole /64). Anything else is used as given.
 */
export function clientKey(ip: string): string {
  const addr = ip.trim().replace(/^\[|\]$/g, '').split('%')[0];
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(addr);
  if (mapped && isIPv4(mapped[1])) return mapped[1];
  if (isIPv4(addr) || !isIPv6(addr)) return addr;
  const [head, tail = ''] = addr.toLowerCase().split('::');
  const h = head ? head.split(':') : [];
  const t = addr.includes('::') && tail ? tail.split(':') : [];
  const groups = addr.includes('::') ? [...h, ...Array(8 - h.length - t.length).fill('0'), ...t] : h;
  return `${groups.slice(0, 4).map((g) => (parseInt(g, 16) || 0).toString(16)).join(':')}::/64`;
}

/** Agave prints faucet amounts as ◎ with up to 9 decimals ("◎0.000000001"). */
export const sol = (lamports: number) => `◎${(lamports / SOL).toFixed(9).replace(/\.?0+$/, '')}`;
