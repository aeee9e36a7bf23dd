import type { User } from '../../db/entities/User.js';
import type { AppDeps } from '../../deps.js';
import { consumeModelTurn } from '../ai/index.js';
import { rateLimitAddressKey } from './addressKey.js';

// Every path that calls the model (REST, tRPC, /ws, the OpenAI-compatible endpoint, voice) calls
// this first. It takes both budgets: RATE_LIMIT_CHAT_PER_MINUTE, then one of the day's
// MODEL_DAILY_QUOTA turns (takeModelTurn, called right after, hands that turn over so that a failed
// request gives it back). Demo visitors all share the demo user, so they are counted by address
// instead.
export async function consumeChatMessage(ctx: { deps: Pick<AppDeps, 'config' | 'log' | 'rateLimits'>; user: User; clientIp: string }): Promise<void> {
  const key = ctx.user.isDemo ? `demo:${rateLimitAddressKey(ctx.clientIp)}` : `user:${ctx.user.id}`;
  await ctx.deps.rateLimits.chat.consume(key);
  await consumeModelTurn(ctx);
}
