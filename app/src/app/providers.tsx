import type { ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { LazyToaster } from '../components/ui/lazy-toaster';
import { AuthProvider } from '../features/auth/AuthProvider';
import { queryClient } from '../lib/query-client';

/**
 * Everything every route needs: cache, session and toasts (tRPC needs no provider: components use the
 * module-level options proxy, lib/trpc.ts). Wallet code is not here, and neither are tooltips: their
 * providers live with the chat panel and the sidebar, which load on demand.
 */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <AuthProvider>
        {children}
        <LazyToaster />
      </AuthProvider>
    </QueryClientProvider>
  );
}
