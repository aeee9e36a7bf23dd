import type { WebSocket, WebSocketServer } from 'ws';

// A person sends a few WebSocket messages a minute (a chat message, opening a chat); a client
// sending more than this is broken or hostile, and is closed (1008) rather than served.
export const socketFrameLimit = { frames: 60, windowMs: 10_000 };

/** Counts one socket's frames; true once it has sent too many within the window. */
export function floodGuard(): () => boolean {
  let windowStart = Date.now();
  let count = 0;
  return () => {
    const now = Date.now();
    if (now - windowStart > socketFrameLimit.windowMs) {
      windowStart = now;
      count = 0;
    }
    count += 1;
    return count > socketFrameLimit.frames;
  };
}

/** Closes every socket of this server that floods (the tRPC endpoint; /ws says why first). */
export function closeFloodingSockets(wss: WebSocketServer) {
  wss.on('connection', (ws: WebSocket) => {
    const flooding = floodGuard();
    ws.on('message', () => {
      if (flooding() && ws.readyState === ws.OPEN) ws.close(1008, 'Too many messages');
    });
  });
}
