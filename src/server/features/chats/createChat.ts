import type { z } from 'zod';
import type { createChatSchema } from '../../../shared/schemas/chats.js';
import { Chat, defaultChatTitle } from '../../db/entities/Chat.js';
import type { AuthedContext } from '../../trpc/context.js';

export async function createChat(ctx: AuthedContext, input: z.output<typeof createChatSchema>) {
  const chat = ctx.em.create(Chat, { owner: ctx.user, title: input.title ?? defaultChatTitle, isPinned: false });
  await ctx.em.flush();
  return chat.toDto();
}
