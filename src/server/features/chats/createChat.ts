import { TRPCError } from '@trpc/server';
import type { z } from 'zod';
import { limitTexts } from '../../../shared/texts/limits.js';
import { lockOwner } from '../../db/ownerLock.js';
import { accountBounds } from '../limits/index.js';
import type { createChatSchema } from '../../../shared/schemas/chats.js';
import { Chat, defaultChatTitle } from '../../db/entities/Chat.js';
import type { AuthedContext } from '../../trpc/context.js';
import { askAboutStaleGoal } from '../goals/index.js';
import { askAboutDueCommitment } from '../memories/index.js';
import { newChatIsTemporary } from '../privacy/index.js';

// With storeChatHistory off (Settings, Privacy) a new chat is temporary: starting another one
// means the user left it, so it is deleted then (the retention job removes the ones left idle).
export async function createChat(ctx: AuthedContext, input: z.output<typeof createChatSchema>) {
  const isTemporary = await newChatIsTemporary(ctx.em, ctx.user.id);
  await ctx.em.nativeDelete(Chat, { owner: ctx.user.id, isTemporary: true });
  // The count and the insert under the owner's row lock: parallel creates cannot pass the bound.
  const chat = await ctx.em.transactional(async (tx) => {
    await lockOwner(tx, ctx.user.id);
    if ((await tx.count(Chat, { owner: ctx.user.id })) >= accountBounds.maxChats) throw new TRPCError({ code: 'CONFLICT', message: limitTexts.tooManyChats(accountBounds.maxChats) });
    const made = tx.create(Chat, { owner: ctx.user.id, title: input.title ?? defaultChatTitle, isPinned: false, isTemporary });
    await tx.flush();
    return made;
  });
  // A goal without a check-in for a week: the coach opens the new chat by asking about it, once.
  await askAboutStaleGoal(ctx.em, ctx.user.id, chat);
  // A commitment past its due date (Memory): asked about once, here.
  await askAboutDueCommitment(ctx.em, ctx.user.id, chat);
  return chat.toDto();
}
