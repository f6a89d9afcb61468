import { QueryClient } from '@tanstack/react-query';

// Seed §9 "data cache": gc 5 min, 3 retries, exponential backoff capped at 30 s. These are TanStack
// Query's own defaults; they are written out here, in one place, so the constants are visible.
export const QUERY_GC_TIME_MS = 5 * 60 * 1000;
export const QUERY_RETRY_COUNT = 3;
export const QUERY_MAX_RETRY_DELAY_MS = 30_000;

export function retryDelay(attempt: number) {
  return Math.min(1000 * 2 ** attempt, QUERY_MAX_RETRY_DELAY_MS);
}

export function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        gcTime: QUERY_GC_TIME_MS,
        retry: QUERY_RETRY_COUNT,
        retryDelay,
      },
    },
  });
}

/** The app's single cache; tRPC's options proxy is bound to it. */
export const queryClient = makeQueryClient();
