import type { AuthedContext } from '../../trpc/context.js';
import { findOwnedChat } from './ownedChat.js';

export async function deleteChat(ctx: AuthedContext, input: { chatId: number }) {
  const chat = await findOwnedChat(ctx.em, ctx.user.id, input.chatId);
  // A reply still streaming into this chat is stopped first; its messages go with the chat.
  ctx.deps.replies.stop(chat.id);
  await ctx.em.remove(chat).flush();
  ctx.deps.chatBus.publish(input.chatId, { type: 'chat.deleted', chatId: input.chatId });
  return { success: true as const };
}
