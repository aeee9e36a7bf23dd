import { TRPCError } from '@trpc/server';
import type { z } from 'zod';
import type { createMemorySchema, updateMemorySchema } from '../../../shared/schemas/memories.js';
import type { MemoryView } from '../../../shared/schemas/memories.js';
import { memoryTexts } from '../../../shared/texts/index.js';
import { Memory, MemorySetting } from '../../db/entities/Memory.js';
import { User } from '../../db/entities/User.js';
import type { AuthedContext } from '../../trpc/context.js';
import { findOwnedChat } from '../chats/index.js';
import { restoreTokenOf } from './memoryRestore.js';
import { insertMemories, memoryEnabled, withMemoryLock } from './memoryStore.js';

// Memories are read and written through their owner: another user's memory is answered exactly
// like a missing one (404).

type CreateMemory = z.output<typeof createMemorySchema>;
type UpdateMemory = z.output<typeof updateMemorySchema>;

export async function listMemories(ctx: AuthedContext): Promise<{ memories: MemoryView[] }> {
  const memories = await ctx.em.find(Memory, { owner: ctx.user.id }, { orderBy: { createdAt: 'desc', id: 'desc' } });
  return { memories: memories.map((memory) => memory.toView()) };
}

export async function createMemory(ctx: AuthedContext, input: CreateMemory): Promise<MemoryView> {
  const [memory] = await withMemoryLock(ctx.em, ctx.user.id, (tx) =>
    insertMemories(tx, ctx.user.id, [{ text: input.text, kind: input.kind, dueAt: input.dueAt ? new Date(input.dueAt) : null }], 'throw'),
  );
  return memory!.toView();
}

export async function updateMemory(ctx: AuthedContext, input: UpdateMemory): Promise<MemoryView> {
  const memory = await ownMemory(ctx, input.memoryId);
  if (input.text !== undefined) memory.text = input.text;
  if (input.kind !== undefined) memory.kind = input.kind;
  if (input.dueAt !== undefined) memory.dueAt = input.dueAt ? new Date(input.dueAt) : null;
  if (input.done !== undefined) memory.doneAt = input.done ? (memory.doneAt ?? new Date()) : null;
  // A new due date may be asked about again.
  if (input.dueAt !== undefined) memory.askedAt = null;
  memory.updatedAt = new Date();
  await ctx.em.flush();
  return memory.toView();
}

/** Deletes one memory; answers the token that puts it back as it was (memoryRestore.ts). */
export async function deleteMemory(ctx: AuthedContext, input: { memoryId: number }): Promise<{ restoreToken: string }> {
  const memory = await ctx.em.findOne(Memory, { id: input.memoryId, owner: ctx.user.id });
  const deleted = memory ? await ctx.em.nativeDelete(Memory, { id: input.memoryId, owner: ctx.user.id }) : 0;
  if (!memory || deleted === 0) throw new TRPCError({ code: 'NOT_FOUND', message: memoryTexts.notFound });
  return { restoreToken: restoreTokenOf(ctx.deps.sessionPassword, memory) };
}

export async function deleteAllMemories(ctx: AuthedContext): Promise<void> {
  await ctx.em.nativeDelete(Memory, { owner: ctx.user.id });
}

export async function getMemorySettings(ctx: AuthedContext): Promise<{ enabled: boolean }> {
  return { enabled: await memoryEnabled(ctx.em, ctx.user.id) };
}

export async function setMemorySettings(ctx: AuthedContext, input: { enabled: boolean }): Promise<{ enabled: boolean }> {
  await ctx.em.upsert(MemorySetting, { user: ctx.em.getReference(User, ctx.user.id), enabled: input.enabled, updatedAt: new Date() });
  return { enabled: input.enabled };
}

/** The replies of a chat that stored memories, for their 'Memory updated' note. */
export async function chatMemoryNotes(ctx: AuthedContext, input: { chatId: number }): Promise<{ notes: Array<{ messageId: number; memoryIds: number[] }> }> {
  await findOwnedChat(ctx.em, ctx.user.id, input.chatId);
  const memories = await ctx.em.find(Memory, { owner: ctx.user.id, sourceChat: input.chatId, sourceMessageId: { $ne: null } }, { orderBy: { id: 'asc' } });
  const byMessage = new Map<number, number[]>();
  for (const memory of memories) byMessage.set(memory.sourceMessageId!, [...(byMessage.get(memory.sourceMessageId!) ?? []), memory.id]);
  return { notes: [...byMessage].map(([messageId, memoryIds]) => ({ messageId, memoryIds })) };
}

/** Undo of a 'Memory updated' note: the memories that reply stored are deleted. */
export async function undoMemoryNote(ctx: AuthedContext, input: { messageId: number }): Promise<void> {
  const deleted = await ctx.em.nativeDelete(Memory, { owner: ctx.user.id, sourceMessageId: input.messageId });
  if (deleted === 0) throw new TRPCError({ code: 'NOT_FOUND', message: memoryTexts.notFound });
}

async function ownMemory(ctx: AuthedContext, memoryId: number): Promise<Memory> {
  const memory = await ctx.em.findOne(Memory, { id: memoryId, owner: ctx.user.id });
  if (!memory) throw new TRPCError({ code: 'NOT_FOUND', message: memoryTexts.notFound });
  return memory;
}
