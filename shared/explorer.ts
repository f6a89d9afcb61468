// Links to the Solana Explorer for mint addresses and transactions (SEED-SPEC: the mint address
// opens the explorer's address page). Local chains use the explorer's custom-cluster form.

export type NamedCluster = 'mainnet-beta' | 'devnet' | 'testnet';
/** A named public cluster, or the JSON-RPC URL of any other chain (localnet, the embedded chain). */
export type ExplorerCluster = NamedCluster | { customUrl: string };

const EXPLORER = 'https://explorer.solana.com';

const KNOWN_RPC: Array<[RegExp, NamedCluster]> = [
  [/^https:\/\/api\.mainnet-beta\.solana\.com\/?$/, 'mainnet-beta'],
  [/^https:\/\/api\.devnet\.solana\.com\/?$/, 'devnet'],
  [/^https:\/\/api\.testnet\.solana\.com\/?$/, 'testnet'],
];

function query(cluster: ExplorerCluster): string {
  if (typeof cluster === 'object') return `?cluster=custom&customUrl=${encodeURIComponent(cluster.customUrl)}`;
  if (cluster === 'mainnet-beta') return ''; // the explorer's default
  if (cluster === 'devnet' || cluster === 'testnet') return `?cluster=${cluster}`;
  throw new Error(`Unknown cluster: ${String(cluster)}`);
}

export const explorerAddressUrl = (address: string, cluster: ExplorerCluster) => `${EXPLORER}/address/${encodeURIComponent(address)}${query(cluster)}`;
export const explorerTxUrl = (signature: string, cluster: ExplorerCluster) => `${EXPLORER}/tx/${encodeURIComponent(signature)}${query(cluster)}`;

/**
 * The cluster for a server's chain: a public cluster's RPC URL maps to its name; any other RPC URL
 * is a custom cluster; the embedded chain (no RPC URL) is served at `<publicBaseUrl>/rpc`.
 */
export function explorerClusterFor(p: { rpcUrl?: string | null; publicBaseUrl: string }): ExplorerCluster {
  if (p.rpcUrl) {
    for (const [re, name] of KNOWN_RPC) if (re.test(p.rpcUrl)) return name;
    return { customUrl: p.rpcUrl };
  }
  return { customUrl: `${p.publicBaseUrl.replace(/\/+$/, '')}/rpc` };
}
