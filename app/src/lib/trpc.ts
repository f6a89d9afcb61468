// The web app's tRPC client. The app knows the server only through `import type { AppRouter }`.
import {
  createTRPCClient,
  httpBatchLink,
  httpLink,
  httpSubscriptionLink,
  isNonJsonSerializable,
  splitLink,
} from '@trpc/client';
import { createTRPCOptionsProxy } from '@trpc/tanstack-react-query';
import type { AppRouter } from '../../../server/src/router';
import { queryClient } from './query-client';

/** Same origin in production (the server serves app/dist); Vite proxies it in development. */
export const TRPC_URL = '/trpc';

// The session is an HttpOnly cookie set by the server, so every request carries credentials.
const fetchWithCredentials: typeof fetch = (input, init) =>
  fetch(input, { ...init, credentials: 'include' });

export const trpcClient = createTRPCClient<AppRouter>({
  links: [
    splitLink({
      // Live status (verification pipeline) arrives over Server-Sent Events.
      condition: (op) => op.type === 'subscription',
      true: httpSubscriptionLink({
        url: TRPC_URL,
        eventSourceOptions: { withCredentials: true },
      }),
      false: splitLink({
        // FormData / Blob uploads cannot be batched as JSON.
        condition: (op) => isNonJsonSerializable(op.input),
        true: httpLink({ url: TRPC_URL, fetch: fetchWithCredentials }),
        false: httpBatchLink({ url: TRPC_URL, fetch: fetchWithCredentials }),
      }),
    }),
  ],
});

/**
 * Module-level options proxy: `useQuery(trpc.certificate.byId.queryOptions({ id }))`.
 * Usable outside React too (loaders, invalidation helpers).
 */
export const trpc = createTRPCOptionsProxy<AppRouter>({ client: trpcClient, queryClient });
