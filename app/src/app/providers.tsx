import type { ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { LazyToaster } from '../components/ui/lazy-toaster';
import { AuthProvider } from '../features/auth/AuthProvider';
import { queryClient } from '../lib/query-client';
import { TRPCProvider, trpcClient } from '../lib/trpc';

/**
 * Everything every route needs: cache, tRPC, session and toasts. Wallet code is not here, and neither
 * are tooltips: their providers live with the chat panel and the sidebar, which load on demand.
 */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        <AuthProvider>
          {children}
          <LazyToaster />
        </AuthProvider>
      </TRPCProvider>
    </QueryClientProvider>
  );
}
