import type { EntityManager } from '@mikro-orm/core';
import { User } from '../../db/entities/User.js';
import type { AppDeps } from '../../deps.js';
import { weeklyReviewPrompt } from '../../providers/ai/weeklyReviewPrompt.js';
import { streamModel } from '../coach/index.js';
import { renderWeeklyReview, reviewShape, shapeReview, type WeeklyReviewFacts } from './nudgeContent.js';
import { modelRegionOf } from '../../db/organisationPolicy.js';

// Who writes the weekly review. With a model configured, the coach model writes it from the typed
// facts, and its answer is held to the template's shape (shapeReview: the focus first, at most 8
// lines, one question last) or set aside. The offline template writes it otherwise: no model, a
// guest or the demo, the day's model turns spent (the call takes one of MODEL_DAILY_QUOTA like
// every model call of the user's), the model failing or answering out of shape.

const timeoutMs = 30_000;

export type WrittenReview = { content: string; writer: 'model' | 'template' };

export async function writeWeeklyReview(deps: Pick<AppDeps, 'coach' | 'rateLimits' | 'log' | 'config'>, em: EntityManager, userId: number, facts: WeeklyReviewFacts): Promise<WrittenReview> {
  const template: WrittenReview = { content: renderWeeklyReview(facts), writer: 'template' };
  if (deps.coach.kind !== 'openai') return template;
  const user = await em.findOne(User, userId, { fields: ['isGuest', 'isDemo'] });
  if (!user || user.isGuest || user.isDemo) return template;
  let giveBack: () => Promise<void>;
  try {
    giveBack = await deps.rateLimits.modelDaily.take(`user:${userId}`);
  } catch {
    deps.log.debug({ userId }, 'the day’s model turns are spent: the weekly review from the template');
    return template;
  }
  let text = '';
  try {
    const request = { messages: weeklyReviewPrompt(facts, reviewShape), maxTokens: 500, temperature: 0.3, path: 'nudge' as const, region: await modelRegionOf(em, userId), signal: AbortSignal.timeout(timeoutMs) };
    for await (const delta of streamModel(deps.coach, request, deps.config.modelStallTimeoutMs)) {
      text += delta;
    }
  } catch (error) {
    deps.log.warn({ err: error, userId }, 'the model could not write the weekly review: the template instead');
    await giveBack().catch(() => {});
    return template;
  }
  const shaped = shapeReview(text, facts);
  if (!shaped) {
    deps.log.warn({ userId }, 'the model’s weekly review was out of shape: the template instead');
    return template;
  }
  return { content: shaped, writer: 'model' };
}
