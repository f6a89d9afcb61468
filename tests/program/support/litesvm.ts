import { AnchorProvider, Program } from '@coral-xyz/anchor';
import { LiteSVM } from 'litesvm';
import { getTransactionDecoder, lamports as kitLamports, address as kitAddress } from '@solana/kit';
import { Connection, Keypair, LAMPORTS_PER_SOL, PublicKey, Transaction } from '@solana/web3.js';
import { IDL, type Certificates } from '../../../shared/program/idl';
import { CERTIFICATES_PROGRAM_ID } from '../../../shared/program/ids';
import { PROGRAM_SO } from './paths';
import { assertProgramBuilt } from './paths';
import type { Runtime, RuntimeFactory, TxResult } from './runtime';

const addr = (k: PublicKey) => kitAddress(k.toBase58());

type Failed = { err(): unknown; meta(): { logs(): string[]; computeUnitsConsumed(): bigint } };
type InstructionError = { index: number; err(): unknown };

function describeFailure(err: unknown): Pick<TxResult, 'customCode' | 'instructionIndex' | 'error'> {
  if (err && typeof err === 'object' && 'index' in err && typeof (err as InstructionError).err === 'function') {
    const ie = err as InstructionError;
    const inner = ie.err();
    if (inner && typeof inner === 'object' && 'code' in inner) {
      const code = Number((inner as { code: number }).code);
      return { instructionIndex: ie.index, customCode: code, error: `Instruction ${ie.index}: custom program error: 0x${code.toString(16)}` };
    }
    return { instructionIndex: ie.index, error: `Instruction ${ie.index}: ${String(inner)}` };
  }
  return { error: String(err) };
}

export async function startLiteSvm(programId: PublicKey = CERTIFICATES_PROGRAM_ID, opts: { loadProgram?: boolean } = {}): Promise<Runtime> {
  if (opts.loadProgram !== false) assertProgramBuilt();
  const svm = new LiteSVM();
  if (opts.loadProgram !== false) svm.addProgramFromFile(addr(programId), PROGRAM_SO);
  // LiteSVM's clock starts at 0; start at wall time like bankrun so timestamps look alike.
  const clock = svm.getClock();
  clock.unixTimestamp = BigInt(Math.floor(Date.now() / 1000));
  svm.setClock(clock);
  const payer = Keypair.generate();
  svm.airdrop(addr(payer.publicKey), kitLamports(1_000n * BigInt(LAMPORTS_PER_SOL)));
  // Program is only used to build instructions; the connection is never contacted.
  const provider = new AnchorProvider(new Connection('http://127.0.0.1:1'), {
    publicKey: payer.publicKey,
    signTransaction: async (t) => t,
    signAllTransactions: async (t) => t,
  }, {});
  const program = new Program<Certificates>({ ...IDL, address: programId.toBase58() } as Certificates, provider);
  const decoder = getTransactionDecoder();

  return {
    name: 'litesvm',
    programId,
    program,
    payer,
    async send(instructions, signers, opts = {}) {
      const feePayer = opts.feePayer ?? payer;
      // A new blockhash per transaction, so a repeated instruction is not "already processed".
      svm.expireBlockhash();
      const tx = new Transaction({ feePayer: feePayer.publicKey, recentBlockhash: svm.latestBlockhash() }).add(...instructions);
      const all = [feePayer, ...signers].filter((k, i, a) => a.findIndex((o) => o.publicKey.equals(k.publicKey)) === i);
      tx.sign(...all);
      const res = svm.sendTransaction(decoder.decode(tx.serialize()) as never) as unknown;
      if (res && typeof (res as Failed).err === 'function') {
        const f = res as Failed;
        const meta = f.meta();
        return { ok: false, logs: meta.logs(), computeUnits: meta.computeUnitsConsumed(), ...describeFailure(f.err()) };
      }
      const ok = res as { logs(): string[]; computeUnitsConsumed(): bigint };
      return { ok: true, logs: ok.logs(), computeUnits: ok.computeUnitsConsumed() };
    },
    async getAccount(address) {
      const a = svm.getAccount(addr(address));
      if (!a.exists) return null;
      return {
        lamports: Number(a.lamports),
        data: Buffer.from(a.data),
        owner: new PublicKey(a.programAddress),
        executable: a.executable,
        rentEpoch: 0,
      };
    },
    async setAccount(address, account) {
      svm.setAccount({
        address: addr(address),
        lamports: kitLamports(BigInt(account.lamports)),
        data: account.data,
        programAddress: addr(account.owner),
        executable: account.executable ?? false,
        space: BigInt(account.data.length),
      });
    },
    async airdrop(address, lamports) {
      svm.airdrop(addr(address), kitLamports(lamports));
    },
    async now() {
      return svm.getClock().unixTimestamp;
    },
    async setUnixTimestamp(ts) {
      const c = svm.getClock();
      c.unixTimestamp = ts;
      c.slot = c.slot + 1n;
      svm.setClock(c);
    },
    async minimumBalanceForRentExemption(len) {
      return svm.minimumBalanceForRentExemption(BigInt(len));
    },
    async close() {},
  };
}

export const litesvm: RuntimeFactory = { name: 'litesvm', start: () => startLiteSvm() };
