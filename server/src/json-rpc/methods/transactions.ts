import { PublicKey, SystemProgram, Transaction } from '@solana/web3.js';
import bs58 from 'bs58';
import { OPERATOR_RESERVE_LAMPORTS, type EmbeddedChain } from '../../services/chain/embedded';
import { ChainError, type AccountSnapshot } from '../../services/chain/types';
import { invalidParams, RpcCode, RpcError, transactionError } from '../errors';
import { AIRDROP_LIMITS, AirdropLimiter, clientKey, sol } from '../faucet';
import { LAMPORTS_PER_SIGNATURE } from '../journal';
import { accountConfig, configParam, decodeTransaction, isObj, pubkeyParam, safeJson, signatureParam, tooMany, u64Param, type Params } from '../params';
import { BLOCKHASH_VALIDITY, type Method, type RpcEnv } from './env';

const MAX_SIGNATURE_STATUSES = 256;
const MAX_SIGNATURES_FOR_ADDRESS = 1000;

/** A validator's preflight answer for a signature it has already processed (the status cache hit). */
function alreadyProcessed() {
  return new RpcError(RpcCode.PreflightFailure, `Transaction simulation failed: ${transactionError(6).text}`, {
    accounts: null, err: 'AlreadyProcessed', innerInstructions: null, logs: [], replacementBlockhash: null, returnData: null, unitsConsumed: 0,
  });
}

const perWindow = (ms: number) => (ms === 3_600_000 ? 'per hour' : `per ${Math.round(ms / 60_000)} minutes`);

