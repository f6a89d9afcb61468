// Steps an institution's (or a holder's) wallet signs, as the mint does (mint/api.ts): the server
// prepares the transaction (the platform pays), the wallet signs the prepared bytes, the server submits.
import { useQueryClient } from '@tanstack/react-query';
import { trpc } from '../../lib/trpc';
import { fromBase64, toBase64 } from '../mint/api';
import type { WalletSessionValue } from '../wallet/WalletSession';

export interface Prepared {
  action_id: string;
  transaction: string;
  expires_at: string;
}

/** The wallet signs `prepared` (connecting the chosen wallet first if a reload left it disconnected), then `submit` sends it. */
export async function signPrepared<T>(wallet: Pick<WalletSessionValue, 'waitForSelectedWallet' | 'signTransaction'>, prepared: Prepared, submit: (signedTransaction: string) => Promise<T>): Promise<T> {
  // After a reload the chosen wallet registers a moment later; signTransaction connects it.
  if (!(await wallet.waitForSelectedWallet())) throw new Error('Your wallet is not connected: log out and sign in again with it.');
  const signed = await wallet.signTransaction(fromBase64(prepared.transaction));
  return submit(toBase64(signed));
}

export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** After a signed step: refetch everything the portal shows (issuer.*) and the session (auth.me). */
export function useRefreshInstitution() {
  const queryClient = useQueryClient();
  return () => Promise.all([queryClient.invalidateQueries(trpc.issuer.pathFilter()), queryClient.invalidateQueries(trpc.auth.me.pathFilter())]);
}
