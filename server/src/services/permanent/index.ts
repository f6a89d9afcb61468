/**
 * Permanent copies of minted certificates (the PDF and the NFT metadata JSON), write-once.
 *
 * - `createLocalPermanentStore({dir, publicBaseUrl})`: embedded default, content-addressed
 *   (id = sha256 hex), served read-only by the server at `${publicBaseUrl}/permanent/<id>` using
 *   `readPermanent(dir, id) → {bytes, contentType, tags} | null` (null for ids that are not 64 hex).
 * - `createArweavePermanentStore({url, walletPath | jwk, gatewayUrl?, mine?, appTags?})`: production
 *   (tested against arlocal); id = transaction id, url = `${gateway}/<id>`.
 * - `createPermanentStore({dataDir, publicBaseUrl, arweaveUrl?, arweaveWalletPath?, arweaveJwk?})`:
 *   Arweave when a URL and a wallet are configured (config.permanent: ARWEAVE_URL,
 *   ARWEAVE_WALLET_PATH or ARWEAVE_WALLET_JWK, ARWEAVE_GATEWAY_URL), else
 *   `${dataDir}/permanent`. Failures throw `PermanentStoreError` with a message that says what to fix.
 */
import { join } from 'node:path';
import type { JWKInterface } from 'arweave/node/lib/wallet.js';
import { createArweavePermanentStore } from './arweave.js';
import { createLocalPermanentStore } from './local.js';
import { PermanentStoreError, type PermanentStore } from './types.js';

export { createLocalPermanentStore, readPermanent, isPermanentId, type LocalPermanentStoreOptions, type PermanentObject } from './local.js';
export { createArweavePermanentStore, type ArweavePermanentStoreOptions } from './arweave.js';
export { PermanentStoreError, type PermanentStore } from './types.js';

export interface PermanentStoreConfig {
  dataDir: string;
  publicBaseUrl: string;
  arweaveUrl?: string;
  arweaveWalletPath?: string;
  arweaveJwk?: JWKInterface;
  arweaveGatewayUrl?: string;
}

export function createPermanentStore(config: PermanentStoreConfig): PermanentStore & { kind: 'arweave' | 'local' } {
  if (config.arweaveUrl) {
    if (!config.arweaveWalletPath && !config.arweaveJwk) {
      throw new PermanentStoreError('ARWEAVE_URL is set but no wallet is configured: set ARWEAVE_WALLET_PATH to a JWK key file, or unset ARWEAVE_URL to keep copies in the data directory.');
    }
    return Object.assign(
      createArweavePermanentStore({ url: config.arweaveUrl, walletPath: config.arweaveWalletPath, jwk: config.arweaveJwk, gatewayUrl: config.arweaveGatewayUrl }),
      { kind: 'arweave' as const },
    );
  }
  return Object.assign(createLocalPermanentStore({ dir: join(config.dataDir, 'permanent'), publicBaseUrl: config.publicBaseUrl }), { kind: 'local' as const });
}
