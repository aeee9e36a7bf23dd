import { createNudgeWorker } from './features/nudges/nudgeWorker.js';
import type { MikroORM } from '@mikro-orm/core';
import type { Logger } from 'pino';
import type { Clock } from 'pg-boss';
import { systemHostLookup, type HostLookup } from './features/nudges/pushHosts.js';
import type pg from 'pg';
import { loadCoachFacts } from './coachFacts.js';
import type { Config } from './config.js';
import type { DatabaseTarget } from './db/embedded.js';
import { Message } from './db/entities/Message.js';
import type { AppDeps } from './deps.js';
import { resolveSessionPassword } from './features/auth/session.js';
import { createSessionStore } from './features/auth/sessionStore.js';
import { createLocalChatBus, createPostgresChatBus } from './features/chats/chatBus.js';
import { createSafetyLine } from './features/coach/safety/index.js';
import { createReplyRunner } from './features/chats/replyRunner.js';
import { createRateLimits } from './features/limits/rateLimits.js';
import { extractMemories } from './features/memories/rememberFromChat.js';
import { createMicrosoftDeps } from './features/microsoft/microsoftDeps.js';
import { createCoachModel } from './providers/ai/index.js';
import { createProviders } from './providers/providers.js';
import { createSpeechAllowances } from './features/voice/voiceBudget.js';
import type { CoachModel } from './providers/ai/contract.js';
import type { Teardown } from './teardown.js';
import type { Metrics } from './telemetry/metrics.js';
import { instrumentCoach, instrumentRateLimits, providerCall, type Telemetry } from './telemetry/telemetry.js';
import { appRouter } from './trpc/root.js';

// The composition root: the one place the server's dependencies are built and wired to each
// other (the chat bus, budgets, sessions, the coach and what it is handed, Microsoft, the other
// providers: voice, SMS, calls, push, memory extraction, the rehearsal judge; telemetry), each
// outside call wrapped in the same metrics and traces. Handlers receive them as AppDeps and never
// build their own; nothing changes the object once it is returned.

export type Composed = { deps: AppDeps; metrics: Metrics | undefined; spans: Telemetry['spans'] };

export async function composeDeps(
  config: Config,
  parts: {
    log: Logger;
    target: DatabaseTarget;
    orm: MikroORM;
    teardown: Teardown;
    /** The coach model; by default the configured OpenAI-compatible model or the offline coach. */
    coach?: CoachModel;
    /** The job queue's clock (tests move it: pg-boss's TestClock); the system clock by default. */
    queueClock?: Clock;
    /** How push hosts are resolved before a delivery; DNS by default. */
    hostLookup?: HostLookup;
    /** The address the server listens on (known once it listens): the nudges' links when PUBLIC_URL is unset. */
    listenUrl: () => string;
    /** The open WebSocket connections by endpoint, for the metrics (known once the sockets exist). */
    openSockets: () => Record<string, number>;
  },
): Promise<Composed> {
  const { log, target, orm: db, teardown } = parts;
  // Metrics and traces, each loaded only when configured (telemetry/telemetry.ts).
  let metrics: Metrics | undefined;
  if (config.telemetry.metricsToken) {
    const { createMetrics } = await import('./telemetry/metrics.js');
    const pool = target.kind === 'postgresql' ? ((await db.em.getConnection().getNativeClient()) as pg.Pool) : null;
    metrics = createMetrics({
      token: config.telemetry.metricsToken,
      procedures: Object.keys(appRouter._def.procedures),
      gauges: {
        openSockets: parts.openSockets,
        activeReplies: () => deps.replies.runningIds().length,
        // The embedded database is one connection in its worker thread.
        databasePool: async () => (pool ? { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount } : { total: 1, idle: 0, waiting: 0 }),
      },
    });
  }
  const spans = config.telemetry.otlpEndpoint ? await (await import('./telemetry/tracing.js')).startTracing(config.telemetry) : null;
  if (spans) teardown.defer('traces', () => spans.flush().catch(() => {}));
  const telemetry: Telemetry = { metrics: metrics ?? null, spans };

  const chatBus =
    target.kind === 'postgresql'
      ? await createPostgresChatBus(target.url, log, {
          message: async (id) => (await db.em.fork().findOne(Message, id))?.toDto() ?? null,
          messagesSince: async (chatId, since, ids) =>
            (await db.em.fork().find(Message, { chat: chatId, $or: [{ createdAt: { $gte: since } }, { id: { $in: ids } }] }, { orderBy: { id: 'asc' } })).map((m) => m.toDto()),
        })
      : createLocalChatBus();
  teardown.defer('chat bus', () => chatBus.close());
  const rateLimits = instrumentRateLimits(await createRateLimits(config, target), telemetry);
  teardown.defer('rate limits', () => rateLimits.close());
  const coach = instrumentCoach(parts.coach ?? createCoachModel(config.openai), telemetry);
  // Each screen's decision counted by category, never with the text.
  const safety = createSafetyLine(config.safety, metrics ? (category) => metrics.safetyScreen(category) : undefined);
  const microsoft = createMicrosoftDeps(config);
  if (metrics || spans) {
    // Every Graph request passes its mailbox's gate: the one place to count and trace them.
    const run = microsoft.gates.run;
    microsoft.gates.run = (key, work) => run(key, () => providerCall(telemetry, 'microsoft_graph', 'request', work));
  }
  const sessions = createSessionStore({ orm: db, chatBus, times: config.sessions });
  teardown.defer('sessions', () => sessions.close());
  const deps: AppDeps = {
    config,
    orm: db,
    log,
    sessionPassword: resolveSessionPassword(config.sessionSecret, config.dataDir),
    rateLimits,
    sessions,
    coach,
    safety,
    chatBus,
    replies: createReplyRunner({
      orm: db,
      chatBus,
      coach,
      safety,
      log,
      // Memory: durable facts from each completed exchange, in the background.
      afterReply: (done) => extractMemories(deps, db.em.fork(), done),
      // What the features hand the coach for each reply.
      facts: (em, userId, chatId, sources, rehearsal) => loadCoachFacts(deps, em, userId, { chatId, rehearsal, leaveOut: sources && { mail: !sources.mail, meetings: !sources.calendar } }),
      stallTimeoutMs: config.modelStallTimeoutMs,
    }),
    microsoft,
    providers: createProviders(config, telemetry),
    speechAllowances: createSpeechAllowances(),
    telemetry,
    nudges: createNudgeWorker(log, parts.queueClock ? () => new Date(parts.queueClock!.now()) : undefined, parts.listenUrl),
    queueClock: parts.queueClock,
    hostLookup: parts.hostLookup ?? systemHostLookup,
  };
  // Replies running on shutdown are stopped and stored as stopped, before what they write to goes.
  teardown.defer('coach replies', () => deps.replies.drain());
  return { deps, metrics, spans };
}
