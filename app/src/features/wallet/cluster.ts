// Which chain the server runs on decides whether the development wallet is offered.
import { useQuery } from '@tanstack/react-query';

export interface ClusterInfo {
  cluster: string;
  rpcUrl: string | null;
  isLocal: boolean;
}

const LOCAL = new Set(['embedded', 'localnet', 'local', 'localhost']);

/** Reads `system.info`; a server without it is the embedded default, which is local. */
export async function fetchClusterInfo(): Promise<ClusterInfo> {
  try {
    const res = await fetch('/trpc/system.info', { credentials: 'include' });
    if (res.ok) {
      const body = (await res.json()) as { result?: { data?: Record<string, unknown> & { json?: Record<string, unknown> } } };
      const data = body.result?.data?.json ?? body.result?.data ?? {};
      const chain = (data.chain ?? {}) as Record<string, unknown>;
      const cluster = String(data.cluster ?? chain.cluster ?? chain.mode ?? data.mode ?? 'embedded');
      const rpcUrl = (data.rpc_url ?? data.rpcUrl ?? chain.rpc_url ?? chain.rpcUrl ?? null) as string | null;
      const isLocal =
        typeof data.dev_wallet === 'boolean'
          ? data.dev_wallet
          : LOCAL.has(cluster) || (!!rpcUrl && /\/\/(localhost|127\.0\.0\.1)[:/]/.test(rpcUrl));
      // The embedded chain answers JSON-RPC at /rpc on this origin.
      return { cluster, rpcUrl: rpcUrl ?? (isLocal ? `${window.location.origin}/rpc` : null), isLocal };
    }
  } catch {
    // try the health check below
  }
  try {
    // Older servers: /healthz names the chain mode ('embedded' = in-process LiteSVM, local by definition).
    const res = await fetch('/healthz');
    if (res.ok) {
      const { chain } = (await res.json()) as { chain?: string };
      if (chain && chain !== 'embedded') return { cluster: chain, rpcUrl: null, isLocal: false };
      if (chain === 'embedded') return { cluster: 'embedded', rpcUrl: null, isLocal: true };
    }
  } catch {
    // fall through to the embedded default
  }
  return { cluster: 'embedded', rpcUrl: null, isLocal: true };
}

export function useClusterInfo() {
  return useQuery({ queryKey: ['attesta', 'cluster-info'], queryFn: fetchClusterInfo, staleTime: Infinity });
}
