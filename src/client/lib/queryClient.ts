import { QueryClient } from '@tanstack/react-query';

// The product spec's REST calls request defaults: no automatic retry, no refetch on focus or on a timer,
// data never stale (it is invalidated explicitly after a change).
// Its own module (not lib/trpc.ts) so the entry can provide it without the tRPC client, which
// only the app's routes load (no tRPC client on the landing path).
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, refetchInterval: false, staleTime: Infinity },
    mutations: { retry: false },
  },
});
