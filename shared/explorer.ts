// Links to a block explorer for addresses (mints, records) and transactions (SEED-SPEC: the mint
// address opens the explorer's address page). Public clusters use Solana Explorer; a local chain
// (the embedded chain, or a validator on the server's machine) cannot be reached from a visitor's
// browser through Solana Explorer, so it links to the app's own read-only explorer instead
// (/explorer/address/:address, /explorer/tx/:signature), served by the same server as the chain.

export type NamedCluster = 'mainnet-beta' | 'devnet' | 'testnet';
/** A named public cluster, or this app's own explorer at `inApp` (an origin, or '' for same-origin links). */
export type ExplorerCluster = NamedCluster | { inApp: string };

const EXPLORER = 'https://explorer.solana.com';

const KNOWN_RPC: Array<[RegExp, NamedCluster]> = [
  [/^https:\/\/api\.mainnet-beta\.solana\.com\/?$/, 'mainnet-beta'],
  [/^https:\/\/api\.devnet\.solana\.com\/?$/, 'devnet'],
  [/^https:\/\/api\.testnet\.solana\.com\/?$/, 'testnet'],
];

function query(cluster: NamedCluster): string {
  if (cluster === 'mainnet-beta') return ''; // the explorer's default
  if (cluster === 'devnet' || cluster === 'testnet') return `?cluster=${cluster}`;
  throw new Error(`Unknown cluster: ${String(cluster)}`);
}

const base = (cluster: { inApp: string }) => cluster.inApp.replace(/\/+$/, '');

export const explorerAddressUrl = (address: string, cluster: ExplorerCluster) =>
  typeof cluster === 'object' ? `${base(cluster)}/explorer/address/${encodeURIComponent(address)}` : `${EXPLORER}/address/${encodeURIComponent(address)}${query(cluster)}`;
export const explorerTxUrl = (signature: string, cluster: ExplorerCluster) =>
  typeof cluster === 'object' ? `${base(cluster)}/explorer/tx/${encodeURIComponent(signature)}` : `${EXPLORER}/tx/${encodeURIComponent(signature)}${query(cluster)}`;

/**
 * The explorer for a server's chain: a public cluster's RPC URL maps to its name (Solana Explorer);
 * any other chain — the embedded one (no RPC URL), a validator on localhost, a private cluster — is
 * shown by the app's own explorer at `publicBaseUrl`.
 */
export function explorerClusterFor(p: { rpcUrl?: string | null; publicBaseUrl: string }): ExplorerCluster {
  if (p.rpcUrl) for (const [re, name] of KNOWN_RPC) if (re.test(p.rpcUrl)) return name;
  return { inApp: p.publicBaseUrl };
}
