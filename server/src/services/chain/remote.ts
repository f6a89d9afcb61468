import { Connection, type Keypair, PublicKey, type Signer, type Transaction, SendTransactionError } from '@solana/web3.js';
import bs58 from 'bs58';
import type { Kysely } from 'kysely';
import { errorByCode } from '../../../../shared/program/errors';
import type { Database } from '../../db/schema';
import { BaseChain } from './base';
import { ChainError, chainErrorFromLogs, type AccountSnapshot, type ChainReceipt, type SigningBlockhash, type TxOptions } from './types';

const COMMITMENT = 'confirmed' as const;
/** A blockhash is accepted for 150 blocks after the one it names (validator MAX_PROCESSING_AGE). */
const BLOCKHASH_VALID_BLOCKS = 150;
const POLL_MS = 400;
/** A wallet-signed transaction must land within ~150 blocks; the signer is told a bit less. */
export const SIGNING_WINDOW_MS = 60_000;
const RESEND_MS = 2_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Host only: keyed RPC URLs carry the key in the path or query, which must not reach logs. */
const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return 'the configured URL';
  }
};

/**
 * Any Solana RPC (test validator, devnet, mainnet, another Attesta server's /rpc) at `confirmed`.
 * Confirmation polls getSignatureStatuses (no WebSocket: web3.js would guess ws at port + 1, which
 * is wrong for most providers and for Attesta's /rpc) and re-broadcasts until the blockhash expires.
 */
export class RemoteChain extends BaseChain {
  readonly mode = 'rpc' as const;
  readonly connection: Connection;

  constructor(
    programId: PublicKey,
    operator: Keypair,
    private readonly db: Kysely<Database>,
    private readonly rpcUrl: string,
  ) {
    super(programId, operator);
    this.connection = new Connection(rpcUrl, COMMITMENT);
  }

  /** Checks the RPC answers and the program is deployed there, so a misconfiguration fails at start with a clear message. */
  static async connect(p: { programId: PublicKey; operator: Keypair; db: Kysely<Database>; rpcUrl: string }): Promise<RemoteChain> {
    const chain = new RemoteChain(p.programId, p.operator, p.db, p.rpcUrl);
    const where = hostOf(p.rpcUrl);
    let program: Awaited<ReturnType<Connection['getAccountInfo']>>;
    try {
      await chain.connection.getVersion();
      program = await chain.connection.getAccountInfo(p.programId, COMMITMENT);
    } catch (e) {
      throw new Error(`Cannot reach the Solana RPC at ${where} (SOLANA_RPC_URL): ${e instanceof Error ? e.message : String(e)}`);
    }
    if (!program || !program.executable) {
      throw new Error(
        `The certificates program ${p.programId.toBase58()} is not deployed on the cluster at ${where} ` +
          `(${program ? 'the account exists but is not executable' : 'no such account'}). Deploy it or set CERTIFICATES_PROGRAM_ID.`,
      );
    }
    return chain;
  }

  /**
   * Every transaction's fee is the operator's: an unfunded key (a fresh one is generated when
   * OPERATOR_KEYPAIR_PATH names no file) is refused here with its address, not by the first send.
   */
  override async ensureRegistry() {
    const lamports = await this.connection.getBalance(this.operator, COMMITMENT);
    if (lamports === 0) {
      throw new Error(
        `The operator ${this.operator.toBase58()} has no SOL on the cluster at ${hostOf(this.rpcUrl)}; it pays every transaction fee. ` +
          'Fund it, or set OPERATOR_KEYPAIR_PATH to a funded key.',
      );
    }
    const registry = await super.ensureRegistry();
    if (!registry.verifiers.some((k) => k.equals(this.operator))) {
      // Not fatal (public verification works), but every verdict will be refused until the admin adds it.
      console.warn(`Attesta: the operator ${this.operator.toBase58()} is not a verifier of the registry; the admin ${registry.admin.toBase58()} must add it (set_verifier).`);
    }
    return registry;
  }

  async now() {
    const slot = await this.connection.getSlot(COMMITMENT);
    const t = await this.connection.getBlockTime(slot).catch(() => null);
    return BigInt(t ?? Math.floor(Date.now() / 1000));
  }

  async latestBlockhash() {
    return (await this.connection.getLatestBlockhash(COMMITMENT)).blockhash;
  }

  async getAccountInfo(pubkey: PublicKey): Promise<AccountSnapshot | null> {
    const a = await this.connection.getAccountInfo(pubkey, COMMITMENT);
    if (!a) return null;
    return { pubkey: pubkey.toBase58(), owner: a.owner.toBase58(), lamports: BigInt(a.lamports), data: new Uint8Array(a.data), executable: a.executable };
  }

  protected async programAccounts(discriminator: Uint8Array) {
    const res = await this.connection.getProgramAccounts(this.programId, {
      commitment: COMMITMENT,
      filters: [{ memcmp: { offset: 0, bytes: bs58.encode(discriminator) } }],
    });
    return res.map((r) => ({ pubkey: r.pubkey, data: new Uint8Array(r.account.data) }));
  }

