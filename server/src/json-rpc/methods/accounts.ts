import { invalidParams } from '../errors';
import { MAX_MULTIPLE_ACCOUNTS } from '../limits';
import { accountConfig, configParam, parseFilter, pubkeyParam, rowMatchOf, tooMany } from '../params';
import { isTokenProgram } from '../parse-token';
import { ACCOUNT_CONFIG, type Method, type RpcEnv } from './env';

/** Balances and accounts, one, several, or a program's. */
export function accountMethods(env: RpcEnv): Record<string, Method> {
  const { chain, context, wrap, account, encode, parsed } = env;
  return {
    async getBalance(params) {
      tooMany(params, 2);
      const key = pubkeyParam(params[0]);
      const cfg = configParam(params[1], ['commitment', 'minContextSlot']);
      return wrap(cfg, Number((await account(key))?.lamports ?? 0n));
    },
    async getAccountInfo(params, call) {
      tooMany(params, 2);
      const key = pubkeyParam(params[0]);
      const cfg = accountConfig(params[1], ACCOUNT_CONFIG);
      return wrap(cfg, await encode(await account(key), cfg, account, call.budget));
    },
    async getMultipleAccounts(params, call) {
      tooMany(params, 2);
      if (!Array.isArray(params[0])) throw invalidParams('Invalid params: invalid type: expected a sequence of pubkeys.');
      if (params[0].length > MAX_MULTIPLE_ACCOUNTS) throw invalidParams(`Too many inputs provided; max ${MAX_MULTIPLE_ACCOUNTS}`);
      const keys = params[0].map(pubkeyParam);
      const cfg = accountConfig(params[1], ACCOUNT_CONFIG);
      const out = [];
      // Counted as they are encoded: the same large account a hundred times stops at the budget.
      for (const k of keys) out.push(call.budget.add(await encode(await account(k), cfg, account, call.budget)));
      return wrap(cfg, out);
    },
    async getProgramAccounts(params, call) {
      tooMany(params, 2);
      const program = pubkeyParam(params[0]);
      const cfg = accountConfig(params[1], [...ACCOUNT_CONFIG, 'filters', 'withContext', 'sortResults']);
      const filters = cfg.filters === undefined || cfg.filters === null ? [] : cfg.filters;
      if (!Array.isArray(filters)) throw invalidParams('Invalid params: filters must be an array.');
      if (filters.length > 4) throw invalidParams('Too many filters provided; max 4');
      const parsedFilters = filters.map(parseFilter);
      const ctx = await context(cfg);
      // Every non-executable account of the embedded chain is in chain_account: the owner's rows that
      // pass the filters (checked by the database), a page at a time in key order, with the accounts the
      // chain is ahead on (an open DB transaction) at their state. Reading stops at the answer budget.
      const tokenParsed = cfg.encoding === 'jsonParsed' && isTokenProgram(program.toBase58());
      const out = [];
      for await (const acc of chain.scanOwnedBy(program, rowMatchOf(parsedFilters))) {
        if (!parsedFilters.every((f) => f.test(acc.data))) continue;
        const encoded = await encode(acc, cfg, account, call.budget);
        if (tokenParsed && !parsed(encoded)) continue;
        out.push(call.budget.add({ account: encoded, pubkey: acc.pubkey }));
      }
      return cfg.withContext ? { context: ctx, value: out } : out;
    },
  };
}
