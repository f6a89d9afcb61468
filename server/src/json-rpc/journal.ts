import type { ChainService } from '../services/chain/types';

// `chain_transaction` keeps signature, slot, logs and compute units; a validator's getTransaction and
// getSignaturesForAddress also need the transaction itself, the balances around it and the accounts
// it touched. The journal records those for every transaction the embedded chain lands.

export { LAMPORTS_PER_SIGNATURE, messageFee } from '../services/chain/compiled-tx';

/**
 * Records every transaction the embedded chain lands, in the DB handle it was persisted with (so a
 * rolled-back caller transaction leaves no journal row either). Subscribed by the composition root
 * before anything is sent (the demo seed's transactions are journaled too); returns the unsubscribe.
 */
export function journalLandedTransactions(chain: ChainService): () => void {
  return chain.onLanded(async (t) => {
    try {
      await t.db
        .insertInto('rpc_transaction')
        .values({
          signature: t.signature,
          slot: t.slot,
          block_time: Math.floor(Date.now() / 1000),
          wire: Buffer.from(t.wire),
          fee: t.fee,
          pre_balances: JSON.stringify(t.preBalances),
          post_balances: JSON.stringify(t.postBalances),
          err: null,
        })
        .onConflict((c) => c.doNothing())
        .execute();
      await t.db
        .insertInto('rpc_transaction_account')
        .values(t.keys.map((pubkey) => ({ pubkey, slot: t.slot, signature: t.signature })))
        .onConflict((c) => c.doNothing())
        .execute();
    } catch (e) {
      // The transaction has landed and is persisted; a missing journal row only limits getTransaction.
      console.warn('rpc journal: could not record', t.signature, e);
    }
  });
}
