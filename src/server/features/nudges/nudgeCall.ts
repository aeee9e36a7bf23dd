import type { EntityManager } from '@mikro-orm/core';
import { nudgesTexts } from '../../../shared/texts/nudges.js';
import type { AppDeps } from '../../deps.js';
import { ChatCallRefused, placeChatCall } from '../telephony/chatCall.js';

// The nudges' `call` channel (issue 35): the coach calls the user's verified number about the
// nudge's chat (a weekly review, a meeting brief) and holds it as a conversation: the call is bound
// to the chat (telephony/chatCall.ts) and each spoken turn goes into it through the one
// spoken-turn engine. Placing the call is this run's last step; a call not placed fails the run
// with the reason (the chat, the email and the push stay delivered), and is not retried: a second
// ring minutes later would be the nudge at a time nobody chose.

/** Null when the call was placed; else the run's reason. */
export async function callNudge(deps: AppDeps, em: EntityManager, userId: number, chatId: number): Promise<string | null> {
  try {
    await placeChatCall(deps, em, userId, chatId);
    return null;
  } catch (error) {
    if (error instanceof ChatCallRefused) return nudgesTexts.reasonCallFailed(error.message);
    throw error;
  }
}
