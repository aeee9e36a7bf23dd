import type { EntityManager } from '@mikro-orm/core';
import { nudgesTexts } from '../../../shared/texts/nudges.js';
import { NudgeRun } from '../../db/entities/Nudge.js';
import type { AppDeps } from '../../deps.js';
import { ChatCallRefused, chatOfCallQuery, placeChatCall } from '../telephony/index.js';
import { webhookPaths } from '../telephony/index.js';

// The nudges' `call` channel: the coach calls the user's verified number about the
// nudge's chat (a weekly review, a meeting brief) and holds it as a conversation: the call is bound
// to the chat (telephony/chatCall.ts) and each spoken turn goes into it through the one
// spoken-turn engine. Placing the call is this run's last step; a call not placed fails the run
// with the reason (the chat, the email and the push stay delivered), and is not retried: a second
// ring minutes later would be the nudge at a time nobody chose. A call placed but not answered
// (busy, no answer, failed, canceled: Twilio's status callback when the call ends) fails it too.

/** Null when the call was placed; else the run's reason. */
export async function callNudge(deps: Pick<AppDeps, 'config' | 'sessionPassword' | 'rateLimits' | 'providers' | 'log'>, em: EntityManager, userId: number, chatId: number): Promise<string | null> {
  try {
    await placeChatCall(deps, em, userId, chatId, { statusPath: webhookPaths.nudgeCallStatus });
    return null;
  } catch (error) {
    if (error instanceof ChatCallRefused) return nudgesTexts.reasonCallFailed(error.message);
    throw error;
  }
}

const notAnswered = new Set(['busy', 'no-answer', 'failed', 'canceled']);

/**
 * Twilio's status callback of a nudge's call (signed, its URL bound to the user and the chat like
 * the call's own): a call that ended unanswered marks its sent run failed, with why.
 */
export async function nudgeCallStatus(ctx: { deps: Pick<AppDeps, 'sessionPassword'>; em: EntityManager }, query: Record<string, string>, params: Record<string, string>): Promise<null> {
  const chatId = chatOfCallQuery(ctx.deps, query);
  const status = params.CallStatus ?? '';
  if (typeof chatId !== 'number' || !notAnswered.has(status)) return null;
  const run = await ctx.em.findOne(NudgeRun, { owner: Number(query.user), chat: chatId, status: 'sent' }, { orderBy: { id: 'desc' } });
  if (!run?.channels.includes('call')) return null;
  run.status = 'failed';
  run.channels = run.channels.filter((channel) => channel !== 'call');
  run.reason = nudgesTexts.reasonCallNotAnswered(status);
  await ctx.em.flush();
  return null;
}
