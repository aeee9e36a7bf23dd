import type { User } from '../../db/entities/User.js';
import type { AppDeps } from '../../deps.js';
import { isTrustedAddress, rateLimitAddressKey } from '../limits/index.js';

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

type Quota = { deps: Pick<AppDeps, 'config' | 'log' | 'rateLimits'>; user: User; clientIp: string };

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
  let giveBackAddress: (() => Promise<void>) | null = null;
  if (takesAddressBudget(ctx)) {
    try {
      giveBackAddress = await ctx.deps.rateLimits.modelDailyPerAddress.take(`addr:${rateLimitAddressKey(ctx.clientIp)}`);
    } catch (error) {
      await giveBack().catch(() => {});
      throw error;
    }
  }
  const turn: ModelTurn = {
    // A turn whose request failed is given back (a lost refund costs the user one turn, no more).
    refund: async () => {
      await Promise.all([giveBack(), giveBackAddress?.()]).catch((error: unknown) => ctx.deps.log.warn({ err: error }, 'model turn not given back'));
    },
  };
  const taken = takenBy.get(ctx);
  if (taken) taken.push(turn);
  else takenBy.set(ctx, [turn]);
}

// Each registration (RATE_LIMIT_REGISTER_PER_HOUR an hour from one address) would otherwise bring
// a day's budget of its own: new accounts, guests and the demo share one budget per client address
// (/64 for IPv6), an unknown phone caller's number, as one visitor. An account older than a day has
// shown it is not one of a batch, and an operator's trusted addresses (an office's NAT) are left
// alone.
const accountSettledMs = 24 * 3600_000;

function takesAddressBudget(ctx: Quota): boolean {
  if (isTrustedAddress(ctx.deps.config.trustedAddresses, ctx.clientIp)) return false;
  if (ctx.user.isDemo || ctx.user.isGuest) return true;
  const created = ctx.user.createdAt instanceof Date ? ctx.user.createdAt.getTime() : Number.NaN;
  // An account whose age is not known is counted as a new one.
  return !(Date.now() - created >= accountSettledMs);
}

/** An unknown phone caller's day of model turns, keyed by their number (MODEL_DAILY_QUOTA_PER_ADDRESS). */
export async function takeUnknownCallerTurn(deps: Pick<AppDeps, 'log' | 'rateLimits'>, budgetKey: string): Promise<ModelTurn> {
  const giveBack = await deps.rateLimits.modelDailyPerAddress.take(budgetKey);
  return { refund: () => giveBack().catch((error: unknown) => deps.log.warn({ err: error }, 'model turn not given back')) };
}

/** The model turn this context took in consumeChatMessage (call right after it; first taken, first handed over). */
export function takeModelTurn(ctx: Quota): ModelTurn {
  return takenBy.get(ctx)?.shift() ?? noTurn;
}