  private async sign(tx: Transaction, signers: Signer[]) {
    const { blockhash, lastValidBlockHeight } = await this.connection.getLatestBlockhash(COMMITMENT);
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
    const { lastValidBlockHeight } = await this.sign(tx, signers);
    return this.submit(tx, lastValidBlockHeight, o);
  }

  async sendSignedTransaction(tx: Transaction, o: TxOptions): Promise<ChainReceipt> {
    // The wallet signed over some earlier blockhash: the latest one's limit is exact when it is the
    // same, otherwise an upper bound (any blockhash still valid expires within 150 blocks from now).
    const latest = await this.connection.getLatestBlockhash(COMMITMENT);
    const limit = tx.recentBlockhash === latest.blockhash ? latest.lastValidBlockHeight : (await this.connection.getBlockHeight(COMMITMENT)) + BLOCKHASH_VALID_BLOCKS;
    return this.submit(tx, limit, o);
  }

  private async submit(tx: Transaction, lastValidBlockHeight: number, o: TxOptions): Promise<ChainReceipt> {
    const raw = tx.serialize();
    let signature: string;
    try {
      signature = await this.connection.sendRawTransaction(raw, { preflightCommitment: COMMITMENT, maxRetries: 0 });
    } catch (e) {
      // Only an answer from the RPC is a refusal; a network failure leaves the outcome unknown
      // (the transaction may have been delivered), so it is rethrown as is, not as a ChainError.
      if (e instanceof SendTransactionError) throw await this.refusal(e);
      throw e;
    }
    const { slot, logs, computeUnits } = await this.confirm(signature, raw, lastValidBlockHeight);
    const receipt: ChainReceipt = { signature, slot, logs, computeUnits };
    await (o.db ?? this.db)
      .insertInto('chain_transaction')
      .values({
        signature,
        slot,
        status: 'success',
        kind: o.kind,
        certificate_id: o.certificateId ?? null,
        logs: JSON.stringify(logs),
        error: null,
        compute_units: computeUnits,
        created_at: new Date().toISOString(),
      })
      .execute();
    return receipt;
  }

  /** A preflight refusal (-32002 with the simulation's logs) → the program's named error when there is one. */
  private async refusal(e: SendTransactionError): Promise<ChainError> {
    const logs = e.logs ?? ((await e.getLogs(this.connection).catch(() => null)) as string[] | null) ?? [];
    const err = chainErrorFromLogs(e.message, logs);
    if (err.errorName) return err;
    // Errors raised outside Anchor's logger still carry the code: "custom program error: 0x1771".
    const m = /custom program error: 0x([0-9a-f]+)/i.exec(`${e.message}\n${logs.join('\n')}`);
    const known = m ? errorByCode(parseInt(m[1], 16)) : undefined;
    return known ? new ChainError(known.msg, known.code, known.name, logs) : err;
  }

  /** Polls until the signature is confirmed, its transaction failed, or its blockhash expired. */
  private async confirm(signature: string, raw: Buffer, lastValidBlockHeight: number) {
    let lastSend = Date.now();
    for (;;) {
      const { value } = await this.connection.getSignatureStatuses([signature]);
      const st = value[0];
      if (st && (st.confirmationStatus === 'confirmed' || st.confirmationStatus === 'finalized')) {
        const landed = await this.connection
          .getTransaction(signature, { commitment: COMMITMENT, maxSupportedTransactionVersion: 0 })
          .catch(() => null);
        const logs = landed?.meta?.logMessages ?? [];
        if (st.err) throw chainErrorFromLogs(`Transaction ${signature} failed: ${JSON.stringify(st.err)}`, logs);
        return { slot: st.slot, logs, computeUnits: landed?.meta?.computeUnitsConsumed ?? null };
      }
      if (!st && (await this.connection.getBlockHeight(COMMITMENT)) > lastValidBlockHeight) {
        // It may have landed between the two reads: one last look before calling it expired.
        const again = (await this.connection.getSignatureStatuses([signature], { searchTransactionHistory: true })).value[0];
        if (!again) throw new ChainError(`Transaction ${signature} expired before it landed (blockhash too old); nothing was written`, null, null, []);
        continue;
      }
      if (Date.now() - lastSend >= RESEND_MS) {
        // RPC nodes drop transactions under load; re-broadcasting the same bytes is idempotent.
        lastSend = Date.now();
        await this.connection.sendRawTransaction(raw, { skipPreflight: true, maxRetries: 0 }).catch(() => undefined);
      }
      await sleep(POLL_MS);
    }
  }

  async signingBlockhash(): Promise<SigningBlockhash> {
    const r = await this.connection.getLatestBlockhash(COMMITMENT);
    return { blockhash: r.blockhash, lastValidBlockHeight: r.lastValidBlockHeight, expiresAt: Date.now() + SIGNING_WINDOW_MS };
  }

  async blockhashExpired(a: { expiresAt: number; lastValidBlockHeight: number | null }) {
    if (a.lastValidBlockHeight == null) return Date.now() > a.expiresAt;
    return (await this.connection.getBlockHeight(COMMITMENT)) > a.lastValidBlockHeight;
  }

  async close() {}
}
