import { Connection, type Keypair, PublicKey, type Signer, type Transaction, SendTransactionError } from '@solana/web3.js';
import bs58 from 'bs58';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { BaseChain } from './base';
import { ChainError, chainErrorFromLogs, type AccountSnapshot, type ChainReceipt, type TxOptions } from './types';

/** Any Solana RPC (test validator, devnet, mainnet) at `confirmed` commitment. */
export class RpcChain extends BaseChain {
  readonly mode = 'rpc' as const;
  readonly connection: Connection;

  constructor(
    programId: PublicKey,
    operator: Keypair,
    private readonly db: Kysely<Database>,
    rpcUrl: string,
  ) {
    super(programId, operator);
    this.connection = new Connection(rpcUrl, 'confirmed');
  }

  async now() {
    const slot = await this.connection.getSlot('confirmed');
    const t = await this.connection.getBlockTime(slot);
    return BigInt(t ?? Math.floor(Date.now() / 1000));
  }

  async latestBlockhash() {
    return (await this.connection.getLatestBlockhash('confirmed')).blockhash;
  }

  async getAccountInfo(pubkey: PublicKey): Promise<AccountSnapshot | null> {
    const a = await this.connection.getAccountInfo(pubkey, 'confirmed');
    if (!a) return null;
    return { pubkey: pubkey.toBase58(), owner: a.owner.toBase58(), lamports: BigInt(a.lamports), data: new Uint8Array(a.data), executable: a.executable };
  }

  protected async programAccounts(discriminator: Uint8Array) {
    const res = await this.connection.getProgramAccounts(this.programId, {
      commitment: 'confirmed',
      filters: [{ memcmp: { offset: 0, bytes: bs58.encode(discriminator) } }],
    });
    return res.map((r) => ({ pubkey: r.pubkey, data: new Uint8Array(r.account.data) }));
  }

  private async sign(tx: Transaction, signers: Signer[]) {
    const { blockhash, lastValidBlockHeight } = await this.connection.getLatestBlockhash('confirmed');
    tx.feePayer = this.operator;
    tx.recentBlockhash = blockhash;
    tx.sign(this.operatorKey, ...signers.filter((s) => !s.publicKey.equals(this.operator)));
    return { blockhash, lastValidBlockHeight };
  }

  async simulate(tx: Transaction, signers: Signer[]) {
    await this.sign(tx, signers);
    const res = await this.connection.simulateTransaction(tx);
    return { ok: !res.value.err, logs: res.value.logs ?? [], error: res.value.err ? JSON.stringify(res.value.err) : null, computeUnits: res.value.unitsConsumed ?? null };
  }

  async sendTransaction(tx: Transaction, signers: Signer[], o: TxOptions): Promise<ChainReceipt> {
    return this.submit(tx, await this.sign(tx, signers), o);
  }

  async sendSignedTransaction(tx: Transaction, o: TxOptions): Promise<ChainReceipt> {
    const { lastValidBlockHeight } = await this.connection.getLatestBlockhash('confirmed');
    return this.submit(tx, { blockhash: tx.recentBlockhash!, lastValidBlockHeight }, o);
  }

  private async submit(tx: Transaction, bh: { blockhash: string; lastValidBlockHeight: number }, o: TxOptions): Promise<ChainReceipt> {
    let signature: string;
    try {
      signature = await this.connection.sendRawTransaction(tx.serialize(), { preflightCommitment: 'confirmed' });
    } catch (e) {
      const logs = e instanceof SendTransactionError ? ((await e.getLogs(this.connection).catch(() => [])) ?? []) : [];
      throw chainErrorFromLogs(e instanceof Error ? e.message : String(e), logs);
    }
    const conf = await this.connection.confirmTransaction({ signature, ...bh }, 'confirmed');
    if (conf.value.err) throw new ChainError(`Transaction ${signature} failed: ${JSON.stringify(conf.value.err)}`, null, null, []);
    const receipt: ChainReceipt = { signature, slot: conf.context.slot, logs: [], computeUnits: null };
    await (o.db ?? this.db)
      .insertInto('chain_transaction')
      .values({
        signature,
        slot: receipt.slot,
        status: 'success',
        kind: o.kind,
        certificate_id: o.certificateId ?? null,
        logs: '[]',
        error: null,
        compute_units: null,
        created_at: new Date().toISOString(),
      })
      .execute();
    return receipt;
  }

  async close() {}
}
