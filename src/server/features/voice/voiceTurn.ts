import { TRPCError } from '@trpc/server';
import type { z } from 'zod';
import type { voiceTurnSchema } from '../../../shared/schemas/voice.js';
import { voiceTexts } from '../../../shared/texts/index.js';
import { Chat } from '../../db/entities/Chat.js';
import { Message } from '../../db/entities/Message.js';
import { ProviderError, type ChatTurn } from '../../providers/ai/types.js';
import type { AuthedContext } from '../../trpc/context.js';
import { findOwnedChat } from '../chats/ownedChat.js';
import { buildCoachContext, voiceReplyRule } from '../coach/coachContext.js';
import { loadCoachFacts } from '../coach/coachFacts.js';
import { coachUserOf } from '../coach/coachUser.js';
import { newChatIsTemporary } from '../privacy/temporaryChats.js';

/** Turns of the call's chat the coach hears again with each new turn. */
const historyTurns = 20;

// One turn of a browser voice call: the coach answers what the user said in 2 to 3 sentences,
// with the chat's context, and both turns are saved in the call's chat (created by the first).
export async function voiceTurn(ctx: AuthedContext, input: z.output<typeof voiceTurnSchema>, signal?: AbortSignal) {
  const chat = input.chatId === null ? null : await findOwnedChat(ctx.em, ctx.user.id, input.chatId);
  const earlier = chat
    ? (await ctx.em.find(Message, { chat: chat.id, status: { $ne: 'streaming' } }, { orderBy: { id: 'desc' }, limit: historyTurns })).reverse()
    : [];
  const history: ChatTurn[] = earlier.filter((m) => m.role !== 'system' && m.content).map((m) => ({ role: m.role, content: m.content }));
  const latest: ChatTurn = { role: 'user', content: input.text };
  const user = coachUserOf(ctx.user);
  const facts = await loadCoachFacts(ctx.deps, ctx.em, ctx.user.id);
  const context = await buildCoachContext({ user, history: [...history, latest], latestUserMessage: input.text, ...facts });

  let reply = '';
  try {
    for await (const delta of ctx.deps.coach.stream({ messages: [...context, voiceReplyRule, ...history, latest], user, signal, path: 'voice' })) reply += delta;
  } catch (error) {
    if (error instanceof ProviderError) throw new TRPCError({ code: 'BAD_GATEWAY', message: voiceTexts.aiError, cause: error });
    throw error;
  }
  reply = reply.trim();
  if (!reply) throw new TRPCError({ code: 'BAD_GATEWAY', message: voiceTexts.aiError });

  // A call's chat follows the user's storeChatHistory like any new chat.
  const isTemporary = chat === null && (await newChatIsTemporary(ctx.em, ctx.user.id));
  const saved = await ctx.em.transactional(async (em) => {
    const owned = chat ? em.merge(chat) : em.create(Chat, { owner: ctx.user.id, title: voiceTexts.chatTitle(callStamp()), isPinned: false, isTemporary });
    owned.updatedAt = new Date();
    const userMessage = em.create(Message, { chat: owned, role: 'user', content: input.text, status: 'complete' });
    const coachMessage = em.create(Message, { chat: owned, role: 'assistant', content: reply, status: 'complete' });
    await em.flush();
    return { chat: owned, userMessage, coachMessage };
  });
  const { chatBus } = ctx.deps;
  chatBus.publish(saved.chat.id, { type: 'message.created', message: saved.userMessage.toDto() });
  chatBus.publish(saved.chat.id, { type: 'message.created', message: saved.coachMessage.toDto() });
  return { chatId: saved.chat.id, reply };
}

function callStamp(): string {
  return new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
}
