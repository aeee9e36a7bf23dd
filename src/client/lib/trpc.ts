import { createTRPCClient, createWSClient, httpBatchLink, splitLink, wsLink } from '@trpc/client';
import { createTRPCOptionsProxy } from '@trpc/tanstack-react-query';
import type { AppRouter } from '../../server/trpc/root';
import { fetchWithHttpErrors } from './errors';
import { forgetUserLocalCopies } from './localCopies';
import { queryClient } from './queryClient';

export { queryClient };

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
      false: httpBatchLink({ url: '/trpc', fetch: fetchWithHttpErrors }),
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
