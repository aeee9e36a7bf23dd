import { TRPCError } from '@trpc/server';
import type { AiCompletionRequest } from '../../../shared/schemas/ai.js';
import { chatTexts } from '../../../shared/texts/index.js';
import type { User } from '../../db/entities/User.js';
import type { AppDeps } from '../../deps.js';
import { ProviderError } from '../../providers/ai/types.js';
import { coachUserOf } from '../coach/coachUser.js';

// The OpenAI-compatible completion: the client's messages go to the configured coach model,
// whatever model the client named. Used by the spec's client for chat, email templates and voice.

export type AiContext = { deps: AppDeps; user: User };

export type ChatStream = { model: string; deltas: AsyncIterable<string> };

/** The reply as text deltas, in order; a provider failure becomes BAD_GATEWAY with the spec's text. */
export function streamChat(ctx: AiContext, input: AiCompletionRequest, signal?: AbortSignal): ChatStream {
  const { coach } = ctx.deps;
  const maxTokens = input.max_completion_tokens ?? input.max_tokens ?? undefined;
  const deltas = coach.stream({
    messages: input.messages,
    user: coachUserOf(ctx.user),
    signal,
    maxTokens,
    temperature: input.temperature ?? undefined,
  });
  return { model: coach.model, deltas: withPublicErrors(deltas) };
}

/** The whole reply at once. */
export async function completeChat(ctx: AiContext, input: AiCompletionRequest, signal?: AbortSignal): Promise<{ model: string; content: string }> {
  const { model, deltas } = streamChat(ctx, input, signal);
  let content = '';
  for await (const delta of deltas) content += delta;
  return { model, content };
}

async function* withPublicErrors(deltas: AsyncIterable<string>): AsyncIterable<string> {
  try {
    yield* deltas;
  } catch (error) {
    if (error instanceof ProviderError) {
      throw new TRPCError({ code: 'BAD_GATEWAY', message: chatTexts.replyFailed, cause: error });
    }
    throw error;
  }
}
