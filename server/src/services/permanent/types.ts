/** Write-once storage for the minted certificate PDF and its NFT metadata JSON. */
export interface PermanentStore {
  put(bytes: Uint8Array, contentType: string, tags?: Record<string, string>): Promise<{ id: string; url: string }>;
  /** The bytes, or null when there is no such id. */
  get(id: string): Promise<Uint8Array | null>;
}

/** The permanent store could not save or read (misconfiguration, unfunded wallet, gateway down). */
export class PermanentStoreError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PermanentStoreError';
  }
}
