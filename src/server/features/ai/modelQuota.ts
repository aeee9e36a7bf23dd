import type { User } from '../../db/entities/User.js';
import type { AppDeps } from '../../deps.js';
import { rateLimitAddressKey } from '../limits/addressKey.js';

// The per-user daily budget of model turns (MODEL_DAILY_QUOTA, 0 = no limit), one of the limits
// of features/limits (rateLimits.modelDaily): counted per UTC day, in PostgreSQL shared by every
// instance, taken before the model is called, refused with a 429 whose Retry-After is the
// seconds to UTC midnight.
//
// Every path that calls the model takes its turn in consumeChatMessage (features/limits/
// chatLimit.ts), which also takes the per-minute budget: a chat message (REST, tRPC and /ws all
// go through sendMessage), and the OpenAI-compatible endpoint and voice turns (modelProcedure).
// takeModelTurn then hands over the turn just taken, to give it back if the request fails before
// the model answers.

type Quota = { deps: AppDeps; user: User; clientIp: string };

export type ModelTurn = { refund: () => Promise<void> };

const noTurn: ModelTurn = { refund: async () => {} };

// The turns a request context has taken and not yet handed over (a tRPC batch shares one context).
const takenBy = new WeakMap<object, ModelTurn[]>();

/** Takes one of today's model turns for the user; throws RateLimitError when none is left. */
export async function consumeModelTurn(ctx: Quota): Promise<void> {
  // Guest spaces cost nothing to make (RATE_LIMIT_GUEST_PER_HOUR of them an hour from one address):
  // a budget each would multiply the day's turns by the guests an address makes. Guests (and the
  // read-only demo template, should it ever reach here) are counted by address, as one visitor;
  // a registered account by its own id.
  const key = ctx.user.isDemo || ctx.user.isGuest ? `demo:${rateLimitAddressKey(ctx.clientIp)}` : `user:${ctx.user.id}`;
  const giveBack = await ctx.deps.rateLimits.modelDaily.take(key);
  const turn: ModelTurn = {
    // A turn whose request failed is given back (a lost refund costs the user one turn, no more).
    refund: () => giveBack().catch((error: unknown) => ctx.deps.log.warn({ err: error }, 'model turn not given back')),
  };
  const taken = takenBy.get(ctx);
  if (taken) taken.push(turn);
  else takenBy.set(ctx, [turn]);
}

/** The model turn this context took in consumeChatMessage (call right after it; first taken, first handed over). */
export function takeModelTurn(ctx: Quota): ModelTurn {
  return takenBy.get(ctx)?.shift() ?? noTurn;
}
