import { LockMode } from '@mikro-orm/core';
import { TRPCError } from '@trpc/server';
import type { SendMessageInput } from '../../../shared/schemas/chats.js';
import { autoChatTitle, chatTexts } from '../../../shared/texts/index.js';
import { Chat, defaultChatTitle } from '../../db/entities/Chat.js';
import { Message } from '../../db/entities/Message.js';
import { takeModelTurn } from '../ai/index.js';
import type { AuthedContext } from '../../trpc/context.js';
import { recordCheckInsFromMessage } from '../goals/index.js';
import { consumeChatMessage } from '../limits/index.js';
import { factSourcesOf } from '../../trpc/factSources.js';
import { closeAnsweredCommitment, rememberExplicitly } from '../memories/index.js';

// Architecture rule 8: the user's message is committed before the model is called. The coach's reply
// starts as an empty 'streaming' message and is written by the reply runner as it completes.
export async function sendMessage(ctx: AuthedContext, input: SendMessageInput) {
  const { chatBus, replies } = ctx.deps;
  await consumeChatMessage(ctx);
  const turn = takeModelTurn(ctx);
  const { chat, userMessage, reply, renamed } = await ctx.em.transactional(async (em) => {
    // The row lock makes two sends into one chat take turns, so only one reply runs at a time.
    const chat = await em.findOne(Chat, { id: input.chatId, owner: ctx.user.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!chat) throw new TRPCError({ code: 'NOT_FOUND', message: chatTexts.chatNotFound });
    if (await em.count(Message, { chat: chat.id, status: 'streaming' })) {
      throw new TRPCError({ code: 'CONFLICT', message: chatTexts.replyRunning });
    }
    const renamed = chat.title === defaultChatTitle && !(await em.count(Message, { chat: chat.id, role: 'user' }));
    if (renamed) chat.title = autoChatTitle(input.content);
    chat.updatedAt = new Date();
    const userMessage = em.create(Message, { chat, role: 'user', content: input.content, status: 'complete' });
    const reply = em.create(Message, { chat, role: 'assistant', content: '', status: 'streaming' });
    await em.flush();
    return { chat, userMessage, reply, renamed };
  }).catch((error: unknown) => {
    turn.refund();
    throw error;
  });

  // 'We are at 3 deploys a day now' in a chat about a goal is a check-in, logged before the coach
  // answers (so its context has it). A failure here never costs the user their message.
  await recordCheckInsFromMessage(ctx.em, ctx.user.id, chat.id, input.content).catch((error: unknown) => {
    ctx.deps.log.warn({ err: error }, 'check-in from chat not recorded');
  });
  // 'Remember that …' is stored now, as written, before the coach answers (so its reply can say
  // so); an answer to 'how did it go?' can close that commitment.
  await rememberExplicitly(ctx.em, ctx.user.id, chat, input.content, reply.id).catch((error: unknown) => {
    ctx.deps.log.warn({ err: error }, 'memory from chat not stored');
  });
  await closeAnsweredCommitment(ctx.em, ctx.user.id, chat.id, input.content).catch((error: unknown) => {
    ctx.deps.log.warn({ err: error }, 'commitment answer not recorded');
  });

  const chatDto = chat.toDto();
  chatBus.publish(chat.id, { type: 'message.created', message: userMessage.toDto() });
  const replyDto = reply.toDto();
  chatBus.publish(chat.id, { type: 'message.created', message: replyDto });
  if (renamed) chatBus.publish(chat.id, { type: 'chat.updated', chat: chatDto });

  replies.start({ reply: replyDto, user: ctx.user, sources: factSourcesOf(ctx.session) });
  return { chat: chatDto, userMessage: userMessage.toDto(), reply: replyDto };
}
