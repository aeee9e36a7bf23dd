import { Chat } from '../../db/entities/Chat.js';
import type { AuthedContext } from '../../trpc/context.js';

export async function listChats(ctx: AuthedContext) {
  const chats = await ctx.em.find(
    Chat,
    { owner: ctx.user.id },
    { orderBy: { isPinned: 'desc', updatedAt: 'desc', id: 'desc' }, limit: 500 },
  );
  return chats.map((chat) => chat.toDto());
}
