import { TRPCError } from '@trpc/server';
import type { Audience, GeneratedEmail, WritingStyle } from '../../../shared/schemas/writingStyle.js';
import { writingStyleTexts } from '../../../shared/texts/index.js';
import { ProviderError, type ChatTurn, type CoachUser } from '../../providers/ai/types.js';
import { coachUserOf } from '../coach/coachUser.js';
import { knowledgeBaseTurns, loadCoachKnowledgeBase, type CoachKnowledgeBase } from '../coach/knowledgeBaseContext.js';
import { writeOffline } from './offlineWriter.js';
import type { WritingStyleContext } from './readSentMail.js';
import { readWritingStyle } from './writingStyleStore.js';

/** The style as the model reads it: one fact per line, fallbacks left out. */
export function describeStyleForModel(style: Pick<WritingStyle, 'tone' | 'greeting' | 'signOff' | 'commonPhrases' | 'structure' | 'length'>): string {
  const lines: string[] = [];
  if (style.tone) lines.push(`Tone: ${style.tone}`);
  if (style.greeting) lines.push(`Greeting: ${style.greeting} (replace [Name] with the recipient's name)`);
  if (style.signOff) lines.push(`Sign-off: ${style.signOff}`);
  if (style.commonPhrases.length) lines.push(`Phrases they often use: ${style.commonPhrases.slice(0, 5).map((p) => `"${p}"`).join(', ')}`);
  if (style.structure) lines.push(`Structure: ${style.structure}`);
  if (style.length) lines.push(`Typical length: ${style.length}`);
  return lines.join('\n');
}

function userFacts(user: CoachUser): string {
  return [`Name: ${user.fullName}`, user.jobTitle ? `Job title: ${user.jobTitle}` : '', user.company ? `Company: ${user.company}` : '']
    .filter(Boolean)
    .join('\n');
}

export function generationPrompt(
  style: WritingStyle,
  user: CoachUser,
  audience: Audience,
  topic: string,
  knowledgeBase: CoachKnowledgeBase | null = null,
): ChatTurn[] {
  return [
    {
      role: 'system',
      content: [
        'You write emails for the user in their own writing style, learned from their sent mail.',
        `Their writing style:\n${describeStyleForModel(style)}`,
        `The user:\n${userFacts(user)}`,
        `Audience: ${audience === 'internal' ? 'internal (colleagues in their organisation)' : 'external (clients, partners or suppliers outside their organisation)'}.`,
        'Write one complete email: a "Subject:" line, then the greeting, body and sign-off in their style, signed with their first name. ' +
          'Use placeholders in square brackets for facts you do not know. Answer with the email only.',
      ].join('\n\n'),
    },
    // The knowledge base (team, stakeholders, tone, signature) only while the user switched it on.
    ...knowledgeBaseTurns(knowledgeBase),
    { role: 'user', content: `Write an email about: ${topic}` },
  ];
}

/** The panel's 'Generate Email Template': the model writes it, or the offline writer says it did. */
export async function generateEmail(ctx: WritingStyleContext, input: { topic: string; audience: Audience }): Promise<GeneratedEmail> {
  const style = await readWritingStyle(ctx.em, ctx.user.id);
  if (!style) throw new TRPCError({ code: 'PRECONDITION_FAILED', message: writingStyleTexts.analyzeFirst });
  const user = coachUserOf(ctx.user);
  const { coach } = ctx.deps;
  if (coach.kind !== 'openai') return { email: writeOffline(style, input, user), writer: 'offline' };
  let email = '';
  try {
    const knowledgeBase = await loadCoachKnowledgeBase(ctx.em, ctx.user.id);
    const messages = generationPrompt(style, user, input.audience, input.topic, knowledgeBase);
    for await (const delta of coach.stream({ messages, user, maxTokens: 700, temperature: 0.4 })) {
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
