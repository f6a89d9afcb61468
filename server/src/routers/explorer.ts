import { explorerAddressInput, explorerTransactionInput } from '../../../shared/schemas/explorer';
import { ExplorerNotFound, explorerAddress, explorerTransaction } from '../services/explorer';
import { fail } from '../lib/errors';
import { publicProcedure, router } from '../trpc';

const notFound = (e: unknown): never => {
  if (e instanceof ExplorerNotFound) fail('NOT_FOUND', e.message);
  throw e;
};

/**
 * Read-only views of this server's chain for anyone, where public explorers cannot go (the embedded
 * chain, a validator on the server's machine): an account and its transactions, one transaction.
 * Public clusters link to Solana Explorer instead (shared/explorer.ts).
 */
export const explorerRouter = router({
  address: publicProcedure.input(explorerAddressInput).query(({ ctx, input }) => explorerAddress(ctx, input.address, input.limit).catch(notFound)),
  transaction: publicProcedure.input(explorerTransactionInput).query(({ ctx, input }) => explorerTransaction(ctx, input.signature).catch(notFound)),
});
