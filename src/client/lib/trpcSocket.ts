import { createWSClient, wsLink, type TRPCLink } from '@trpc/client';
import type { AppRouter } from '../../server/trpc/root';

// The WebSocket that carries subscriptions (chat events), loaded by lib/trpc.ts with the first
// subscription. It opens only while a subscription is in use (lazy) and closes 10 s after the last.

function wsUrl() {
  const { protocol, host } = window.location;
  return `${protocol === 'https:' ? 'wss' : 'ws'}://${host}/trpc`;
}

export const wsClient = createWSClient({ url: wsUrl, lazy: { enabled: true, closeMs: 10_000 } });

export const socketLink: TRPCLink<AppRouter> = wsLink<AppRouter>({ client: wsClient });
