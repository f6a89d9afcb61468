// Which chain the server runs on decides whether the development wallet is offered.
import { useQuery } from '@tanstack/react-query';

export interface ClusterInfo {
  cluster: string;
  rpcUrl: string | null;
  isLocal: boolean;
  /** The demo certificates (cert-1..cert-3) exist on this server. */
  demoData: boolean;
}

/**
 * From the server's /healthz: the chain mode, whether the development wallet is offered (the embedded
 * chain, a validator on the server's machine) and an RPC URL for explorer links when one may be shown.
 * The embedded chain answers JSON-RPC at /rpc on this origin.
 */
export async function fetchClusterInfo(): Promise<ClusterInfo> {
  try {
    const res = await fetch('/healthz');
    if (res.ok) {
      const h = (await res.json()) as { chain?: string; dev_wallet?: boolean; rpc_url?: string | null; demo_data?: boolean };
      const embedded = h.chain !== 'rpc';
      return {
        cluster: embedded ? 'embedded' : 'rpc',
        rpcUrl: embedded ? `${window.location.origin}/rpc` : (h.rpc_url ?? null),
        isLocal: h.dev_wallet ?? embedded,
        demoData: h.demo_data === true,
      };
    }
  } catch {
    // fall through: the default server is the embedded chain
  }
  return { cluster: 'embedded', rpcUrl: `${window.location.origin}/rpc`, isLocal: true, demoData: false };
}

export function useClusterInfo() {
  return useQuery({ queryKey: ['attesta', 'cluster-info'], queryFn: fetchClusterInfo, staleTime: Infinity });
}
