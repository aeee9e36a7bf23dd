import type { UpdateChatInput } from '../../../shared/schemas/chats.js';
import type { AuthedContext } from '../../trpc/context.js';
import { findOwnedChat } from './ownedChat.js';

export async function updateChat(ctx: AuthedContext, input: UpdateChatInput) {
  const chat = await findOwnedChat(ctx.em, ctx.user.id, input.chatId);
  if (input.title !== undefined) chat.title = input.title;
  if (input.isPinned !== undefined) chat.isPinned = input.isPinned;
  await ctx.em.flush();
  const dto = chat.toDto();
  ctx.deps.chatBus.publish(chat.id, { type: 'chat.updated', chat: dto });
  return dto;
}
