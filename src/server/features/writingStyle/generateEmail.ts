import { TRPCError } from '@trpc/server';
import type { Audience, GeneratedEmail, WritingStyle } from '../../../shared/schemas/writingStyle.js';
import { writingStyleTexts } from '../../../shared/texts/index.js';
import { ProviderError, type ChatTurn, type CoachUser } from '../../providers/ai/types.js';
import { buildCoachContext, knowledgeBaseContext, type ContextContributor } from '../coach/coachContext.js';
import { loadCoachFacts, type CoachFacts } from '../coach/coachFacts.js';
import { coachUserOf } from '../coach/coachUser.js';
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

/** The email writer's role: the user's style, who they are, and who the email is for. */
export function emailWriterRole(audience: Audience): ContextContributor {
  return ({ user, writingStyle }) => [
    {
      role: 'system',
      content: [
        'You write emails for the user in their own writing style, learned from their sent mail.',
        writingStyle ? `Their writing style:\n${describeStyleForModel(writingStyle)}` : '',
        `The user:\n${userFacts(user)}`,
        `Audience: ${audience === 'internal' ? 'internal (colleagues in their organisation)' : 'external (clients, partners or suppliers outside their organisation)'}.`,
        'Write one complete email: a "Subject:" line, then the greeting, body and sign-off in their style, signed with their first name. ' +
          'Use placeholders in square brackets for facts you do not know. Answer with the email only.',
      ]
        .filter(Boolean)
        .join('\n\n'),
    },
  ];
}

/**
 * Email generation's contributors to the one context assembly (buildCoachContext): the writer's
 * role instead of the coach's, then the knowledge base (only while the user switched it on).
 */
export function emailGenerationContributors(audience: Audience): readonly ContextContributor[] {
  return [emailWriterRole(audience), knowledgeBaseContext];
}

/** The messages that ask the model for one email: the assembled context, then the request. */
export async function generationPrompt(input: { user: CoachUser; audience: Audience; topic: string; facts: CoachFacts }): Promise<ChatTurn[]> {
  const request: ChatTurn = { role: 'user', content: `Write an email about: ${input.topic}` };
  const context = await buildCoachContext(
    { user: input.user, history: [request], latestUserMessage: request.content, ...input.facts },
    emailGenerationContributors(input.audience),
  );
  return [...context, request];
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
    // What the coach may know of the user comes from the one loader; the profile read above is the style written in.
    const facts = { ...(await loadCoachFacts(ctx.deps, ctx.em, ctx.user.id)), writingStyle: style };
    const messages = await generationPrompt({ user, audience: input.audience, topic: input.topic, facts });
    for await (const delta of coach.stream({ messages, user, maxTokens: 700, temperature: 0.4, path: 'writing_style' })) {
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
