import { TRPCError } from '@trpc/server';
import type { Audience, GeneratedEmail } from '../../../shared/schemas/writingStyle.js';
import { writingStyleTexts } from '../../../shared/texts/index.js';
import { ProviderError, type ChatTurn } from '../../providers/ai/contract.js';
import { assembleEmailWriterContext } from '../coach/index.js';
import { coachUserOf } from '../coach/index.js';
import { streamModel } from '../coach/index.js';
import { loadCoachKnowledgeBase } from '../knowledgeBase/index.js';
import { writeOffline } from './offlineWriter.js';
import type { WritingStyleContext } from './readSentMail.js';
import { readWritingStyle } from './writingStyleStore.js';
import { modelRegionOf } from '../../db/organisationPolicy.js';

/** The panel's 'Generate Email Template': the model writes it, or the offline writer says it did. */
export async function generateEmail(ctx: WritingStyleContext, input: { topic: string; audience: Audience }): Promise<GeneratedEmail> {
  const style = await readWritingStyle(ctx.em, ctx.user.id);
  if (!style) throw new TRPCError({ code: 'PRECONDITION_FAILED', message: writingStyleTexts.analyzeFirst });
  const user = coachUserOf(ctx.user);
  const { coach } = ctx.deps;
  if (coach.kind !== 'openai') return { email: writeOffline(style, input, user), writer: 'offline' };
  let email = '';
  try {
    // The writer knows the user, the style read above and the knowledge base (only while it is switched on).
    const knowledgeBase = await loadCoachKnowledgeBase(ctx.em, ctx.user.id);
    const context = assembleEmailWriterContext({ user, audience: input.audience, facts: { writingStyle: style, knowledgeBase } });
    const request: ChatTurn = { role: 'user', content: `Write an email about: ${input.topic}` };
    for await (const delta of streamModel(coach, { context, messages: [request], user, maxTokens: 700, temperature: 0.4, path: 'writing_style', region: await modelRegionOf(ctx.em, ctx.user.id) }, ctx.deps.config.modelStallTimeoutMs)) {
      email += delta;
    }
  } catch (cause) {
    if (cause instanceof ProviderError) {
      ctx.deps.log.warn({ err: cause }, 'email generation failed');
      throw new TRPCError({ code: 'BAD_GATEWAY', message: writingStyleTexts.generationFailedBody, cause });
    }
    throw cause;
  }
  if (!email.trim()) throw new TRPCError({ code: 'BAD_GATEWAY', message: writingStyleTexts.generationFailedBody });
  return { email: email.trim(), writer: 'model' };
}
