// Runs a program built by the toolchain in both runtimes: LiteSVM (kit transactions) and
// solana-bankrun (web3.js v1 transactions). Instructions carry no accounts.
import { FailedTransactionMetadata, LiteSVM } from 'litesvm';
import {
  appendTransactionMessageInstruction, createTransactionMessage, generateKeyPairSigner, lamports, pipe,
  setTransactionMessageFeePayerSigner, signTransactionMessageWithSigners, type Address, type KeyPairSigner,
} from '@solana/kit';

export interface RunResult {
  ok: boolean;
  error: string | null;
  logs: string[];
  returnData: Buffer;
  computeUnits: bigint;
}

/** One LiteSVM instance with a program loaded; `run` sends an instruction with no accounts. */
export async function liteSvmProgram(so: Uint8Array) {
  const svm = new LiteSVM();
  const programId: Address = (await generateKeyPairSigner()).address;
  svm.addProgram(programId, so);
  const payer: KeyPairSigner = await generateKeyPairSigner();
  svm.airdrop(payer.address, lamports(1_000_000_000n));
  return {
    programId,
    async run(data: Uint8Array | number[]): Promise<RunResult> {
      const message = pipe(
        createTransactionMessage({ version: 0 }),
        (m) => setTransactionMessageFeePayerSigner(payer, m),
        (m) => svm.setTransactionMessageLifetimeUsingLatestBlockhash(m),
        (m) => appendTransactionMessageInstruction({ programAddress: programId, accounts: [], data: Uint8Array.from(data) }, m),
      );
      const result = svm.sendTransaction(await signTransactionMessageWithSigners(message));
      svm.expireBlockhash(); // identical instructions in a row would otherwise be duplicate transactions
      const failed = result instanceof FailedTransactionMetadata;
      const meta = failed ? result.meta() : result;
      return {
        ok: !failed,
        error: failed ? result.err().toString() : null,
        logs: meta.logs(),
        returnData: Buffer.from(meta.returnData().data()),
        computeUnits: meta.computeUnitsConsumed(),
      };
    },
  };
}

/** A bankrun context with `<name>.so` from `dir` loaded; `run` mirrors the LiteSVM helper. */
export async function bankrunProgram(dir: string, name: string) {
  const { start } = await import('solana-bankrun');
  const { Keypair, Transaction, TransactionInstruction } = await import('@solana/web3.js');
  const programId = Keypair.generate().publicKey;
  const previous = process.env.SBF_OUT_DIR;
  process.env.SBF_OUT_DIR = dir; // start() looks for <name>.so there
  const ctx = await start([{ name, programId }], []).finally(() => {
    if (previous === undefined) delete process.env.SBF_OUT_DIR;
    else process.env.SBF_OUT_DIR = previous;
  });
  return {
    programId,
    async run(data: Uint8Array | number[]): Promise<RunResult> {
      // Identical data sent twice would be a duplicate transaction: callers vary the data.
      const tx = new Transaction().add(
        new TransactionInstruction({ programId, keys: [], data: Buffer.from(Uint8Array.from(data)) }),
      );
      tx.recentBlockhash = ctx.lastBlockhash;
      tx.feePayer = ctx.payer.publicKey;
      tx.sign(ctx.payer);
      const r = await ctx.banksClient.tryProcessTransaction(tx);
      return {
        ok: r.result === null,
        error: r.result,
        logs: r.meta?.logMessages ?? [],
        returnData: Buffer.from(r.meta?.returnData?.data ?? []),
        computeUnits: r.meta?.computeUnitsConsumed ?? 0n,
      };
    },
  };
}
