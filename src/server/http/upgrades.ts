import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { applyWSSHandler } from '@trpc/server/adapters/ws';
import { WebSocketServer } from 'ws';
import type { AppDeps } from '../deps.js';
import { attachChatSocket } from '../features/chats/chatSocket.js';
import { attachConversationRelay } from '../features/telephony/conversationRelay.js';
import { signedRelayHandshakeCall } from '../features/telephony/relayGrant.js';
import { relayPath } from '../features/telephony/telephonyProvider.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import { appRouter } from '../trpc/root.js';
import { adoptUpgradeSession, upgradeContext, upgradeSession } from './requestContext.js';
import { isForeignOrigin } from './security.js';
import { closeFloodingSockets } from './socketFlood.js';

export type UpgradeRoutes = {
  /** The open connections by endpoint (for the metrics). */
  openSockets(): Record<string, number>;
  /** On shutdown: tells tRPC clients to reconnect elsewhere and closes every socket. */
  closeAll(): void;
};

/**
 * One port for HTTP and the WebSocket endpoints: upgrades are routed by path (tRPC, the chat
 * socket, Twilio's ConversationRelay). `passOn`: an upgrade of another path is left alone (in
 * development Vite's HMR socket takes it) instead of refused.
 */
export function routeUpgrades(deps: AppDeps, httpServer: http.Server, options: { spans: Telemetry['spans']; passOn: boolean }): UpgradeRoutes {
  const { log } = deps;
  const { spans } = options;
  const trpcWss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  const trpcHandler = applyWSSHandler({
    wss: trpcWss,
    router: appRouter,
    createContext: ({ req }) => upgradeContext(deps, req),
    keepAlive: { enabled: true, pingMs: 30_000, pongWaitMs: 5_000 },
    onError: ({ error, path }) => {
      if (error.code === 'INTERNAL_SERVER_ERROR') log.error({ err: error.cause ?? error, procedure: path }, 'procedure failed');
    },
  });
  closeFloodingSockets(trpcWss);
  const chatWss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  attachChatSocket(deps, chatWss);
  const relayWss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  attachConversationRelay(deps, relayWss);
  const upgradeRoutes: Record<string, WebSocketServer> = { '/trpc': trpcWss, '/ws': chatWss, [relayPath]: relayWss };
  httpServer.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (pathname === relayPath) {
      // Twilio's ConversationRelay: no cookie, no session; the handshake must carry Twilio's
      // signature of the relay URL made for one call, not expired, or it is refused before any message.
      if (signedRelayHandshakeCall(deps, req) === null) {
        socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
        return;
      }
      relayWss.handleUpgrade(req, socket, head, (ws) => relayWss.emit('connection', ws, req));
      return;
    }
    const wss = upgradeRoutes[pathname];
    if (!wss) {
      if (!options.passOn) socket.destroy();
      return;
    }
    if (isForeignOrigin(req)) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
      return;
    }
    // No WebSocket instrumentation of OpenTelemetry fits ws 8 and this SDK: a span of our own
    // covers each upgrade (the endpoint and the outcome, nothing a client sent).
    const span = spans?.start('websocket upgrade', { 'url.path': pathname });
    // A cookie of an ended session is refused; a live session's sockets close when it ends.
    upgradeSession(deps, req).then(
      (session) => {
        if (session.ended) {
          span?.set('ai_coach.outcome', 'refused');
          span?.end();
          socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\n\r\n');
          return;
        }
        wss.handleUpgrade(req, socket, head, (ws) => {
          span?.set('ai_coach.outcome', 'open');
          span?.end();
          if (session.id) deps.sessions.trackSocket(session.id, ws);
          // A guest space started by a write on this socket is watched like the session it opened with.
          session.onStarted = (id) => deps.sessions.trackSocket(id, ws);
          adoptUpgradeSession(req, session);
          wss.emit('connection', ws, req);
        });
      },
      (error) => {
        span?.end(error);
        log.error({ err: error }, 'upgrade failed');
        socket.end('HTTP/1.1 500 Internal Server Error\r\nConnection: close\r\n\r\n');
      },
    );
  });
  return {
    openSockets: () => ({ '/trpc': trpcWss.clients.size, '/ws': chatWss.clients.size }),
    closeAll() {
      trpcHandler.broadcastReconnectNotification();
      for (const wss of Object.values(upgradeRoutes)) for (const ws of wss.clients) ws.close(1012, 'Server restarting');
    },
  };
}
