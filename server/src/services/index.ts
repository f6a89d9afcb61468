import type { Kysely } from 'kysely';
import type { Config } from '../config';
import type { Database } from '../db/schema';
import type { ChainService } from './chain';
import type { BlobStore } from './blobs';
import type { EventBus } from './verification/events';
import type { VerificationQueue } from './verification/queue';

/** Everything a request or job needs; passed through the tRPC context so tests can swap parts. */
export interface Services {
  config: Config;
  db: Kysely<Database>;
  chain: ChainService;
  blobs: BlobStore;
  bus: EventBus;
  queue: VerificationQueue;
}
