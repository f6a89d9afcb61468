import { createHash } from 'node:crypto';
import { Message } from '@solana/web3.js';
import bs58 from 'bs58';
import { sql } from 'kysely';
import { isPostgres } from '../../db/dialect';
import { RpcCode, RpcError, invalidParams } from '../errors';
import { messageFee } from '../journal';
import { configParam, tooMany, u64Param } from '../params';
import { BLOCKHASH_VALIDITY, FEATURE_SET, SLOTS_PER_EPOCH, SOLANA_CORE_VERSION, type Method, type RpcEnv } from './env';

/** The node, its slots, epochs, blockhashes, fees and supply. */
export function clusterMethods(env: RpcEnv): Record<string, Method> {
  const { chain, db, context, wrap } = env;
  const methods: Record<string, Method> = {
    async getHealth(params) {
      tooMany(params, 0);
      return 'ok';
    },
    async getVersion(params) {
      tooMany(params, 0);
      return { 'feature-set': FEATURE_SET, 'solana-core': SOLANA_CORE_VERSION };
    },
    async getIdentity() {
      return { identity: chain.operator.toBase58() };
    },
    async getGenesisHash() {
      // Stable per data directory: derived from the registry's first transaction (the chain's genesis).
      const first = await db.selectFrom('chain_transaction').select('signature').orderBy('slot').orderBy('created_at').limit(1).executeTakeFirst();
      return bs58.encode(createHash('sha256').update(`attesta-embedded:${chain.programId.toBase58()}:${first?.signature ?? ''}`).digest());
    },
    async getSlot(params) {
      const cfg = configParam(params[0], ['commitment', 'minContextSlot']);
      return (await context(cfg)).slot;
    },
    async getBlockHeight(params) {
      const cfg = configParam(params[0], ['commitment', 'minContextSlot']);
      return (await context(cfg)).slot; // no skipped slots: height = slot
    },
    async getTransactionCount(params) {
      configParam(params[0], ['commitment', 'minContextSlot']);
      const r = await db.selectFrom('chain_transaction').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      return Number(r.n);
    },
    async getFirstAvailableBlock() {
      return 0;
    },
    async getEpochSchedule() {
      return { firstNormalEpoch: 0, firstNormalSlot: 0, leaderScheduleSlotOffset: SLOTS_PER_EPOCH, slotsPerEpoch: SLOTS_PER_EPOCH, warmup: false };
    },
    async getEpochInfo(params, call) {
      const cfg = configParam(params[0], ['commitment', 'minContextSlot']);
      const s = (await context(cfg)).slot;
      const n = await methods.getTransactionCount([], call);
      return { absoluteSlot: s, blockHeight: s, epoch: Math.floor(s / SLOTS_PER_EPOCH), slotIndex: s % SLOTS_PER_EPOCH, slotsInEpoch: SLOTS_PER_EPOCH, transactionCount: n };
    },
    async getRecentPerformanceSamples() {
      return [];
    },
    async getRecentPrioritizationFees() {
      return [];
    },
    async getVoteAccounts() {
      return { current: [], delinquent: [] };
    },
    async getClusterNodes() {
      return [];
    },
    async getLatestBlockhash(params) {
      const cfg = configParam(params[0], ['commitment', 'minContextSlot']);
      const ctx = await context(cfg);
      return { context: ctx, value: { blockhash: await chain.latestBlockhash(), lastValidBlockHeight: ctx.slot + BLOCKHASH_VALIDITY } };
    },
    async isBlockhashValid(params) {
      tooMany(params, 2);
      if (typeof params[0] !== 'string') throw invalidParams('Invalid params: expected a blockhash string.');
      const cfg = configParam(params[1], ['commitment', 'minContextSlot']);
      return wrap(cfg, chain.isBlockhashValid(params[0]));
    },
    async getFeeForMessage(params) {
      tooMany(params, 2);
      const cfg = configParam(params[1], ['commitment', 'minContextSlot']);
      if (typeof params[0] !== 'string') throw invalidParams('Invalid params: expected a base64 message.');
      let fee: number | null;
      try {
        const m = Message.from(Buffer.from(params[0], 'base64'));
        fee = chain.isBlockhashValid(m.recentBlockhash) ? messageFee(m) : null;
      } catch (e) {
        throw invalidParams(`invalid message: ${e instanceof Error ? e.message : String(e)}`);
      }
      return wrap(cfg, fee);
    },
    async getMinimumBalanceForRentExemption(params) {
      tooMany(params, 2);
      const len = u64Param(params[0] ?? 0, 'data length');
      configParam(params[1], ['commitment']);
      return (128 + len) * 3480 * 2; // Rent::default(): 3480 lamports/byte-year, 2 years exempt
    },
    async getSupply(params) {
      const cfg = configParam(params[0], ['commitment', 'excludeNonCirculatingAccountsList']);
      // Summed by the database (a row per account would be a million objects at scale).
      const isPg = isPostgres(db);
      const r = await db
        .selectFrom('chain_account')
        .select(sql<string | number | null>`sum(cast(lamports as ${sql.raw(isPg ? 'numeric' : 'integer')}))`.as('total'))
        .executeTakeFirstOrThrow();
      const total = Number(r.total ?? 0);
      return wrap(cfg, { circulating: total, nonCirculating: 0, nonCirculatingAccounts: [], total });
    },
    async getBlockTime(params) {
      tooMany(params, 1);
      const s = u64Param(params[0], 'slot');
      const j = await db.selectFrom('rpc_transaction').select('block_time').where('slot', '=', s).executeTakeFirst();
      if (j) return j.block_time;
      const t = await db.selectFrom('chain_transaction').select('created_at').where('slot', '=', s).executeTakeFirst();
      if (t) return Math.floor(Date.parse(t.created_at) / 1000);
      throw new RpcError(RpcCode.BlockNotAvailable, `Block not available for slot ${s}`);
    },
  };
  return methods;
}
