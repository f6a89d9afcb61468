import { PublicKey } from '@solana/web3.js';
import type { Kysely } from 'kysely';
import { CERTIFICATES_PROGRAM_ID } from '../../../../shared/program/ids';
import type { Config } from '../../config';
import type { Database } from '../../db/schema';
import { EmbeddedChain } from './embedded';
import { loadOrCreateOperator } from './operator';
import { RemoteChain } from './remote';
import type { ChainService } from './types';

export * from './types';

/** Chooses the chain from configuration, loads the operator key and makes sure the registry exists. */
export async function createChain(config: Config, db: Kysely<Database>): Promise<ChainService & { ensureRegistry(): Promise<unknown> }> {
  const operator = loadOrCreateOperator(config.operatorKeypairPath);
  const programId = config.chain.programId ? new PublicKey(config.chain.programId) : CERTIFICATES_PROGRAM_ID;
  const chain =
    config.chain.mode === 'embedded'
      ? await EmbeddedChain.start({
          db,
          programId,
          programPath: config.chain.programPath,
          operator,
          readCacheBytes: config.chain.readCacheBytes,
          // SQLite: account reads get their own read-only connection to the file (see embedded.ts).
          sqliteFile: config.database.kind === 'sqlite' ? config.database.file : undefined,
        })
      : await RemoteChain.connect({ programId, operator, db, rpcUrl: config.chain.rpcUrl });
  await chain.ensureRegistry();
  return chain;
}
