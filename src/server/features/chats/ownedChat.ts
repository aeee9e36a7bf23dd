import { TRPCError } from '@trpc/server';
import type { EntityManager } from '@mikro-orm/core';
import { chatTexts } from '../../../shared/texts/index.js';
import { Chat } from '../../db/entities/Chat.js';

// Every chat is read through its owner: another user's chat id is simply not found (no leak of
// whether it exists).
export async function findOwnedChat(em: EntityManager, userId: number, chatId: number): Promise<Chat> {
  const chat = await em.findOne(Chat, { id: chatId, owner: userId });
  if (!chat) throw new TRPCError({ code: 'NOT_FOUND', message: chatTexts.chatNotFound });
  return chat;
}
