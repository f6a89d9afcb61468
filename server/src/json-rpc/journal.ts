import { EventEmitter } from 'node:events';
import { PublicKey, type Signer, Transaction } from '@solana/web3.js';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { ChainReceipt, ChainService, TxOptions } from '../services/chain/types';

// `chain_transaction` keeps signature, slot, logs and compute units; a validator's getTransaction and
// getSignaturesForAddress also need the transaction itself, the balances around it and the accounts
// it touched. The journal records those for every transaction the embedded chain lands once it is
// installed, in the same DB handle (so a rolled-back caller transaction leaves no journal row either).

export interface JournalRow {
  signature: string;
  slot: number;
  block_time: number;
  wire: Buffer;
  fee: number;
  pre_balances: string;
  post_balances: string;
  err: string | null;
}

type JournalDb = Kysely<Database & {
  rpc_transaction: JournalRow;
  rpc_transaction_account: { pubkey: string; slot: number; signature: string };
}>;

export const journalDb = (db: Kysely<Database>) => db as unknown as JournalDb;

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

const installed = new WeakSet<object>();

/** A transaction the chain has landed (for PubSub notifications). */
export interface LandedTransaction {
  signature: string;
  slot: number;
  keys: string[];
  err: unknown;
  /** Who sent it: the server's own flows name themselves (`anchor_certificate`, …); /rpc is `rpc_send`. */
  kind: string;
}

const emitters = new WeakMap<object, EventEmitter>();
/** `landed` events (LandedTransaction) of one chain, emitted once its journal is installed. */
export function journalEvents(chain: ChainService): EventEmitter {
  let e = emitters.get(chain);
  if (!e) {
    e = new EventEmitter();
    e.setMaxListeners(0); // one listener per open WebSocket
    emitters.set(chain, e);
  }
  return e;
}

/**
 * Wraps the embedded chain's two send paths so every landed transaction is journaled. Idempotent.
 * Balances are read right around the send; LiteSVM runs synchronously, so only a transaction
 * started in the same microtask burst could blur them.
 */
export async function installTransactionJournal(chain: ChainService, db: Kysely<Database>): Promise<void> {
  if (chain.mode !== 'embedded' || installed.has(chain)) return;
  installed.add(chain);
  const sendTransaction = chain.sendTransaction.bind(chain);
  const sendSignedTransaction = chain.sendSignedTransaction.bind(chain);

  const balances = async (keys: string[]) => {
    const out = new Map<string, number>();
    for (const k of keys) out.set(k, Number((await chain.getAccountInfo(new PublicKey(k)))?.lamports ?? 0n));
    return out;
  };

  const events = journalEvents(chain);
  const record = async (tx: Transaction, pre: Map<string, number>, receipt: ChainReceipt, o: TxOptions) => {
    const keys = tx.compileMessage().accountKeys.map((k) => k.toBase58());
    try {
      const post = await balances(keys);
      const h = journalDb(o.db ?? db);
      const signature = receipt.signature;
      await h
        .insertInto('rpc_transaction')
        .values({
          signature,
          slot: receipt.slot,
          block_time: Math.floor(Date.now() / 1000),
          wire: Buffer.from(tx.serialize({ requireAllSignatures: false, verifySignatures: false })),
          fee: messageFee(tx),
          pre_balances: JSON.stringify(keys.map((k) => pre.get(k) ?? post.get(k) ?? 0)),
          post_balances: JSON.stringify(keys.map((k) => post.get(k) ?? 0)),
          err: null,
        })
        .onConflict((c) => c.doNothing())
        .execute();
      await h
        .insertInto('rpc_transaction_account')
        .values([...new Set(keys)].map((pubkey) => ({ pubkey, slot: receipt.slot, signature })))
        .onConflict((c) => c.doNothing())
        .execute();
    } catch (e) {
      // The transaction has landed and is persisted; a missing journal row only limits getTransaction.
      console.warn('rpc journal: could not record', receipt.signature, e);
    }
    events.emit('landed', { signature: receipt.signature, slot: receipt.slot, keys: [...new Set(keys)], err: null, kind: o.kind } satisfies LandedTransaction);
  };

  chain.sendTransaction = async (tx: Transaction, signers: Signer[], o: TxOptions) => {
    // The chain signs with the operator as fee payer: compile the same message to know its keys.
    const probe = new Transaction({ feePayer: chain.operator, blockhash: PublicKey.default.toBase58(), lastValidBlockHeight: 0 }).add(...tx.instructions);
    const pre = await balances(probe.compileMessage().accountKeys.map((k) => k.toBase58()));
    const receipt = await sendTransaction(tx, signers, o);
    await record(tx, pre, receipt, o);
    return receipt;
  };
  chain.sendSignedTransaction = async (tx: Transaction, o: TxOptions) => {
    const pre = await balances(tx.compileMessage().accountKeys.map((k) => k.toBase58()));
    const receipt = await sendSignedTransaction(tx, o);
    await record(tx, pre, receipt, o);
    return receipt;
  };
}
