import { QueryClient } from '@tanstack/react-query';
import { createTRPCClient, createWSClient, httpBatchLink, splitLink, wsLink } from '@trpc/client';
import { createTRPCOptionsProxy } from '@trpc/tanstack-react-query';
import type { AppRouter } from '../../server/trpc/root';
import { forgetUserLocalCopies } from './localCopies';

// SPEC section 7 request defaults: no automatic retry, no refetch on focus or on a timer,
// data never stale (it is invalidated explicitly after a change).
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, refetchInterval: false, staleTime: Infinity },
    mutations: { retry: false },
  },
});

function wsUrl() {
  const { protocol, host } = window.location;
  return `${protocol === 'https:' ? 'wss' : 'ws'}://${host}/trpc`;
}

// Subscriptions travel over a WebSocket opened only when one is in use (lazy), so pages that
// do not stream never open it.
export const wsClient = createWSClient({ url: wsUrl, lazy: { enabled: true, closeMs: 10_000 } });

export const trpcClient = createTRPCClient<AppRouter>({
  links: [
    splitLink({
      condition: (op) => op.type === 'subscription',
      true: wsLink({ client: wsClient }),
      false: httpBatchLink({ url: '/trpc' }),
    }),
  ],
});

export const trpc = createTRPCOptionsProxy<AppRouter>({ client: trpcClient, queryClient });

// The WebSocket carries the session it was opened with: after login or logout open a new one.
// The previous user's local copies (writing style, knowledge base) go with their session.
export async function afterSessionChange() {
  forgetUserLocalCopies();
  wsClient.close();
  await queryClient.resetQueries();
}
