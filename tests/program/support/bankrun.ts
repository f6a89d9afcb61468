import { AnchorProvider, Program } from '@coral-xyz/anchor';
import { BankrunProvider } from 'anchor-bankrun';
import { Clock, start } from 'solana-bankrun';
import { Keypair, PublicKey, SystemProgram, Transaction } from '@solana/web3.js';
import { IDL, type Certificates } from '../../../shared/program/idl';
import { CERTIFICATES_PROGRAM_ID } from '../../../shared/program/ids';
import { DEPLOY_DIR } from './paths';
import { parseInstructionError } from './errors';
import { assertProgramBuilt } from './paths';
import type { Runtime, RuntimeFactory, TxResult } from './runtime';

export async function startBankrun(programId: PublicKey = CERTIFICATES_PROGRAM_ID, opts: { loadProgram?: boolean } = {}): Promise<Runtime> {
  if (opts.loadProgram !== false) assertProgramBuilt();
  // bankrun finds `<name>.so` through SBF_OUT_DIR.
  process.env.SBF_OUT_DIR = DEPLOY_DIR;
  const context = await start(opts.loadProgram === false ? [] : [{ name: 'certificates', programId }], []);
  const provider = new BankrunProvider(context);
  const program = new Program<Certificates>({ ...IDL, address: programId.toBase58() } as Certificates, provider as unknown as AnchorProvider);
  const client = context.banksClient;
  const payer = context.payer;

  // Identical transactions (same signers, args and blockhash) would be rejected as already
  // processed; a new slot gives a new blockhash, as consecutive real transactions would have.
  async function freshBlockhash(): Promise<string> {
    const c = await client.getClock();
    context.warpToSlot(c.slot + 1n);
    // Warping recomputes the clock; keep the time the scenario set.
    context.setClock(new Clock(c.slot + 1n, c.epochStartTimestamp, c.epoch, c.leaderScheduleEpoch, c.unixTimestamp));
    const latest = await client.getLatestBlockhash();
    return latest ? latest[0] : context.lastBlockhash;
  }

  const send: Runtime['send'] = async (instructions, signers, opts = {}) => {
    const feePayer = opts.feePayer ?? payer;
    const tx = new Transaction({ feePayer: feePayer.publicKey, recentBlockhash: await freshBlockhash() }).add(...instructions);
    const all = [feePayer, ...signers].filter((k, i, a) => a.findIndex((o) => o.publicKey.equals(k.publicKey)) === i);
    tx.sign(...all);
    const res = await client.tryProcessTransaction(tx);
    const logs = res.meta?.logMessages ?? [];
    const computeUnits = res.meta?.computeUnitsConsumed ?? 0n;
    if (res.result === null) return { ok: true, logs, computeUnits } satisfies TxResult;
    return { ok: false, logs, computeUnits, error: res.result, ...parseInstructionError(res.result) };
  };

  return {
    name: 'bankrun',
    programId,
    program,
    payer,
    send,
    async getAccount(address) {
      const a = await client.getAccount(address);
      if (!a) return null;
      return { ...a, data: Buffer.from(a.data) };
    },
    async setAccount(address, account) {
      context.setAccount(address, {
        lamports: account.lamports,
        data: account.data,
        owner: account.owner,
        executable: account.executable ?? false,
      });
    },
    async airdrop(address, lamports) {
      const res = await send([SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: address, lamports })], []);
      if (!res.ok) throw new Error(`airdrop failed: ${res.error}`);
    },
    async now() {
      return (await client.getClock()).unixTimestamp;
    },
    async setUnixTimestamp(ts) {
      const c = await client.getClock();
      context.setClock(new Clock(c.slot, c.epochStartTimestamp, c.epoch, c.leaderScheduleEpoch, ts));
    },
    async minimumBalanceForRentExemption(len) {
      return (await client.getRent()).minimumBalance(BigInt(len));
    },
    async close() {},
  };
}

export const bankrun: RuntimeFactory = { name: 'bankrun', start: () => startBankrun() };
export type { Keypair };
