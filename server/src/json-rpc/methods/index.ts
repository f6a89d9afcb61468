import type { Services } from '../../services';
import { accountMethods } from './accounts';
import { clusterMethods } from './cluster';
import { createRpcEnv, type Method } from './env';
import { tokenMethods } from './tokens';
import { transactionMethods } from './transactions';

// The validator's answers, method by method, over the embedded chain, in families: the node and its
// slots (cluster), accounts, tokens, and signatures/transactions. Shapes follow Agave's rpc.rs /
// rpc-client-types: `{context, value}` where the real RPC wraps, plain values elsewhere.

export { FEATURE_SET, RENT_EPOCH_SENTINEL, SOLANA_CORE_VERSION, type CallContext, type Method } from './env';

export function createMethods(svc: Services) {
  const env = createRpcEnv(svc);
  const methods: Record<string, Method> = { ...clusterMethods(env), ...accountMethods(env), ...tokenMethods(env), ...transactionMethods(env) };
  return { methods, encodeAccount: env.encodeAccount };
}
