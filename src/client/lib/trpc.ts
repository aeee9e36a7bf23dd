import { useSyncExternalStore } from 'react';
import { createTRPCClient, httpBatchLink, splitLink, type OperationLink, type TRPCLink } from '@trpc/client';
import { observable } from '@trpc/server/observable';
import { createTRPCOptionsProxy } from '@trpc/tanstack-react-query';
import type { AppRouter } from '../../server/trpc/root';
import { fetchWithHttpErrors } from './errors';
import { forgetUserLocalCopies } from './localCopies';
import { queryClient } from './queryClient';
import { loadedSocket, loadSocket, readySocket } from './socketLoader';

export { queryClient };

// Subscriptions travel over a WebSocket (lib/trpcSocket.ts), whose client is loaded with the first
// subscription: a new conversation, the first view of /app, streams nothing, so its first visit
// neither fetches nor runs the WebSocket client (the first visit's JavaScript).

const socketLink: TRPCLink<AppRouter> = (runtime) => {
  let link: OperationLink<AppRouter> | undefined;
  return ({ op, next }) =>
    observable((observer) => {
      let subscription: { unsubscribe(): void } | undefined;
      let retry: ReturnType<typeof setTimeout> | undefined;
      let cancelled = false;
      // Like a socket that cannot connect, a client that cannot be loaded (offline) is tried again,
      // less and less often: the subscription waits rather than fails.
      const start = (attempt: number) => {
        loadSocket().then(
          (loaded) => {
            if (cancelled) return;
            link ??= loaded.socketLink(runtime);
            subscription = link({ op, next }).subscribe(observer);
          },
          () => {
            if (!cancelled) retry = setTimeout(() => start(attempt + 1), Math.min(30_000, 1_000 * 2 ** attempt));
          },
        );
      };
      start(0);
      return () => {
        cancelled = true;
        clearTimeout(retry);
        subscription?.unsubscribe();
      };
    });
};

// A demo visitor without a session reads the shared samples; their first write makes
// them a private guest space on the server, which answers with its session cookie (HttpOnly, so
// unseen here). The space is a copy of what the visitor was reading, and the samples' ids keep
// naming its copies (the server maps them), so what is on screen stays true: nothing is read again
// at once, nothing is drawn anew, and the page that wrote finishes as it would for an account (its
// confirmation, its form's values, its focus). Pages know nothing of the switch. What changes: the
// WebSocket reconnects with the cookie (its subscriptions resume on the new socket, so live chat
// events reach the guest), the session says who the app now is, and every cached answer becomes
// stale, so what a screen reads next comes from the space.
function isVisitorWithoutSession(): boolean {
  const session = queryClient.getQueryData(trpc.auth.session.queryKey());
  return Boolean(session && session.demoMode && !session.signedIn);
}

let adopting: Promise<void> | null = null;
/**
 * Takes over the guest space the first write made. Only answers read before that write began are
 * stale: what a screen wrote into the cache since (a new chat's first messages, seeded from the
 * send's answer while this runs) already comes from the space, and marking it stale would read it
 * again and lose what it holds (a reply that failed meanwhile, and its toast).
 */
async function adoptGuestSpace(writeStartedAt: number) {
  // Closing the socket itself (not the client) makes the client reconnect and resend its
  // subscriptions. A client still loading has opened no socket: it will open one with the cookie.
  readySocket()?.connection?.ws?.close();
  const session = await queryClient.fetchQuery({ ...trpc.auth.session.queryOptions(), staleTime: 0 });
  if (!session.signedIn) return;
  await queryClient.invalidateQueries({ refetchType: 'none', predicate: (query) => query.state.dataUpdatedAt <= writeStartedAt });
}

const guestSpaceLink: TRPCLink<AppRouter> = () => ({ op, next }) =>
  observable((observer) => {
    // A write that starts while the space is being taken over is the space's (its cookie is set).
    const firstWrite = op.type === 'mutation' && !op.path.startsWith('auth.') && adopting === null && isVisitorWithoutSession();
    const writeStartedAt = Date.now();
    let mine: Promise<void> | undefined;
    const adopted = () => {
      adopting ??= adoptGuestSpace(writeStartedAt).finally(() => {
        adopting = null;
      });
      mine ??= adopting;
      return mine;
    };
    // The first write's answer is handed on once the space is taken over: a caller awaiting it
    // (tRPC's promise settles at the first value) then writes next as the space, never as a visitor.
    return next(op).subscribe({
      next: (value) => (firstWrite ? void adopted().then(() => observer.next(value)) : observer.next(value)),
      error: (error) => observer.error(error),
      complete: () => (firstWrite ? void adopted().then(() => observer.complete()) : observer.complete()),
    });
  });

export const trpcClient = createTRPCClient<AppRouter>({
  links: [
    guestSpaceLink,
    splitLink({
      condition: (op) => op.type === 'subscription',
      true: socketLink,
      false: httpBatchLink({ url: '/trpc', fetch: fetchWithHttpErrors }),
    }),
  ],
});

export const trpc = createTRPCOptionsProxy<AppRouter>({ client: trpcClient, queryClient });

// Who is signed in changed (login, logout, registration, an access key): screens holding one
// person's forms start afresh for the next (useSessionEpoch). A guest space started by a first
// write is the same person, and no new epoch.
let sessionEpoch = 0;
const epochListeners = new Set<() => void>();
function subscribeSessionEpoch(listener: () => void) {
  epochListeners.add(listener);
  return () => void epochListeners.delete(listener);
}
export function useSessionEpoch(): number {
  return useSyncExternalStore(subscribeSessionEpoch, () => sessionEpoch);
}

// The WebSocket carries the session it was opened with: after login or logout open a new one.
// The previous user's local copies (writing style, knowledge base) go with their session.
export async function afterSessionChange() {
  sessionEpoch += 1;
  for (const listener of epochListeners) listener();
  forgetUserLocalCopies();
  (await loadedSocket())?.close();
  await queryClient.resetQueries();
}
