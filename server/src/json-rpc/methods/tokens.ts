import { PublicKey } from '@solana/web3.js';
import { invalidParams } from '../errors';
import { accountConfig, configParam, isObj, pubkeyParam, tooMany } from '../params';
import { isTokenAccountData, isTokenProgram, mintOrThrow, tokenAccountOrThrow, tokenAmount, unpackTokenAccount } from '../parse-token';
import { ACCOUNT_CONFIG, type Method, type RpcEnv } from './env';

/** SPL Token and Token-2022: accounts by owner, supplies, balances, largest holders. */
export function tokenMethods(env: RpcEnv): Record<string, Method> {
  const { chain, context, wrap, account, encode, parsed, mintFor } = env;
  return {
    async getTokenAccountsByOwner(params) {
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
      for (const acc of await chain.accountsOwnedBy(new PublicKey(program))) {
        // Token account: mint(0..32) owner(32..64).
        if (!isTokenAccountData(program, acc.data)) continue;
        if (!Buffer.from(acc.data.subarray(32, 64)).equals(owner.toBuffer())) continue;
        if (mint && !Buffer.from(acc.data.subarray(0, 32)).equals(mint.toBuffer())) continue;
        const encoded = await encode(acc, cfg);
        if (cfg.encoding === 'jsonParsed' && !parsed(encoded)) continue;
        out.push({ account: encoded, pubkey: acc.pubkey });
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
      const holders: { address: PublicKey; amount: bigint }[] = [];
      for (const a of await chain.accountsOwnedBy(new PublicKey(owner))) {
        if (!isTokenAccountData(owner, a.data)) continue;
        if (!Buffer.from(a.data.subarray(0, 32)).equals(mint.toBuffer())) continue;
        holders.push({ address: new PublicKey(a.pubkey), amount: unpackTokenAccount(a.data)?.amount ?? 0n });
      }
      // Largest first; equal amounts by address bytes, also descending (the validator's heap of (amount, address)).
      holders.sort((x, y) => (y.amount > x.amount ? 1 : y.amount < x.amount ? -1 : Buffer.compare(y.address.toBuffer(), x.address.toBuffer())));
      return wrap(cfg, holders.slice(0, 20).map((h) => ({ address: h.address.toBase58(), ...tokenAmount(h.amount, decimals) })));
    },
  };
}
