import type { z } from 'zod';
import type { messagesPageSchema } from '../../../shared/schemas/chats.js';
import { Message } from '../../db/entities/Message.js';
import type { AuthedContext } from '../../trpc/context.js';
import { findOwnedChat } from './ownedChat.js';

// Newest first, a page at a time; each page is returned oldest-to-newest for display.
export async function listMessages(ctx: AuthedContext, input: z.output<typeof messagesPageSchema>) {
  const chat = await findOwnedChat(ctx.em, ctx.user.id, input.chatId);
  const rows = await ctx.em.find(
    Message,
    { chat: chat.id, ...(input.cursor ? { id: { $lt: input.cursor } } : {}) },
    { orderBy: { id: 'desc' }, limit: input.limit + 1 },
  );
  const hasMore = rows.length > input.limit;
  const page = rows.slice(0, input.limit).reverse();
  return {
    items: page.map((message) => message.toDto()),
    nextCursor: hasMore && page.length ? page[0]!.id : null,
  };
}
