import { TRPCError } from '@trpc/server';
import { chatTexts } from '../../../shared/texts/index.js';
import { Message } from '../../db/entities/Message.js';
import type { AuthedContext } from '../../trpc/context.js';
import { findOwnedChat } from './ownedChat.js';

// Stops the reply streaming into a chat, wherever it runs; the partial text is kept.
export async function stopReply(ctx: AuthedContext, input: { chatId: number }) {
  const chat = await findOwnedChat(ctx.em, ctx.user.id, input.chatId);
  const streaming = await ctx.em.findOne(Message, { chat: chat.id, status: 'streaming' }, { orderBy: { id: 'desc' } });
  if (!streaming) throw new TRPCError({ code: 'CONFLICT', message: chatTexts.noReplyRunning });
  if (!ctx.deps.replies.stop(chat.id)) {
    // Running on another instance: ask it through the bus.
    ctx.deps.chatBus.publish(chat.id, { type: 'stop', chatId: chat.id, messageId: streaming.id });
  }
  return { success: true as const, messageId: streaming.id };
}
