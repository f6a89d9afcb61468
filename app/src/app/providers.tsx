import type { ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { Toaster } from '../components/ui/sonner';
import { TooltipProvider } from '../components/ui/tooltip';
import { AuthProvider } from '../features/auth/AuthProvider';
import { queryClient } from '../lib/query-client';
import { TRPCProvider, trpcClient } from '../lib/trpc';

/** Everything every route needs: cache, tRPC, session, tooltips and toasts. Wallet code is not here. */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        <AuthProvider>
          <TooltipProvider>
            {children}
            <Toaster />
          </TooltipProvider>
        </AuthProvider>
      </TRPCProvider>
    </QueryClientProvider>
  );
}
