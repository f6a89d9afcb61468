import type { Kysely } from 'kysely';
import type { Config } from '../config';
import type { Database } from '../db/schema';
import type { TokenBuckets } from '../lib/rate-limit';
import type { SignInLimiter } from './auth/limits';
import type { BlobStore } from './blobs';
import type { VerdictService } from './certificates/verdict';
import type { VerdictStore } from './certificates/verdict-store';
import type { ChainService } from './chain';
import type { DevAccounts } from './demo/accounts';
import type { FaultPoints } from './faults';
import type { InstitutionLimiter } from './issuers/roles';
import type { PermanentStores } from './mint/permanent';
import type { SupportService } from './support';
import type { EventBus } from './verification/events';
import type { WalletTransactions } from './wallet-tx';
import type { VerificationQueue } from './verification/queue';

/**
 * Everything a request or job needs, built once by the composition root (compose.ts) and passed
 * through the tRPC context, REST handlers and plain routes, so tests can swap parts. No module keeps
 * a dependency of its own: what has state (limiters, caches, stores) is an instance here.
 */
export interface Services {
  config: Config;
  db: Kysely<Database>;
  chain: ChainService;
  /** Uploads (UploadThing or the data dir), wrapped with the crash points when a test configures one. */
  blobs: BlobStore & { kind: 'uploadthing' | 'local' };
  bus: EventBus;
  queue: VerificationQueue;
  /** Test-only crash points (ATTESTA_FAULT); no-ops in production. */
  faults: FaultPoints;
  /** Sign-in nonces and sign-ins per client and wallet (services/auth/limits.ts). */
  signInLimiter: SignInLimiter;
  /** Certificate creation pace per wallet and client (services/certificates/limits.ts); its clock also dates the daily budget. */
  creationLimiter: TokenBuckets;
  /** Support chat, contact and feedback (config.support). */
  support: SupportService;
  /** Permanent stores of minted certificates, one per public base URL (config.permanent). */
  permanent: PermanentStores;
  /** The public verdict of a hash, cached per chain state (services/certificates/verdict.ts). */
  verdicts: VerdictService;
  /** Verdicts by hash kept in the database, computed beside requests (embedded chain; else null). */
  verdictStore: VerdictStore | null;
  /** Transactions the platform prepares and pays for and a wallet signs (services/wallet-tx). */
  walletTx: WalletTransactions;
  /** Issuer and operator actions per wallet (config.institutions). */
  institutionLimiter: InstitutionLimiter;
  /** The development wallet's named accounts (embedded chain only; config.devAccounts), else null. */
  devAccounts: DevAccounts | null;
}
