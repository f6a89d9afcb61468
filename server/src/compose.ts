import type { Config } from './config';
import { openDatabase, openPointReads } from './db';
import { journalLandedTransactions } from './json-rpc/journal';
import { TokenBuckets } from './lib/rate-limit';
import type { Services } from './services';
import { SignInLimiter } from './services/auth';
import { openBlobStore, startOrphanBlobSweeper } from './services/blobs';
import { VerdictService } from './services/certificates/verdict';
import { VerdictStore } from './services/certificates/verdict-store';
import { createChain } from './services/chain';
import { EmbeddedChain } from './services/chain/embedded';
import { RemoteChain } from './services/chain/remote';
import { ChainSync } from './services/chain-sync';
import { loadDevAccounts } from './services/demo/accounts';
import { seedDemoData } from './services/demo/seed';
import { closeDocumentReaders, keepDocumentReaderWarm } from './services/documents';
import { faultPoints, withFaultPoints } from './services/faults';
import { startInstitutionWork } from './services/issuers/background';
import { InstitutionLimiter } from './services/issuers/roles';
import { reconcileMints } from './services/mint';
import { PermanentStores } from './services/mint/permanent';
import { closeOcr } from './services/ocr';
import { SupportService } from './services/support';
import { EventBus } from './services/verification/events';
import { VerificationQueue } from './services/verification/queue';
import { VerificationWorker } from './services/verification/worker';
import { WalletTransactions } from './services/wallet-tx';

// The composition root: every service is built here, once, from the configuration, and handed to
// the transports (app.ts: tRPC, REST, JSON-RPC, plain routes) in `Services`. Wiring that is not an
// import shows here and nowhere else: the chain's landed-transaction listeners, the crash points.

/** Opens the database and the chain and builds every service. */
export async function composeServices(config: Config): Promise<Services> {
  const { db } = await openDatabase(config.database);
  const chain = await createChain(config, db);
  // The JSON-RPC journal hears of every landed transaction first (in the sender's DB transaction),
  // before anything is sent — the demo seed's transactions are journaled too.
  if (chain.mode === 'embedded') journalLandedTransactions(chain);
  const faults = faultPoints(config.faults);
  const services: Services = {
    config,
    db,
    chain,
    blobs: withFaultPoints(openBlobStore(config), faults),
    bus: new EventBus(),
    queue: new VerificationQueue(db, {}, config.instanceId),
    faults,
    signInLimiter: new SignInLimiter(config.limits.signIn),
    creationLimiter: new TokenBuckets(),
    support: new SupportService(db, config.support),
    permanent: new PermanentStores(config),
    verdicts: new VerdictService({ db, chain }),
    // A cold verify in one read: verdicts by hash stored, kept honest by the database's triggers.
    verdictStore: chain instanceof EmbeddedChain ? new VerdictStore({ db, chain, reads: openPointReads(db, config.database) }) : null,
    walletTx: new WalletTransactions(chain),
    institutionLimiter: new InstitutionLimiter(config.institutions),
    devAccounts: loadDevAccounts(config),
  };
  services.verdicts.stored = services.verdictStore;
  return services;
}

export interface BackgroundWork {
  /** Keeps rows in line with what others change on chain; `idle()` resolves once it has caught up. */
  chainSync: ChainSync;
  /** What start-up found and repaired (mints finished from the chain record after a crash). */
  reconciledMints: Awaited<ReturnType<typeof reconcileMints>>;
  stop(): Promise<void>;
}

/** Start-up repairs and the work that runs beside requests: demo data, chain follower, mint reconcile, institutions' actions and domain re-checks, orphan sweep, verification worker. */
export async function startBackgroundWork(services: Services): Promise<BackgroundWork> {
  const { config, chain } = services;
  if (config.demoData) await seedDemoData(services);
  // Rows follow changes others make on chain (revocations, confirmations, supersedes).
  const chainSync = new ChainSync(services, {
    intervalMs: config.chainSync.intervalMs,
    connection: chain instanceof RemoteChain ? chain.connection : undefined,
  });
  await chainSync.start();
  // A crash between a mint's submit and its DB write is finished here, from the chain record.
  const reconciledMints = await reconcileMints(services);
  if (reconciledMints.errors.length) console.warn('mint reconcile:', reconciledMints.errors);
  // Institutions' wallet actions a crash left half-done; domain proofs re-checked periodically.
  const institutions = await startInstitutionWork(services);
  // Blobs of uploads a killed process never committed (services/blobs.ts).
  const sweeper = await startOrphanBlobSweeper(services);
  const worker = new VerificationWorker(services);
  if (config.worker) await worker.start();
  // Started beside start-up, not awaited: the first certificate finds a reader ready and warm. Also on
  // a server without the worker: an upload's checks run in a reader too.
  if (config.documentReaderWarm) void keepDocumentReaderWarm(true);
  services.verdictStore?.start();
  return {
    chainSync,
    reconciledMints,
    async stop() {
      await services.verdictStore?.stop();
      await worker.stop();
      await chainSync.stop();
      await institutions.stop();
      await sweeper.stop();
    },
  };
}

/** Releases what composeServices opened (after the background work has stopped). */
export async function closeServices(services: Services): Promise<void> {
  await closeOcr(); // the OCR worker thread must not outlive the server
  await closeDocumentReaders(); // nor the document reader processes
  await services.chain.close();
  await services.verdictStore?.close();
  await services.db.destroy();
}
