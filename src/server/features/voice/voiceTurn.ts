import { TRPCError } from '@trpc/server';
import type { z } from 'zod';
import type { voiceHeardSchema, voiceTurnSchema, VoiceTurnEvent } from '../../../shared/schemas/voice.js';
import { voiceTexts } from '../../../shared/texts/index.js';
import type { AuthedContext } from '../../trpc/context.js';
import { findOwnedChat } from '../chats/ownedChat.js';
import { recordHeard, runSpokenTurn, takeTurnBudget } from './spokenTurn.js';

// One turn of a browser voice call, through the spoken-turn engine: the budgets are taken first
// (a refusal is a 429 before anything streams), then the reply streams token by token while the
// model writes it, and the turn is saved in the call's chat. Stopping the stream (the caller went
// away) stops the model; the words written so far are kept.
export async function voiceTurn(ctx: AuthedContext, input: z.output<typeof voiceTurnSchema>, signal?: AbortSignal) {
  const chat = input.chatId === null ? null : await findOwnedChat(ctx.em, ctx.user.id, input.chatId);
  const budget = await takeTurnBudget(ctx.deps, { kind: 'user', user: ctx.user, clientIp: ctx.clientIp });
  return { events: turnEvents(ctx, chat, input.text, budget, signal) };
}

async function* turnEvents(ctx: AuthedContext, chat: Awaited<ReturnType<typeof findOwnedChat>> | null, text: string, budget: Awaited<ReturnType<typeof takeTurnBudget>>, signal?: AbortSignal): AsyncGenerator<VoiceTurnEvent> {
  const controller = new AbortController();
  const stop = () => controller.abort();
  signal?.addEventListener('abort', stop);
  const pending: VoiceTurnEvent[] = [];
  let wake: () => void = () => {};
  let finished = false;
  const push = (event: VoiceTurnEvent) => {
    pending.push(event);
    wake();
  };
  const turn = runSpokenTurn(ctx.deps, ctx.em, {
    path: 'voice',
    speaker: { kind: 'user', user: ctx.user, clientIp: ctx.clientIp },
    chat,
    text,
    budget,
    signal: controller.signal,
    onToken: (token) => push({ type: 'token', text: token }),
  })
    .then(
      (result) =>
        push(result.outcome === 'failed' ? { type: 'error', message: voiceTexts.aiError } : { type: 'done', chatId: result.chat?.id ?? null, messageId: result.messageId, reply: result.reply }),
      (error: unknown) => {
        ctx.deps.log.error({ err: error }, 'voice turn failed');
        push({ type: 'error', message: voiceTexts.aiError });
      },
    )
    .finally(() => {
      finished = true;
      wake();
    });
  try {
    for (;;) {
      while (pending.length) yield pending.shift()!;
      if (finished) return;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    signal?.removeEventListener('abort', stop);
    controller.abort();
    await turn;
  }
}

/** The user interrupted the coach: the stored reply becomes the part they heard. */
export async function voiceHeard(ctx: AuthedContext, input: z.output<typeof voiceHeardSchema>) {
  const stored = await recordHeard(ctx.deps, ctx.em, ctx.user.id, input.messageId, input.heard);
  if (!stored) throw new TRPCError({ code: 'BAD_REQUEST', message: voiceTexts.heardNotInReply });
  return { success: true as const };
}
