// The development wallet's named accounts (Holder, Institution, Operator) of a local installation, as the
// server hands them to a browser on its own machine (GET /api/dev/accounts; server/src/http/dev-accounts.ts).
// No wallet code here: the connect dialog lists them, dev-wallet.ts signs with the chosen one.

import { DEV_ACCOUNTS_PATH, type DevAccount, type DevAccountId } from '../../../../shared/schemas/dev-accounts';

export type { DevAccount, DevAccountId };

/** The accounts; `unavailable` with the server's reason (403: not this machine; 404: not a local chain). */
export type DevAccountsAnswer = { ok: true; accounts: DevAccount[] } | { ok: false; status: number; reason: string };

export async function fetchDevAccounts(signal?: AbortSignal): Promise<DevAccountsAnswer> {
  try {
    const res = await fetch(DEV_ACCOUNTS_PATH, { signal, cache: 'no-store', headers: { accept: 'application/json' } });
    const body = (await res.json().catch(() => null)) as { accounts?: DevAccount[]; error?: unknown } | null;
    if (res.ok && Array.isArray(body?.accounts)) return { ok: true, accounts: body.accounts };
    const reason = typeof body?.error === 'string' ? body.error : `The server offers no development accounts (HTTP ${res.status}).`;
    return { ok: false, status: res.status, reason };
  } catch (e) {
    return { ok: false, status: 0, reason: `The development accounts could not be loaded: ${(e as Error).message}` };
  }
}
