import { explorerAddressUrl as sharedExplorerAddressUrl, explorerClusterFor, explorerTxUrl as sharedExplorerTxUrl } from '../../../../../shared/explorer';

/** Issue dates are calendar dates (YYYY-MM-DD): format them without a timezone shift. */
export function formatDate(value: string | null | undefined) {
  if (!value) return '—';
  const d = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00Z`) : new Date(value);
  if (Number.isNaN(d.getTime())) return value;
  return d.toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric', timeZone: /^\d{4}-\d{2}-\d{2}$/.test(value) ? 'UTC' : undefined });
}

export function formatDateTime(value: string | null | undefined) {
  if (!value) return '—';
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? value : d.toLocaleString();
}

export function todayIso() {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

export function formatKb(bytes: number) {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

export function publicLink(userId: string, id: string) {
  return `${window.location.origin}/view/${userId}/${id}`;
}

/** The explorer's cluster for this server's chain: the embedded chain answers JSON-RPC at /rpc. */
function cluster(rpcUrl?: string | null) {
  return explorerClusterFor({ rpcUrl, publicBaseUrl: window.location.origin });
}

export function explorerAddressUrl(address: string, rpcUrl?: string | null) {
  return sharedExplorerAddressUrl(address, cluster(rpcUrl));
}

export function explorerTxUrl(signature: string, rpcUrl?: string | null) {
  return sharedExplorerTxUrl(signature, cluster(rpcUrl));
}

export function shortHash(value: string, head = 8, tail = 8) {
  return value.length > head + tail + 3 ? `${value.slice(0, head)}…${value.slice(-tail)}` : value;
}
