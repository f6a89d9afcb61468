import { explorerAddressUrl as sharedExplorerAddressUrl, explorerClusterFor, explorerTxUrl as sharedExplorerTxUrl } from '../../../../../shared/explorer';

export { formatDate, formatDateTime } from '../../../lib/dates';

export function todayIso() {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** Whether an expiry (ISO) has passed. */
export function expiredNow(expiresAt: string | null | undefined): boolean {
  return !!expiresAt && Date.parse(expiresAt) <= Date.now();
}

export function formatKb(bytes: number) {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

export function publicLink(userId: string, id: string) {
  return `${window.location.origin}/view/${userId}/${id}`;
}

/**
 * A certificate's public link (…/view/{userId}/{certificateId}) names its ID; anything else is the ID
 * itself. /verification and the operator's fraud revocation both take either.
 */
export function certificateIdFrom(text: string): string {
  const m = /\/view\/[^/\s]+\/([^/?#\s]+)/.exec(text);
  if (!m) return text;
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return m[1];
  }
}

/** The stored PDF of the holder's own certificate. */
export function certificateFileUrl(c: { id: string; certificate_url: string }) {
  return c.certificate_url || `/files/certificates/${c.id}`;
}

/**
 * The explorer for this server's chain: Solana Explorer for a public cluster's RPC URL; the app's own
 * explorer (same origin) for a local chain, which Solana Explorer cannot reach from a visitor's browser.
 */
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
