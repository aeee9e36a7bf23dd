import { createTRPCClient, createWSClient, httpBatchLink, splitLink, wsLink } from '@trpc/client';
import WebSocket from 'ws';
import type { AppRouter } from '../../src/server/trpc/root.js';
import { HttpClient } from './server.js';

// A signed-in user as a browser would be: cookies over HTTP, and the same cookie on the tRPC
// WebSocket (subscriptions), exactly like the client's splitLink.
export async function signUp(baseUrl: string, username: string, fullName = 'Test User') {
  const http = new HttpClient(baseUrl);
  const res = await http.post('/api/auth/register', { username, password: 'secret123', fullName });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${res.text}`);
  return { http, user: res.json.user as { id: number; fullName: string } };
}

export function trpcClientFor(baseUrl: string, http: HttpClient) {
  const headers = () => ({ cookie: http.cookieHeader, origin: baseUrl });
  class CookieWebSocket extends WebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols, { headers: headers() });
    }
  }
  const wsClient = createWSClient({ url: `${baseUrl.replace('http', 'ws')}/trpc`, WebSocket: CookieWebSocket as never });
  const client = createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === 'subscription',
        true: wsLink({ client: wsClient }),
        false: httpBatchLink({ url: `${baseUrl}/trpc`, headers }),
      }),
    ],
  });
  return { client, close: () => wsClient.close() };
}

// Waits until a condition holds, checking every few milliseconds (bounded).
export async function eventually<T>(check: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
