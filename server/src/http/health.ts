import type { FastifyInstance } from 'fastify';
import { explorerClusterFor } from '../../../shared/explorer';
import type { Config } from '../config';

const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/;

export interface PublicChainInfo {
  chain: 'embedded' | 'rpc';
  dev_wallet: boolean;
  rpc_url: string | null;
  /** Whether the demo certificates (cert-1..cert-3) exist here, so the app offers them to try. */
  demo_data: boolean;
}

/**
 * What the browser may know about the chain: its mode, whether the development wallet is offered (the
 * embedded chain and validators on this machine, never a public cluster), an RPC URL for explorer
 * links when it is safe to show — a public cluster's or a loopback one's — and whether demo data was
 * loaded. Any other RPC URL may carry a provider key in its path or query, so it stays on the server.
 */
export function publicChainInfo(config: Config): PublicChainInfo {
  const demo_data = config.demoData;
  if (config.chain.mode === 'embedded') return { chain: 'embedded', dev_wallet: true, rpc_url: null, demo_data };
  const url = new URL(config.chain.rpcUrl);
  if (LOOPBACK.test(url.hostname)) {
    url.username = '';
    url.password = '';
    return { chain: 'rpc', dev_wallet: true, rpc_url: url.toString(), demo_data };
  }
  const named = typeof explorerClusterFor({ rpcUrl: config.chain.rpcUrl, publicBaseUrl: '' }) === 'string';
  return { chain: 'rpc', dev_wallet: false, rpc_url: named ? config.chain.rpcUrl : null, demo_data };
}

/** GET /healthz: liveness for load balancers, and the chain facts the app needs before sign-in. */
export function registerHealthRoute(app: FastifyInstance, config: Config) {
  const info = publicChainInfo(config);
  app.get('/healthz', async () => ({ ok: true, ...info }));
}
