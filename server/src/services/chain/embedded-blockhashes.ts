// Which blockhashes a transaction on the embedded chain may name. LiteSVM accepts only its latest (its
// own check is off, see EmbeddedChain.start), but a wallet's blockhash must stay usable while the next
// one is made, so the chain keeps a window of recent ones, as a validator does. Kept apart from the
// chain: it is plain bookkeeping of times, with no LiteSVM or database in it.

/** A new blockhash at most once a slot, as a validator makes one per block. */
export const BLOCKHASH_ROTATE_MS = 400;
/** How long a handed-out blockhash is accepted (a validator: 150 blocks; here it also covers the 120 s mint window). */
export const BLOCKHASH_VALID_MS = 150_000;
/** What a wallet-signed transaction is promised (and held to): within the blockhash's validity. */
export const SIGNING_WINDOW_MS = 120_000;

/**
 * Recent blockhashes and when each became the latest. A new one is made for a caller at most once a
 * slot (so a wallet retrying a failed transaction gets a fresh one, as on a cluster); each stays valid
 * for BLOCKHASH_VALID_MS.
 */
export class BlockhashWindow {
  private since = new Map<string, number>();
  private latestAt = 0;

  /** `blockhash` is the latest from now on; those no longer valid are dropped. */
  noteLatest(blockhash: string) {
    this.latestAt = Date.now();
    this.since.set(blockhash, this.latestAt);
    for (const [h, at] of this.since) {
      if (this.latestAt - at < BLOCKHASH_VALID_MS) break; // in insertion order: the rest are newer
      this.since.delete(h);
    }
  }

  /** Whether the latest is a slot old, so a caller asking for one gets a new one. */
  dueForRotation(): boolean {
    return Date.now() - this.latestAt >= BLOCKHASH_ROTATE_MS;
  }

  /** Whether a transaction naming `blockhash` may still land. */
  isValid(blockhash: string | null | undefined): boolean {
    const at = blockhash ? this.since.get(blockhash) : undefined;
    return at !== undefined && Date.now() - at < BLOCKHASH_VALID_MS;
  }

  /** The window as saved in `chain_meta` (kept across restarts). */
  serialize(): string {
    return JSON.stringify([...this.since]);
  }

  /** Takes back a window `serialize` saved. */
  load(saved: string) {
    for (const [h, at] of JSON.parse(saved) as [string, number][]) this.since.set(h, at);
  }
}
