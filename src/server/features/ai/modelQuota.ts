import { TRPCError } from '@trpc/server';
import { chatTexts } from '../../../shared/texts/index.js';
import type { User } from '../../db/entities/User.js';
import type { AppDeps } from '../../deps.js';

// The per-user daily budget of model turns (MODEL_DAILY_QUOTA, 0 = no limit). Every path that
// calls the model takes a turn here first: a chat message (REST, tRPC and /ws all go through
// sendMessage), and the OpenAI-compatible endpoint and voice turns (modelProcedure). Days are UTC
// days. The count lives in the running instance (unlike the per-minute limits): with several
// instances each one grants the quota.

type Ledger = Map<string, number>;
const ledgers = new WeakMap<AppDeps, { day: string; used: Ledger }>();

const utcDay = (now: Date) => now.toISOString().slice(0, 10);

export type ModelTurn = { refund: () => void };

export function takeModelTurn(ctx: { deps: AppDeps; user: User; clientIp: string }, now = new Date()): ModelTurn {
  const limit = ctx.deps.config.modelDailyQuota;
  if (!limit) return { refund: () => {} };
  const day = utcDay(now);
  let ledger = ledgers.get(ctx.deps);
  if (!ledger || ledger.day !== day) {
    ledger = { day, used: new Map() };
    ledgers.set(ctx.deps, ledger);
  }
  // Every visitor in demo mode is the same demo user: count them by address instead.
  const key = ctx.user.isDemo ? `demo:${ctx.clientIp}` : `user:${ctx.user.id}`;
  const used = ledger.used.get(key) ?? 0;
  if (used >= limit) throw new TRPCError({ code: 'TOO_MANY_REQUESTS', message: chatTexts.dailyQuotaSpent(limit) });
  ledger.used.set(key, used + 1);
  const taken = ledger;
  let refunded = false;
  return {
    // A turn whose request failed before the model was called is given back.
    refund: () => {
      if (refunded) return;
      refunded = true;
      taken.used.set(key, Math.max(0, (taken.used.get(key) ?? 1) - 1));
    },
  };
}
