// Loads lib/trpcSocket.ts (the WebSocket client that carries subscriptions) once, when the first
// subscription starts or ahead of it (preloadSocket). A module of its own so that components can
// preload it without importing the tRPC client.

type TrpcSocket = typeof import('./trpcSocket');
let socket: Promise<TrpcSocket> | undefined;

let ready: TrpcSocket | undefined;

export const loadSocket = (): Promise<TrpcSocket> =>
  (socket ??= import('./trpcSocket').then((loaded) => (ready = loaded)).catch((error: unknown) => {
    // Not loaded (offline, a deploy replaced the chunk): the next subscription tries again.
    socket = undefined;
    throw error;
  }));

/** Loads the WebSocket client ahead of the first subscription (it opens no socket). */
export const preloadSocket = (): void => void loadSocket().catch(() => undefined);

/** The WebSocket client, when a subscription (or a preload) has loaded it. */
export const loadedSocket = async () => (socket ? await socket.then((loaded) => loaded.wsClient, () => undefined) : undefined);

/** The WebSocket client if it has been loaded by now (a load under way has opened no socket yet). */
export const readySocket = () => ready?.wsClient;
