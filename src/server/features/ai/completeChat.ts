import { TRPCError } from '@trpc/server';
import type { AiCompletionRequest } from '../../../shared/schemas/ai.js';
import { chatTexts } from '../../../shared/texts/index.js';
import type { User } from '../../db/entities/User.js';
import type { AppDeps } from '../../deps.js';
import { ProviderError, type ChatTurn, type TokenUsage } from '../../providers/ai/contract.js';
import { previousReply } from '../coach/index.js';
import { coachUserOf } from '../coach/index.js';
import { regional, streamModel } from '../coach/index.js';
import { defaultSafetyLine, loadUserCountry } from '../coach/index.js';
import { modelRegionOf } from '../../db/organisationPolicy.js';

// The OpenAI-compatible completion: the client's messages go to the configured coach model,
// whatever model the client named. Used by the spec's client for chat, email templates and voice.
// The client's latest message passes the same safety line as every coach turn first: a crisis is
// answered by the app alone, a referral comes before the model's reply.

export type AiContext = { deps: Pick<AppDeps, 'coach' | 'config' | 'log' | 'orm' | 'rateLimits' | 'safety'>; user: User };

export type ChatStream = {
  model: string;
  deltas: AsyncIterable<string>;
  /**
   * The tokens of the request and the reply, once `deltas` has ended: the provider's own figures
   * when it reported them, otherwise counted here (gpt-tokenizer's o200k encoding, which the
   * offline coach and servers that report nothing are measured with).
   */
  usage(): TokenUsage;
};

/** The reply as text deltas, in order; a provider failure becomes BAD_GATEWAY with the spec's text. */
export function streamChat(ctx: AiContext, input: AiCompletionRequest, signal?: AbortSignal): ChatStream {
  const { coach } = ctx.deps;
  // The region of the caller's organisation, read once the model is asked.
  const region = modelRegionOf(ctx.deps.orm.em.fork(), ctx.user.id);
  const maxTokens = input.max_completion_tokens ?? input.max_tokens ?? undefined;
  let reported: TokenUsage | undefined;
  let reply = '';
  const latest = input.messages.findLast((turn) => turn.role === 'user')?.content ?? '';
  const { deltas } = (ctx.deps.safety ?? defaultSafetyLine).reply(
    { latest, previous: previousReply(input.messages), role: 'coach', spoken: false, country: () => loadUserCountry(ctx.deps.orm.em.fork(), ctx.user.id), modelKind: coach.kind },
    (safety) =>
      streamModel(regional(coach, region), {
        path: 'api',
        messages: input.messages,
        user: coachUserOf(ctx.user),
        signal,
        maxTokens,
        temperature: input.temperature ?? undefined,
        ...(safety ? { safety } : {}),
        onUsage: (usage) => {
          reported = usage;
        },
      }, ctx.deps.config.modelStallTimeoutMs),
  );
  if (!tokenizer) void loadTokenizer().catch(() => {}); // loading while the model answers
  async function* collected() {
    for await (const delta of withPublicErrors(deltas)) {
      reply += delta;
      yield delta;
    }
    // usage() is synchronous: the tokenizer is there before the last delta is told to be the last.
    if (!reported) await loadTokenizer();
  }
  return {
    model: coach.model,
    deltas: collected(),
    usage: () => reported ?? countUsage(input.messages, reply),
  };
}

/** The whole reply at once. */
export async function completeChat(ctx: AiContext, input: AiCompletionRequest, signal?: AbortSignal): Promise<{ model: string; content: string; usage: TokenUsage }> {
  const { model, deltas, usage } = streamChat(ctx, input, signal);
  let content = '';
  for await (const delta of deltas) content += delta;
  return { model, content, usage: usage() };
}

// gpt-tokenizer builds its o200k table when it is imported: about half a second to a second, the
// largest single module of the server's start (bench/results/start.md). It is loaded
// on the first reply that needs counting, while the model answers, not at start.
type Tokenizer = typeof import('gpt-tokenizer');
let tokenizer: Tokenizer | undefined;
let tokenizerLoading: Promise<Tokenizer> | undefined;
function loadTokenizer(): Promise<Tokenizer> {
  tokenizerLoading ??= import('gpt-tokenizer').then(
    (loaded) => (tokenizer = loaded),
    (error: unknown) => {
      tokenizerLoading = undefined; // tried again on the next reply
      throw error;
    },
  );
  return tokenizerLoading;
}

function countUsage(messages: ChatTurn[], reply: string): TokenUsage {
  if (!tokenizer) throw new Error('The token counter is not loaded yet: usage() is known once the reply has ended.');
  // Chat formatting counted as gpt-4o counts it (o200k, with the per-message overhead).
  return { promptTokens: tokenizer.encodeChat(messages, 'gpt-4o').length, completionTokens: tokenizer.countTokens(reply) };
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
