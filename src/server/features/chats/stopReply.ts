import { TRPCError } from '@trpc/server';
import { chatTexts } from '../../../shared/texts/index.js';
import { Message } from '../../db/entities/Message.js';
import type { AuthedContext } from '../../trpc/context.js';
import { settleOrphanedReplies } from './orphanedReplies.js';
import { findOwnedChat } from './ownedChat.js';

// Stops the reply streaming into a chat, wherever it runs; the partial text is kept.
export async function stopReply(ctx: AuthedContext, input: { chatId: number }) {
  const chat = await findOwnedChat(ctx.em, ctx.user.id, input.chatId);
  const streaming = await ctx.em.findOne(Message, { chat: chat.id, status: 'streaming' }, { orderBy: { id: 'desc' } });
  if (!streaming) throw new TRPCError({ code: 'CONFLICT', message: chatTexts.noReplyRunning });
  if (!ctx.deps.replies.stop(chat.id)) {
    // Orphaned (its instance died): no one would act on a stop, so it is settled here.
    const settled = await settleOrphanedReplies(ctx.em, ctx.deps.chatBus, { chatId: chat.id });
    // Running on another instance: ask it through the bus.
    if (!settled.length) ctx.deps.chatBus.publish(chat.id, { type: 'stop', chatId: chat.id, messageId: streaming.id });
  }
  return { success: true as const, messageId: streaming.id };
}
