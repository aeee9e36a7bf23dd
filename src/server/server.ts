import http from 'node:http';
import type { Duplex } from 'node:stream';
import type { AddressInfo } from 'node:net';
import type { MikroORM } from '@mikro-orm/core';
import { applyWSSHandler } from '@trpc/server/adapters/ws';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import type pg from 'pg';
import { WebSocketServer } from 'ws';
import { createApp } from './app.js';
import type { Config } from './config.js';
import { lockDataDir } from './db/dataDirLock.js';
import { databaseTarget, type EmbeddedDatabase } from './db/embedded.js';
import { openDatabase, type OpenDatabase } from './db/orm.js';
import type { AppDeps } from './deps.js';
import { prepareDemoAccount } from './features/auth/demoAccount.js';
import { endDemoGuestSessions, startGuestCleanupJob } from './features/auth/guestAccount.js';
import { createSessionStore } from './features/auth/sessionStore.js';
import { createRateLimits, type RateLimits } from './features/limits/rateLimits.js';
import { resolveSessionPassword } from './features/auth/session.js';
import { adoptUpgradeSession, upgradeContext, upgradeSession } from './http/requestContext.js';
import { isForeignOrigin } from './http/security.js';
import { closeFloodingSockets } from './http/socketFlood.js';
import { createLogger } from './log.js';
import { createPostgresChatBus, createLocalChatBus, type ChatBus } from './features/chats/chatBus.js';
import { attachChatSocket } from './features/chats/chatSocket.js';
import { attachConversationRelay, isSignedRelayHandshake } from './features/telephony/conversationRelay.js';
import { relayPath } from './features/telephony/telephonyProvider.js';
import { startOrphanSweep } from './features/chats/orphanedReplies.js';
import { callGoalReminders } from './features/goals/goalCheckInCall.js';
import { startGoalReminderJob } from './features/goals/goalReminders.js';
import { extractMemories } from './features/memories/rememberFromChat.js';
import { buildMessageSearchIndex, type MessageSearchIndexBuild } from './features/search/messageSearchIndex.js';
import { notificationsEnabled, renewSubscriptions } from './features/meetings/subscriptions.js';
import { startPeriodicJob } from './jobs/periodicJob.js';
import { createNudgeWorker } from './features/nudges/nudgeQueue.js';
import { createReplyRunner } from './features/chats/replyRunner.js';
import { loadCoachFacts } from './features/coach/coachFacts.js';
import { createMicrosoftDeps } from './features/microsoft/microsoftDeps.js';
import { Message } from './db/entities/Message.js';
import { createCoachModel } from './providers/ai/index.js';
import { startDataRetentionJob } from './features/privacy/dataRetention.js';
import type { CoachModel } from './providers/ai/types.js';
import { appRouter } from './trpc/root.js';
import { instrumentCoach, instrumentRateLimits, providerCall, type Telemetry } from './telemetry/telemetry.js';
import type { Metrics } from './telemetry/metrics.js';

export type RunningServer = {
  url: string;
  port: number;
  deps: AppDeps;
  httpServer: http.Server;
  close: () => Promise<void>;
};

export type StartOptions = {
  log?: Logger;
  /** The coach model; by default the configured OpenAI-compatible model or the offline coach. */
  coach?: CoachModel;
  /** Development: attach Vite to the server and let it serve the client. */
  attachClient?: (server: http.Server) => Promise<{ middleware: RequestHandler; close: () => Promise<void> }>;
  /**
   * The embedded database's worker thread failed or exited on its own. It is logged and every
   * database call fails from then on (/readyz answers 503); `npm start` also exits (main.ts).
   */
  onDatabaseFailure?: (error: Error) => void;
  /**
   * The embedded database, already locked and starting (main.ts starts it while the server's
   * modules load); the server owns it from here (closes it, releases the lock). Without it the
   * server locks and starts it itself.
   */
  embedded?: EmbeddedDatabase;
  /** The nudges' clock (tests move it); the system clock by default. */
  nudgeClock?: () => Date;
};

