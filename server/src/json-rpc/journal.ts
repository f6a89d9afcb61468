import type { Transaction } from '@solana/web3.js';
import type { ChainService } from '../services/chain/types';

// `chain_transaction` keeps signature, slot, logs and compute units; a validator's getTransaction and
// getSignaturesForAddress also need the transaction itself, the balances around it and the accounts
// it touched. The journal records those for every transaction the embedded chain lands.

export const LAMPORTS_PER_SIGNATURE = 5000; // LiteSVM's default fee structure, as a validator's

/** Fee charged for a legacy message: per signature plus the compute-budget priority fee. */
export function messageFee(tx: Transaction): number {
  const msg = tx.compileMessage();
  let fee = msg.header.numRequiredSignatures * LAMPORTS_PER_SIGNATURE;
  const cb = 'ComputeBudget111111111111111111111111111111';
  let limit: number | null = null;
  let price = 0n;
  let count = 0;
  for (const ix of tx.instructions) {
    if (ix.programId.toBase58() !== cb) {
      count++;
      continue;
    }
    const d = ix.data;
    if (d[0] === 2 && d.length >= 5) limit = d.readUInt32LE(1);
    if (d[0] === 3 && d.length >= 9) price = d.readBigUInt64LE(1);
  }
  if (price > 0n) {
    const units = BigInt(limit ?? Math.min(1_400_000, 200_000 * count));
    fee += Number((price * units + 999_999n) / 1_000_000n);
  }
  return fee;
}

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
          wire: Buffer.from(t.tx.serialize({ requireAllSignatures: false, verifySignatures: false })),
          fee: messageFee(t.tx),
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
