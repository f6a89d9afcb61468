import { PublicKey } from '@solana/web3.js';
import { invalidParams } from '../errors';
import { accountConfig, configParam, isObj, pubkeyParam, tooMany } from '../params';
import { isTokenAccountData, isTokenProgram, mintOrThrow, tokenAccountOrThrow, tokenAmount, unpackTokenAccount } from '../parse-token';
import { ACCOUNT_CONFIG, type Method, type RpcEnv } from './env';

/** getTokenLargestAccounts answers this many (Agave's NUM_LARGEST_ACCOUNTS). */
const LARGEST_ACCOUNTS = 20;
type Holder = { address: PublicKey; amount: bigint };

/** SPL Token and Token-2022: accounts by owner, supplies, balances, largest holders. */
export function tokenMethods(env: RpcEnv): Record<string, Method> {
  const { chain, context, wrap, account, encode, parsed, mintFor } = env;
  return {
    async getTokenAccountsByOwner(params, call) {
      tooMany(params, 3);
      const owner = pubkeyParam(params[0]);
      const sel = params[1];
      if (!isObj(sel) || (sel.mint === undefined) === (sel.programId === undefined)) throw invalidParams('Invalid params: expected {mint} or {programId}.');
      const cfg = accountConfig(params[2], ACCOUNT_CONFIG);
      const mint = sel.mint !== undefined ? pubkeyParam(sel.mint) : null;
      // get_token_program_id_and_mint: the mint's own program, or the program asked for.
      const program = mint ? (await mintFor(mint)).owner : pubkeyParam(sel.programId).toBase58();
      if (!isTokenProgram(program)) throw invalidParams(mint ? 'Invalid param: not a Token mint' : 'Invalid param: unrecognized Token program id');
      const ctx = await context(cfg);
      const out = [];
      // Token account: mint(0..32) owner(32..64). The owner's accounts only (the database's index of
      // token accounts by owner, as a validator's spl-token-owner index), read until the answer is full.
      const match = { bytes: [{ offset: 32, bytes: owner.toBytes() }, ...(mint ? [{ offset: 0, bytes: mint.toBytes() }] : [])] };
      for await (const acc of chain.scanOwnedBy(new PublicKey(program), match)) {
        if (!isTokenAccountData(program, acc.data)) continue;
        if (!Buffer.from(acc.data.subarray(32, 64)).equals(owner.toBuffer())) continue;
        if (mint && !Buffer.from(acc.data.subarray(0, 32)).equals(mint.toBuffer())) continue;
        const encoded = await encode(acc, cfg, account, call.budget);
        if (cfg.encoding === 'jsonParsed' && !parsed(encoded)) continue;
        out.push(call.budget.add({ account: encoded, pubkey: acc.pubkey }));
      }
      return { context: ctx, value: out };
    },
    async getTokenSupply(params) {
      tooMany(params, 2);
      const mint = pubkeyParam(params[0]);
      const cfg = configParam(params[1], ['commitment']);
      const state = mintOrThrow(await account(mint));
      return wrap(cfg, tokenAmount(state.supply, state.decimals));
    },
    async getTokenAccountBalance(params) {
      tooMany(params, 2);
      const key = pubkeyParam(params[0]);
      const cfg = configParam(params[1], ['commitment']);
      const state = tokenAccountOrThrow(await account(key));
      return wrap(cfg, tokenAmount(state.amount, (await mintFor(new PublicKey(state.mint))).decimals));
    },
    async getTokenLargestAccounts(params) {
      tooMany(params, 2);
      const mint = pubkeyParam(params[0]);
      const cfg = configParam(params[1], ['commitment']);
      const { owner, decimals } = await mintFor(mint);
      if (!isTokenProgram(owner)) throw invalidParams('Invalid param: not a Token mint');
      // Largest first; equal amounts by address bytes, also descending (the validator's heap of (amount, address)).
      const order = (x: Holder, y: Holder) => (y.amount > x.amount ? 1 : y.amount < x.amount ? -1 : Buffer.compare(y.address.toBuffer(), x.address.toBuffer()));
      // The mint's accounts only (indexed by their first bytes), keeping the largest 20 as they are read.
      const holders: Holder[] = [];
      for await (const a of chain.scanOwnedBy(new PublicKey(owner), { bytes: [{ offset: 0, bytes: mint.toBytes() }] })) {
        if (!isTokenAccountData(owner, a.data)) continue;
        if (!Buffer.from(a.data.subarray(0, 32)).equals(mint.toBuffer())) continue;
        holders.push({ address: new PublicKey(a.pubkey), amount: unpackTokenAccount(a.data)?.amount ?? 0n });
        if (holders.length > LARGEST_ACCOUNTS) {
          holders.sort(order);
          holders.length = LARGEST_ACCOUNTS;
        }
      }
      holders.sort(order);
      return wrap(cfg, holders.slice(0, LARGEST_ACCOUNTS).map((h) => ({ address: h.address.toBase58(), ...tokenAmount(h.amount, decimals) })));
    },
  };
}