export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const log = options.log ?? createLogger(config.logLevel);
  const target = databaseTarget(config);
  const embedded = target.kind === 'pglite' ? options.embedded : undefined;
  const releaseLock = embedded
    ? embedded.releaseLock
    : target.kind === 'pglite'
      ? await lockDataDir(config.dataDir, (error) => log.error({ err: error }, 'the data directory lock was lost'))
      : async () => {};
  let database: OpenDatabase | undefined;
  let chatBus: ChatBus | undefined;
  let retention: ReturnType<typeof startDataRetentionJob> | undefined;
  let rateLimits: RateLimits | undefined;
  let orphanSweep: ReturnType<typeof startOrphanSweep> | undefined;
  let goalReminders: ReturnType<typeof startGoalReminderJob> | undefined;
  let searchIndex: MessageSearchIndexBuild | undefined;
  let calendarRenewals: ReturnType<typeof startPeriodicJob> | undefined;
  let guestCleanup: ReturnType<typeof startGuestCleanupJob> | undefined;
  let nudges: AppDeps['nudges'] | undefined;
  try {
    database = await openDatabase(target, {
      embedded,
      onFailure: (error) => {
        log.error({ err: error }, 'the embedded database stopped; nothing can be read or saved until the server restarts');
        options.onDatabaseFailure?.(error);
      },
    });
    const db: MikroORM = database.orm;
    // Metrics and traces, each loaded only when configured (telemetry/telemetry.ts).
    let metrics: Metrics | undefined;
    let sockets: { trpc?: WebSocketServer; chat?: WebSocketServer } = {};
    if (config.telemetry.metricsToken) {
      const { createMetrics } = await import('./telemetry/metrics.js');
      const pool = target.kind === 'postgresql' ? ((await db.em.getConnection().getNativeClient()) as pg.Pool) : null;
      metrics = createMetrics({
        token: config.telemetry.metricsToken,
        procedures: Object.keys(appRouter._def.procedures),
        gauges: {
          openSockets: () => ({ '/trpc': sockets.trpc?.clients.size ?? 0, '/ws': sockets.chat?.clients.size ?? 0 }),
          activeReplies: () => deps.replies.runningIds().length,
          // The embedded database is one connection in its worker thread.
          databasePool: async () => (pool ? { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount } : { total: 1, idle: 0, waiting: 0 }),
        },
      });
    }
    const spans = config.telemetry.otlpEndpoint ? await (await import('./telemetry/tracing.js')).startTracing(config.telemetry) : null;
    const telemetry: Telemetry = { metrics: metrics ?? null, spans };
    // Search across chats: the message content index, built without blocking writes (messageSearchIndex.ts).
    searchIndex = buildMessageSearchIndex(target, db, log);
    await prepareDemoAccount(db, config.demoMode);
    // Data retention runs at start (before anyone is served) and then daily.
    retention = startDataRetentionJob(db, log);
    await retention.firstRun;
    chatBus =
      target.kind === 'postgresql'
        ? await createPostgresChatBus(target.url, log, {
            message: async (id) => (await db.em.fork().findOne(Message, id))?.toDto() ?? null,
            messagesSince: async (chatId, since, ids) =>
              (await db.em.fork().find(Message, { chat: chatId, $or: [{ createdAt: { $gte: since } }, { id: { $in: ids } }] }, { orderBy: { id: 'asc' } })).map((m) => m.toDto()),
          })
        : createLocalChatBus();
    rateLimits = instrumentRateLimits(await createRateLimits(config, target), telemetry);
    const coach = instrumentCoach(options.coach ?? createCoachModel(config.openai), telemetry);
    const microsoft = createMicrosoftDeps(config);
    if (metrics || spans) {
      // Every Graph request passes its mailbox's gate: the one place to count and trace them.
      const run = microsoft.gates.run;
      microsoft.gates.run = (key, work) => run(key, () => providerCall(telemetry, 'microsoft_graph', 'request', work));
    }
    const deps: AppDeps = {
      config,
      orm: db,
      log,
      sessionPassword: resolveSessionPassword(config.sessionSecret, config.dataDir),
      rateLimits,
      sessions: createSessionStore({ orm: db, chatBus, times: config.sessions }),
      coach,
      chatBus,
      replies: createReplyRunner({
        orm: db,
        chatBus,
        coach,
        log,
        // Memory (issue 24): durable facts from each completed exchange, in the background.
        afterReply: (done) => extractMemories(deps, db.em.fork(), done),
        facts: (em, userId, chatId) => loadCoachFacts(deps, em, userId, chatId),
        stallTimeoutMs: config.modelStallTimeoutMs,
      }),
      microsoft,
      telemetry,
      nudges: createNudgeWorker(log, options.nudgeClock),
    };
    // Replies whose instance died mid-stream (even killed) are marked stopped with their partial
    // text, at start and then periodically. The embedded database has one server at a time, so at
    // start every reply still 'streaming' is orphaned; on PostgreSQL other instances may be
    // streaming theirs: only replies their instance stopped writing are (orphanedReplies.ts).
    orphanSweep = startOrphanSweep({
      em: db.em,
      chatBus,
      runningIds: () => deps.replies.runningIds(),
      log,
      firstSettlesAll: target.kind === 'pglite',
    });
    await orphanSweep.firstRun;
    // Goal check-in reminders due (while the server was down too) are claimed at start, then each
    // minute; those that asked for a call are called.
    goalReminders = startGoalReminderJob(db, log, (claimed) => callGoalReminders(deps, claimed));
    // Nudges (weekly reviews, meeting briefs) due while the server was down run at start, then
    // as they come due (features/nudges/nudgeQueue.ts).
    deps.nudges.start(deps);
    nudges = deps.nudges;
    // Calendar change-notification subscriptions are renewed before they expire (https PUBLIC_URL only).
    if (notificationsEnabled(deps)) {
      calendarRenewals = startPeriodicJob({ work: () => renewSubscriptions(deps), intervalMs: 3_600_000, log, failure: 'calendar subscriptions not renewed' });
    }
    // Demo mode off: demo visitors' guest sessions end before anything is served (guestAccount.ts).
    if (!config.demoMode) {
      const ended = await endDemoGuestSessions({ orm: db, sessions: deps.sessions });
      if (ended) log.info({ ended }, 'demo mode is off: the sessions of demo guests ended');
    }
    // Guest spaces unused for DEMO_GUEST_IDLE_HOURS go with all their data, at start and hourly.
    guestCleanup = startGuestCleanupJob({ orm: db, sessions: deps.sessions, log }, config.guestIdleHours);

    const httpServer = http.createServer();
    const client = options.attachClient ? await options.attachClient(httpServer) : undefined;
    const app = createApp(deps, { clientMiddleware: client?.middleware, metrics });
    httpServer.on('request', app);
    // `Expect: 100-continue` is answered by the app (http/largeBodyGate.ts), once the sender of a
    // large body is known, instead of by Node at once: an unknown sender never sends the body.
    httpServer.on('checkContinue', app);

    // One port for HTTP and both WebSocket endpoints; upgrades are routed by path.
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
    sockets = { trpc: trpcWss, chat: chatWss };
    attachChatSocket(deps, chatWss);
    const relayWss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
    attachConversationRelay(deps, relayWss);
    const upgradeRoutes: Record<string, WebSocketServer> = { '/trpc': trpcWss, '/ws': chatWss, [relayPath]: relayWss };
    httpServer.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
      const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
      if (pathname === relayPath) {
        // Twilio's ConversationRelay: no cookie, no session; the handshake must carry Twilio's
        // signature of the relay URL, or it is refused before any message.
        if (!isSignedRelayHandshake(deps, req)) {
          socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
          return;
        }
        relayWss.handleUpgrade(req, socket, head, (ws) => relayWss.emit('connection', ws, req));
        return;
      }
      const wss = upgradeRoutes[pathname];
      if (!wss) {
        if (!client) socket.destroy(); // in development Vite's HMR socket takes the rest
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

    await new Promise<void>((resolve, reject) => {
      httpServer.once('error', reject);
      httpServer.listen(config.port, config.host, () => resolve());
    });
    const port = (httpServer.address() as AddressInfo).port;
    const hostForUrl = config.host.includes(':') ? `[${config.host}]` : config.host;
    const url = `http://${hostForUrl === '0.0.0.0' ? '127.0.0.1' : hostForUrl}:${port}`;
    deps.nudges.baseUrl = url;

    let closing: Promise<void> | undefined;
    const close = () =>
      (closing ??= (async () => {
        // Tell WebSocket clients to reconnect elsewhere, stop accepting, let requests finish.
        trpcHandler.broadcastReconnectNotification();
        const stopped = new Promise<void>((resolve) => httpServer.close(() => resolve()));
        httpServer.closeIdleConnections();
        for (const wss of Object.values(upgradeRoutes)) for (const ws of wss.clients) ws.close(1012, 'Server restarting');
        const timeout = setTimeout(() => httpServer.closeAllConnections(), 5_000);
        await stopped;
        clearTimeout(timeout);
        await deps.replies.drain();
        await orphanSweep?.stop();
        await goalReminders?.stop();
        await deps.nudges.stop();
        await searchIndex?.stop();
        await calendarRenewals?.stop();
        await guestCleanup?.stop();
        await retention?.stop();
        await client?.close();
        deps.sessions.close();
        await deps.chatBus.close();
        await deps.rateLimits.close();
        await database!.close();
        await spans?.flush().catch(() => {});
        await releaseLock();
      })());

    return { url, port, deps, httpServer, close };
  } catch (error) {
    await orphanSweep?.stop().catch(() => {});
    await goalReminders?.stop().catch(() => {});
    await nudges?.stop().catch(() => {});
    await searchIndex?.stop().catch(() => {});
    await calendarRenewals?.stop().catch(() => {});
    await guestCleanup?.stop().catch(() => {});
    await retention?.stop().catch(() => {});
    await chatBus?.close().catch(() => {});
    await rateLimits?.close().catch(() => {});
    await database?.close().catch(() => {});
    await releaseLock();
    throw error;
  }
}
