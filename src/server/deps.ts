import type { MikroORM } from '@mikro-orm/core';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { LoginThrottle } from './features/auth/loginThrottle.js';
import type { ChatBus } from './features/chats/chatBus.js';
import type { ReplyRunner } from './features/chats/replyRunner.js';
import type { CoachModel } from './providers/ai/types.js';

// Everything a request handler may need, built once at start (main.ts) or per test.
export type AppDeps = {
  config: Config;
  orm: MikroORM;
  log: Logger;
  sessionPassword: string;
  loginThrottle: LoginThrottle;
  coach: CoachModel;
  chatBus: ChatBus;
  replies: ReplyRunner;
};
