// The session: who is signed in, according to the server (cookie session from a wallet signature).
// Deliberately free of wallet code so the landing page and public routes stay light; the wallet
// half of sign-in lives in features/wallet and hands us a `signMessage` function.
import { createContext, useCallback, useContext, useEffect, useMemo, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '../../lib/toast';
import type { UserDto } from '../../../../shared/schemas/dto';
import { trpc } from '../../lib/trpc';

export const WALLET_ADDRESS_KEY = 'walletAddress';

export interface AuthState {
  user: UserDto | null;
  isLoading: boolean;
  isAuthenticated: boolean;
  walletAddress: string | null;
  /** What the wallet is besides a holder (auth.me): an institution (on-chain Issuer account), an operator. */
  roles: { issuer: boolean; operator: boolean };
  /** Proves ownership of `address` with a wallet signature and opens a server session. */
  login: (address: string, signMessage: (message: Uint8Array) => Promise<Uint8Array>) => Promise<UserDto>;
  logout: () => Promise<void>;
  /** Merges fields into the cached user after a profile save. */
  updateUserProfile: (fields: Partial<UserDto>) => void;
}

const AuthContext = createContext<AuthState | null>(null);

/**
 * Where a signed-in wallet starts: an operator's console, an institution's portal, else the holder's
 * dashboard (the development wallet's Operator and Institution accounts land on theirs).
 */
export function homeFor(roles: { issuer: boolean; operator: boolean }): string {
  return roles.operator ? '/operator' : roles.issuer ? '/institution' : '/dashboard';
}

export function shortAddress(address: string) {
  return `${address.slice(0, 6)}...${address.slice(-4)}`;
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const meOptions = useMemo(() => trpc.auth.me.queryOptions(undefined, { retry: false, staleTime: 60_000 }), []);
  const me = useQuery(meOptions);
  // Everything cached except the session itself belongs to one signed-in user.
  const notMe = useCallback(
    (q: { queryKey: readonly unknown[] }) => JSON.stringify(q.queryKey) !== JSON.stringify(meOptions.queryKey),
    [meOptions.queryKey],
  );
  const user = (me.data ?? null) as UserDto | null;
  const roles = (me.data as { roles?: { issuer: boolean; operator: boolean } } | null | undefined)?.roles;
  const nonce = useMutation(trpc.auth.nonce.mutationOptions());
  const signIn = useMutation(trpc.auth.signIn.mutationOptions());
  const signOut = useMutation(trpc.auth.signOut.mutationOptions());

  // The stored address only mirrors the server session; a session that is gone clears it.
  useEffect(() => {
    if (me.isPending) return;
    if (user) localStorage.setItem(WALLET_ADDRESS_KEY, user.wallet_address);
    else if (localStorage.getItem(WALLET_ADDRESS_KEY)) {
      console.info('Stored wallet session is no longer valid; clearing it');
      localStorage.removeItem(WALLET_ADDRESS_KEY);
    }
  }, [me.isPending, user]);

  const setUser = useCallback(
    (next: UserDto | null) => queryClient.setQueryData(meOptions.queryKey, next as never),
    [queryClient, meOptions.queryKey],
  );

  const login = useCallback<AuthState['login']>(
    async (address, signMessage) => {
      try {
        const challenge = await nonce.mutateAsync({ address });
        const signature = await signMessage(new TextEncoder().encode(challenge.message));
        // Loaded on demand: only sign-in needs base58, and this provider sits in every page's entry.
        const { default: bs58 } = await import('bs58');
        const result = (await signIn.mutateAsync({
          address,
          message: challenge.message,
          signature: bs58.encode(signature),
        })) as UserDto | { user: UserDto };
        const signedIn = 'user' in result ? result.user : result;
        localStorage.setItem(WALLET_ADDRESS_KEY, signedIn.wallet_address);
        // auth.me also says the wallet's roles (institution, operator), which sign-in does not: read them
        // before the session shows, so that /login sends the wallet to its own page (homeFor) at once.
        // If that read fails, the session shows without them and auth.me is read again.
        const read = await queryClient.fetchQuery({ ...meOptions, staleTime: 0 }).then(
          () => true,
          () => false,
        );
        if (!read) {
          setUser(signedIn);
          void queryClient.invalidateQueries({ queryKey: meOptions.queryKey });
        }
        // Everything cached before belonged to nobody or to someone else.
        await queryClient.invalidateQueries({ predicate: notMe });
        toast.success('Successfully connected', { description: "You've successfully connected your wallet." });
        return signedIn;
      } catch (error) {
        console.error('Sign-in failed', error);
        localStorage.removeItem(WALLET_ADDRESS_KEY);
        toast.error('Authentication failed', { description: 'Failed to authenticate with wallet' });
        throw error;
      }
    },
    [nonce, signIn, setUser, queryClient, notMe, meOptions.queryKey],
  );

  const logout = useCallback(async () => {
    try {
      await signOut.mutateAsync();
    } catch (error) {
      // The cookie may already be gone; the local session ends either way.
      console.error('Sign-out request failed', error);
    }
    localStorage.removeItem(WALLET_ADDRESS_KEY);
    setUser(null);
    queryClient.removeQueries({ predicate: notMe });
    toast.success('Logged out', { description: "You've been successfully logged out." });
  }, [signOut, setUser, queryClient, notMe]);

  const updateUserProfile = useCallback(
    (fields: Partial<UserDto>) => {
      if (user) setUser({ ...user, ...fields, updated_at: fields.updated_at ?? new Date().toISOString() });
    },
    [user, setUser],
  );

  const value = useMemo<AuthState>(
    () => ({
      user,
      isLoading: me.isPending,
      isAuthenticated: !!user,
      walletAddress: user?.wallet_address ?? null,
      roles: { issuer: !!roles?.issuer, operator: !!roles?.operator },
      login,
      logout,
      updateUserProfile,
    }),
    [user, roles?.issuer, roles?.operator, me.isPending, login, logout, updateUserProfile],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth must be used within an AuthProvider');
  return ctx;
}