/** Signatures and transactions: statuses, history, simulation, sending, and the faucet. */
export function transactionMethods(env: RpcEnv): Record<string, Method> {
  const { svc, chain, db, landed, context, account, encode, txStatusRows, errJson } = env;
  const airdrops = new AirdropLimiter(AIRDROP_LIMITS);
  let airdropQueue: Promise<unknown> = Promise.resolve(); // one airdrop at a time, see requestAirdrop
  const sending = new Set<string>(); // signatures between the replay check and their landing

  function parseSystemInstruction(keys: string[], accounts: number[], data: Buffer) {
    const a = (i: number) => keys[accounts[i]];
    if (data.length >= 12 && data.readUInt32LE(0) === 2) return { type: 'transfer', info: { destination: a(1), lamports: Number(data.readBigUInt64LE(4)), source: a(0) } };
    if (data.length >= 52 && data.readUInt32LE(0) === 0)
      return { type: 'createAccount', info: { lamports: Number(data.readBigUInt64LE(4)), newAccount: a(1), owner: new PublicKey(data.subarray(20, 52)).toBase58(), source: a(0), space: Number(data.readBigUInt64LE(12)) } };
    return null;
  }

  async function getTransaction(params: Params) {
    tooMany(params, 2);
    const signature = signatureParam(params[0]);
    const cfg = typeof params[1] === 'string' ? { encoding: params[1] } : configParam(params[1], ['commitment', 'encoding', 'maxSupportedTransactionVersion']);
    if (cfg.commitment === 'processed') throw invalidParams('Method does not support commitment below `confirmed`');
    const encoding = (cfg.encoding as string | undefined) ?? 'json';
    if (!['json', 'jsonParsed', 'base64', 'base58'].includes(encoding)) throw invalidParams(`Invalid params: unknown variant \`${encoding}\`, expected one of \`binary\`, \`base64\`, \`base58\`, \`json\`, \`jsonParsed\`.`);
    const j = await db.selectFrom('rpc_transaction').selectAll().where('signature', '=', signature).executeTakeFirst();
    // Transactions landed before the journal was installed have no stored message: the validator
    // answers null for a transaction outside its ledger history, and so do we.
    if (!j) return null;
    const row = await db.selectFrom('chain_transaction').select(['logs', 'compute_units', 'status', 'error']).where('signature', '=', signature).executeTakeFirst();
    const wire = new Uint8Array(j.wire);
    const tx = Transaction.from(wire);
    const msg = tx.compileMessage();
    const keys = msg.accountKeys.map((k) => k.toBase58());
    const err = row ? errJson(row) : j.err ? safeJson(j.err) : null;
    const meta = {
      err,
      status: err === null ? { Ok: null } : { Err: err },
      fee: j.fee,
      preBalances: JSON.parse(j.pre_balances),
      postBalances: JSON.parse(j.post_balances),
      innerInstructions: null, // not recorded by the embedded chain
      logMessages: row ? JSON.parse(row.logs) : null,
      preTokenBalances: [],
      postTokenBalances: [],
      rewards: [],
      loadedAddresses: { writable: [], readonly: [] },
      computeUnitsConsumed: row?.compute_units ?? undefined,
    };
    let transaction: unknown;
    if (encoding === 'base64') transaction = [Buffer.from(wire).toString('base64'), 'base64'];
    else if (encoding === 'base58') transaction = [bs58.encode(wire), 'base58'];
    else if (encoding === 'json') {
      transaction = {
        signatures: tx.signatures.map((s) => (s.signature ? bs58.encode(s.signature) : bs58.encode(new Uint8Array(64)))),
        message: {
          accountKeys: keys,
          header: msg.header,
          instructions: msg.instructions.map((i) => ({ accounts: i.accounts, data: i.data, programIdIndex: i.programIdIndex, stackHeight: null })),
          recentBlockhash: msg.recentBlockhash,
        },
      };
    } else {
      transaction = {
        signatures: tx.signatures.map((s) => (s.signature ? bs58.encode(s.signature) : bs58.encode(new Uint8Array(64)))),
        message: {
          accountKeys: keys.map((pubkey, i) => ({ pubkey, signer: msg.isAccountSigner(i), source: 'transaction', writable: msg.isAccountWritable(i) })),
          instructions: msg.instructions.map((i) => {
            const programId = keys[i.programIdIndex];
            const data = Buffer.from(bs58.decode(i.data));
            const parsed = programId === SystemProgram.programId.toBase58() ? parseSystemInstruction(keys, i.accounts, data) : null;
            return parsed ? { parsed, program: 'system', programId, stackHeight: null } : { accounts: i.accounts.map((a) => keys[a]), data: i.data, programId, stackHeight: null };
          }),
          recentBlockhash: msg.recentBlockhash,
        },
      };
    }
    return {
      blockTime: j.block_time,
      meta,
      slot: j.slot,
      transaction,
      ...(cfg.maxSupportedTransactionVersion !== undefined ? { version: 'legacy' } : {}),
    };
  }

  function simulationValue(sim: Awaited<ReturnType<EmbeddedChain['simulateWire']>>, extra: Record<string, unknown> = {}) {
    const err = sim.err === null ? null : transactionError(sim.err).json;
    // No meta: refused before it ran (an expired blockhash), as a validator answers with empty logs.
    const rd = sim.meta?.returnData();
    const rdProgram = rd?.programId();
    return {
      accounts: null,
      err,
      innerInstructions: null,
      loadedAccountsDataSize: undefined,
      logs: sim.meta?.logs() ?? [],
      replacementBlockhash: null,
      returnData: rd && rdProgram && (rdProgram.some((b) => b !== 0) || rd.data().length) ? { programId: new PublicKey(rdProgram).toBase58(), data: [Buffer.from(rd.data()).toString('base64'), 'base64'] } : null,
      unitsConsumed: sim.meta ? Number(sim.meta.computeUnitsConsumed()) : 0,
      ...extra,
    };
  }

  return {
    async getSignatureStatuses(params) {
      tooMany(params, 2);
      if (!Array.isArray(params[0])) throw invalidParams('Invalid params: invalid type: expected a sequence of signatures.');
      if (params[0].length > MAX_SIGNATURE_STATUSES) throw invalidParams(`Too many inputs provided; max ${MAX_SIGNATURE_STATUSES}`);
      const sigs = params[0].map(signatureParam);
      configParam(params[1], ['searchTransactionHistory']);
      const rows = await txStatusRows(sigs);
      const ctx = await context();
      return {
        context: ctx,
        value: sigs.map((s) => {
          const r = rows.get(s);
          if (!r) return null;
          const err = errJson(r);
          // Landed and persisted in one step: there is no fork to wait out.
          return { confirmationStatus: 'finalized', confirmations: null, err, slot: r.slot, status: err === null ? { Ok: null } : { Err: err } };
        }),
      };
    },
    getTransaction,
    async getSignaturesForAddress(params) {
      tooMany(params, 2);
      const key = pubkeyParam(params[0]);
      const cfg = configParam(params[1], ['commitment', 'minContextSlot', 'limit', 'before', 'until']);
      if (cfg.commitment === 'processed') throw invalidParams('Method does not support commitment below `confirmed`');
      const limit = cfg.limit === undefined ? MAX_SIGNATURES_FOR_ADDRESS : u64Param(cfg.limit, 'limit');
      if (limit < 1 || limit > MAX_SIGNATURES_FOR_ADDRESS) throw invalidParams(`Invalid limit; max ${MAX_SIGNATURES_FOR_ADDRESS}`);
      await context(cfg);
      let q = db
        .selectFrom('rpc_transaction_account as a')
        .innerJoin('rpc_transaction as t', 't.signature', 'a.signature')
        .select(['a.signature', 'a.slot', 't.block_time', 't.err'])
        .where('a.pubkey', '=', key.toBase58());
      // Newest first; within a slot by signature (one transaction per slot here).
      const bound = async (sig: unknown) => {
        const s = signatureParam(sig);
        return db.selectFrom('rpc_transaction').select(['slot', 'signature']).where('signature', '=', s).executeTakeFirst();
      };
      if (cfg.before !== undefined) {
        const b = await bound(cfg.before);
        if (!b) return [];
        q = q.where((eb) => eb.or([eb('a.slot', '<', b.slot), eb.and([eb('a.slot', '=', b.slot), eb('a.signature', '<', b.signature)])]));
      }
      if (cfg.until !== undefined) {
        const u = await bound(cfg.until);
        if (u) q = q.where((eb) => eb.or([eb('a.slot', '>', u.slot), eb.and([eb('a.slot', '=', u.slot), eb('a.signature', '>', u.signature)])]));
      }
      const rows = await q.orderBy('a.slot', 'desc').orderBy('a.signature', 'desc').limit(limit).execute();
      const statuses = await txStatusRows(rows.map((r) => r.signature));
      return rows.map((r) => {
        const st = statuses.get(r.signature);
        return { blockTime: r.block_time, confirmationStatus: 'finalized', err: st ? errJson(st) : r.err ? safeJson(r.err) : null, memo: null, signature: r.signature, slot: r.slot };
      });
    },
    async simulateTransaction(params, call) {
      tooMany(params, 2);
      const cfg = configParam(params[1], ['sigVerify', 'replaceRecentBlockhash', 'commitment', 'encoding', 'accounts', 'minContextSlot', 'innerInstructions']);
      if (cfg.sigVerify && cfg.replaceRecentBlockhash) throw invalidParams('sigVerify may not be used with replaceRecentBlockhash');
      const { bytes, tx } = decodeTransaction(params[0], cfg.encoding);
      // Agave's checks of `accounts`, before anything runs: no base58, and no more addresses than the
      // transaction's own account keys (the same built-in program 150 times asked for 21 MB).
      const ac = cfg.accounts;
      let addresses: PublicKey[] | null = null;
      let accountsEncoding = 'base64';
      if (ac !== undefined && ac !== null) {
        if (!isObj(ac) || !Array.isArray(ac.addresses)) throw invalidParams('Invalid params: accounts must be {addresses, encoding}.');
        accountsEncoding = (ac.encoding as string | undefined) ?? 'base64';
        if (accountsEncoding === 'binary' || accountsEncoding === 'base58') throw invalidParams('base58 encoding not supported');
        accountConfig({ encoding: accountsEncoding }, ['encoding']);
        const max = tx.compileMessage().accountKeys.length;
        if (ac.addresses.length > max) throw invalidParams(`Too many accounts provided; max ${max}`);
        addresses = ac.addresses.map(pubkeyParam);
      }
      const ctx = await context(cfg);
      // A validator's simulation checks its status cache: a landed transaction is not run again. With
      // sigVerify the signature binds the message, so the landed signature identifies it.
      if (cfg.sigVerify === true && tx.signature && tx.verifySignatures(true) && (await landed(bs58.encode(tx.signature)))) {
        // Nothing ran, so there is no post-simulation state: each requested account is null.
        const accounts = addresses ? addresses.map(() => null) : null;
        return { context: ctx, value: { accounts, err: 'AlreadyProcessed', innerInstructions: null, logs: [], replacementBlockhash: null, returnData: null, unitsConsumed: 0 } };
      }
      const sim = await chain.simulateWire(bytes, { sigVerify: cfg.sigVerify === true, replaceRecentBlockhash: cfg.replaceRecentBlockhash === true });
      let accounts: unknown[] | null = null;
      if (addresses) {
        const post = new Map((sim.postAccounts ?? []).map((a) => [String(a.address), a]));
        // The state after the simulation (a token account's mint too), else the chain's.
        const read = async (addr: PublicKey): Promise<AccountSnapshot | null> => {
          const p = post.get(addr.toBase58());
          return p ? { pubkey: addr.toBase58(), owner: String(p.programAddress), lamports: BigInt(p.lamports), data: new Uint8Array(p.data), executable: p.executable } : account(addr);
        };
        const acfg = { encoding: accountsEncoding };
        // A failed simulation has no state after it: each is null, as Agave answers.
        accounts = [];
        if (sim.err !== null) accounts = addresses.map(() => null);
        else for (const addr of addresses) accounts.push(call.budget.add(await encode(await read(addr), acfg, read, call.budget)));
      }
      const replacementBlockhash = cfg.replaceRecentBlockhash ? { blockhash: await chain.latestBlockhash(), lastValidBlockHeight: ctx.slot + BLOCKHASH_VALIDITY } : null;
      return { context: ctx, value: simulationValue(sim, { accounts, replacementBlockhash }) };
    },
    async sendTransaction(params) {
      tooMany(params, 2);
      const cfg = configParam(params[1], ['skipPreflight', 'preflightCommitment', 'encoding', 'maxRetries', 'minContextSlot']);
      const { bytes, tx } = decodeTransaction(params[0], cfg.encoding);
      if (!tx.signature || !tx.verifySignatures(true)) throw new RpcError(RpcCode.SignatureVerificationFailure, 'Transaction signature verification failure');
      await context(cfg);
      // Refuse a replay before anything runs, as a validator's status cache does (LiteSVM's own history
      // is empty after a restart while the blockhash is the same). `sending` covers a copy sent while
      // the first is between this check and its landing; skipPreflight changes nothing here.
      const signature = bs58.encode(tx.signature);
      if (sending.has(signature)) throw alreadyProcessed();
      sending.add(signature);
      try {
        if (await landed(signature)) throw alreadyProcessed();
        // The embedded chain only keeps transactions that succeed (a failed one would leave fees
        // unpersisted), so the preflight always runs; skipPreflight cannot land a failing transaction.
        const sim = await chain.simulateWire(bytes);
        if (sim.err !== null) {
          const { text } = transactionError(sim.err);
          throw new RpcError(RpcCode.PreflightFailure, `Transaction simulation failed: ${text}`, simulationValue(sim));
        }
        const receipt = await chain.sendSignedTransaction(tx, { kind: 'rpc_send' });
        return receipt.signature;
      } catch (e) {
        if (e instanceof ChainError) {
          const custom = e.code !== null ? { InstructionError: [0, { Custom: e.code }] } : e.message;
          throw new RpcError(RpcCode.PreflightFailure, `Transaction simulation failed: ${e.message}`, {
            accounts: null, err: custom, innerInstructions: null, logs: e.logs, replacementBlockhash: null, returnData: null, unitsConsumed: 0,
          });
        }
        throw e;
      } finally {
        sending.delete(signature);
      }
    },
    async requestAirdrop(params, call) {
      tooMany(params, 3);
      const to = pubkeyParam(params[0]);
      const lamports = u64Param(params[1], 'lamports');
      configParam(params[2], ['commitment', 'recentBlockhash']);
      const L = AIRDROP_LIMITS;
      if (lamports === 0) throw new RpcError(RpcCode.InvalidRequest, 'Invalid request: airdrop amount must be at least 1 lamport');
      if (lamports > L.maxLamportsPerRequest)
        throw new RpcError(RpcCode.InvalidRequest, `Invalid request: airdrop request too large; req: ${sol(lamports)}, cap: ${sol(L.maxLamportsPerRequest)} (at most ${L.maxLamportsPerRequest} lamports a request)`);
      // One airdrop at a time (they are rare): the balance read, the reserve and limit checks and the
      // transfer cannot interleave with another request's, so a burst cannot pass the same check twice.
      const run = airdropQueue.then(() => airdrop(to, lamports, clientKey(call.ip)));
      airdropQueue = run.catch(() => undefined);
      return run;
    },
  };

  /** requestAirdrop after its parameters are checked; runs alone (airdropQueue). */
  async function airdrop(to: PublicKey, lamports: number, client: string) {
    const L = AIRDROP_LIMITS;
    const op = (await account(chain.operator))?.lamports ?? 0n;
    if (op - BigInt(lamports) - BigInt(LAMPORTS_PER_SIGNATURE) < OPERATOR_RESERVE_LAMPORTS)
      throw new RpcError(RpcCode.Internal, `Internal error: the airdrop faucet has run dry (the operator keeps ${sol(Number(OPERATOR_RESERVE_LAMPORTS))} for the platform’s transaction fees)`);
    const grant = airdrops.take(client, lamports);
    if (!grant.ok) {
      const window = perWindow(L.windowMs);
      const why =
        grant.scope === 'ip'
          ? `each client address may receive ${sol(L.perClient.lamports)} in at most ${L.perClient.requests} airdrops ${window} (received ${sol(grant.received)} in ${grant.count}; requested ${sol(lamports)})`
          : `the faucet gives at most ${sol(L.global.lamports)} in ${L.global.requests} airdrops ${window} to all clients together`;
      throw new RpcError(RpcCode.TooManyRequests, `airdrop request limit reached: ${why}; try again in ${grant.retryAfter} seconds`, { retryAfter: grant.retryAfter, scope: grant.scope });
    }
    try {
      // A real transfer from the operator (the embedded faucet), landed and persisted like any other.
      const receipt = await svc.chain.sendTransaction(new Transaction().add(SystemProgram.transfer({ fromPubkey: chain.operator, toPubkey: to, lamports })), [], { kind: 'airdrop' });
      return receipt.signature;
    } catch (e) {
      grant.release(); // nothing was given
      throw e;
    }
  }
}
