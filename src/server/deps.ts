import type { MikroORM } from '@mikro-orm/core';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { SessionStore } from './features/auth/sessionStore.js';
import type { ChatBus } from './features/chats/chatBus.js';
import type { ReplyRunner } from './features/chats/replyRunner.js';
import type { MicrosoftDeps } from './features/microsoft/microsoftDeps.js';
import type { CoachModel } from './providers/ai/contract.js';
import type { SafetyLine } from './features/coach/safety/index.js';
import type { RateLimits } from './features/limits/rateLimits.js';
import type { Telemetry } from './telemetry/telemetry.js';
import type { NudgeWorker } from './features/nudges/nudgeWorker.js';
import type { Clock } from 'pg-boss';
import type { HostLookup } from './features/nudges/pushHosts.js';
import type { Providers } from './providers/providers.js';
import type { SpeechAllowances } from './features/voice/voiceBudget.js';

// Everything a request handler may need, built once at start (main.ts) or per test.
export type AppDeps = {
  config: Config;
  orm: MikroORM;
  log: Logger;
  sessionPassword: string;
  /** RATE_LIMIT_*, MODEL_DAILY_QUOTA: consume before deciding; chat and model turns: call consumeChatMessage (features/limits/chatLimit.ts). */
  rateLimits: RateLimits;
  sessions: SessionStore;
  coach: CoachModel;
  /** The safety line every coach turn and the OpenAI-compatible API pass (features/coach/safety/). */
  safety: SafetyLine;
  chatBus: ChatBus;
  replies: ReplyRunner;
  microsoft: MicrosoftDeps;
  /** Voice, SMS, calls, push, memory extraction and the rehearsal judge, built once by compose.ts (providers/providers.ts). */
  providers: Providers;
  /** The replies voice turns' speech allowances cover, on this instance (features/voice/voiceBudget.ts). */
  speechAllowances: SpeechAllowances;
  /** Metrics and traces hooks (telemetry/): each is null when not configured. */
  telemetry: Telemetry;
  /** The nudges' queue worker (features/nudges/nudgeWorker.ts) and its clock. */
  nudges: NudgeWorker;
  /** The job queue's clock (jobs/jobQueue.ts): pg-boss's TestClock in tests, else the system clock. */
  queueClock?: Clock;
  /** How a push service's host is resolved before each delivery (features/nudges/pushHosts.ts). */
  hostLookup: HostLookup;
};
