import type { EntityManager } from '@mikro-orm/core';
import type { Logger } from 'pino';
import { memoryKinds, memoryLimits } from '../../../shared/schemas/memories.js';
import { commitmentQuestion } from '../../../shared/texts/index.js';
import { Chat } from '../../db/entities/Chat.js';
import { Memory } from '../../db/entities/Memory.js';
import { Message } from '../../db/entities/Message.js';
import type { MemoryExtractor } from '../../providers/ai/memoryExtractor.js';
import type { Providers } from '../../providers/providers.js';
import { newChatIsTemporary } from '../privacy/index.js';
import { insertMemories, memoryEnabled, withMemoryLock } from './memoryStore.js';
import type { RateLimits } from '../limits/index.js';
import { User } from '../../db/entities/User.js';
import { modelRegionOf } from '../../db/organisationPolicy.js';
import { judgeMemory } from '../../../shared/memoryPolicy.js';
import { explicitRemember, extractByRules, kindOf, mayHoldMemory, nearDuplicate, planOf, saysDone } from './memoryRules.js';

// How the coach remembers from a chat. Nothing is remembered from a temporary chat,
// while the user's chat history is off, or while memory is off; and only from what the user said.

/** Whether anything may be remembered from this chat of this user now. */
export async function mayRemember(em: EntityManager, userId: number, chat: Pick<Chat, 'isTemporary'> & Partial<Pick<Chat, 'isRehearsal'>>): Promise<boolean> {
  // A rehearsal is role-play: what the user says to the other person is practice, not a fact about them.
  if (chat.isTemporary || chat.isRehearsal) return false;
  // History off: the user keeps nothing of their chats, so nothing is kept from them either.
  if (await newChatIsTemporary(em, userId)) return false;
  return memoryEnabled(em, userId);
}

/**
 * 'Remember that …', 'Please remember …', 'Don't forget that …': stored as written, at once, without
 * a model call, credited to the reply that answers it (its 'Memory updated' note). Returns it, or
 * null when the message asks for nothing or nothing may be remembered.
 */
export async function rememberExplicitly(
  em: EntityManager,
  userId: number,
  chat: Chat,
  content: string,
  replyId: number,
): Promise<Memory | null> {
  const text = explicitRemember(content);
  if (!text || !(await mayRemember(em, userId, chat))) return null;
  const { kind, dueAt } = kindOf(text);
  const [memory] = await withMemoryLock(em, userId, async (tx) => {
    // Said twice: the one kept is brought up to date rather than repeated.
    const same = (await tx.find(Memory, { owner: userId })).find((m) => nearDuplicate(m.text, text));
    if (same) {
      Object.assign(same, { text, kind, dueAt: dueAt ?? same.dueAt, sourceChat: chat, sourceMessageId: replyId, updatedAt: new Date() });
      await tx.flush();
      return [same];
    }
    return insertMemories(tx, userId, [{ text, kind, dueAt, sourceChatId: chat.id, sourceMessageId: replyId }], 'skip');
  });
  return memory ?? null;
}

export type ExtractionDeps = { log: Logger; rateLimits: Pick<RateLimits, 'modelDaily'>; providers: Pick<Providers, 'memoryExtractor'> };

const offlineExtractor: MemoryExtractor = { extract: async ({ userMessage, now }) => extractByRules(userMessage, now) };

/**
 * Who picks the memories of this message, or null when nobody should: the offline rules cost
 * nothing and always run; a model is asked only about a message that may hold a fact
 * (mayHoldMemory), and each call takes a turn of the user's daily model quota (none is made once
 * the day's turns are spent). Guests, whose quota is counted by address, get the offline rules.
 */
async function extractorForMessage(deps: ExtractionDeps, em: EntityManager, userId: number, message: string): Promise<MemoryExtractor | null> {
  // The model's extraction when a model is configured, else the offline coach's rules.
  const extractor = deps.providers.memoryExtractor ?? offlineExtractor;
  if (extractor === offlineExtractor) return extractor;
  if (!mayHoldMemory(message)) return null;
  const user = await em.findOne(User, userId, { fields: ['isGuest', 'isDemo'] });
  if (!user || user.isGuest || user.isDemo) return offlineExtractor;
  try {
    await deps.rateLimits.modelDaily.take(`user:${userId}`);
  } catch {
    deps.log.debug({ userId }, 'the day’s model turns are spent: no memory extraction');
    return null;
  }
  return extractor;
}

/**
 * After a completed reply: durable facts from the user's message of that exchange are stored
 * (new ones), or merged into a near-duplicate kept already; at most 3 new a exchange. Returns the
 * memories stored new.
 */
export async function extractMemories(
  deps: ExtractionDeps,
  em: EntityManager,
  done: { userId: number; chatId: number; replyId: number },
  now = new Date(),
): Promise<Memory[]> {
  const chat = await em.findOne(Chat, { id: done.chatId, owner: done.userId });
  if (!chat || !(await mayRemember(em, done.userId, chat))) return [];
  const userMessage = await em.findOne(Message, { chat: chat.id, role: 'user', id: { $lt: done.replyId } }, { orderBy: { id: 'desc' } });
  if (!userMessage?.content.trim()) return [];
  // Asked for explicitly: stored already, as written.
  if (explicitRemember(userMessage.content)) return [];
  const extractor = await extractorForMessage(deps, em, done.userId, userMessage.content);
  if (!extractor) return [];
  const known = await em.find(Memory, { owner: done.userId }, { orderBy: { updatedAt: 'desc' }, limit: 50 });
  // The model is asked in the model region of the user's organisation; the offline rules ask nobody.
  const region = extractor === offlineExtractor ? null : await modelRegionOf(em, done.userId);
  const extracted = await extractor.extract({ userMessage: userMessage.content, known: known.map((m) => m.text), now, region });
  // Whatever the extractor answers (a model may ignore its prompt), only what the policy lets the
  // coach keep unasked is kept: nothing sensitive, no plan under an 'if' as a commitment.
  const candidates = extracted
    .filter((c) => c.text.trim() && (memoryKinds as readonly string[]).includes(c.kind))
    .map((c) => ({ text: c.text.trim().slice(0, memoryLimits.maxText), kind: c.kind, dueAt: c.dueAt, flaggedSensitive: c.sensitive === true }))
    .filter((c) => judgeMemory(c, { explicit: false, message: userMessage.content, flaggedSensitive: c.flaggedSensitive }).keep)
    .map(({ flaggedSensitive: _flagged, ...c }) => c);
  if (!candidates.length) return [];
  return withMemoryLock(em, done.userId, async (tx) => {
    const kept = await tx.find(Memory, { owner: done.userId });
    const fresh: typeof candidates = [];
    for (const candidate of candidates) {
      const same = kept.find((m) => nearDuplicate(m.text, candidate.text)) ?? fresh.find((m) => nearDuplicate(m.text, candidate.text));
      if (same instanceof Memory) {
        // Merged: the newer wording (usually the fuller one) and a new due date win.
        if (candidate.text.length >= same.text.length) same.text = candidate.text;
        if (candidate.dueAt) same.dueAt = candidate.dueAt;
        same.updatedAt = new Date();
      } else if (!same && fresh.length < memoryLimits.maxPerExchange) {
        fresh.push(candidate);
      }
    }
    await tx.flush();
    return insertMemories(
      tx,
      done.userId,
      fresh.map((c) => ({ ...c, sourceChatId: chat.id, sourceMessageId: done.replyId })),
      'skip',
    );
  });
}

/**
 * When the user opens a new chat: one commitment past its due date, not yet asked about, is asked
 * about by the coach ('Last week you planned to … — how did it go?'), once.
 */
export async function askAboutDueCommitment(em: EntityManager, userId: number, chat: Chat, now = new Date()): Promise<Message | null> {
  if (!(await memoryEnabled(em, userId))) return null;
  const memory = await em.findOne(
    Memory,
    { owner: userId, kind: 'commitment', doneAt: null, askedAt: null, dueAt: { $lt: now } },
    { orderBy: { dueAt: 'asc' } },
  );
  if (!memory) return null;
  const message = em.create(Message, { chat, role: 'assistant', content: commitmentQuestion(planOf(memory.text), memory.createdAt, now), status: 'complete' });
  memory.askedAt = now;
  memory.askedChat = chat;
  await em.flush();
  return message;
}

/** An answer in the chat where a commitment was asked about that says it was done closes it. */
export async function closeAnsweredCommitment(em: EntityManager, userId: number, chatId: number, answer: string): Promise<Memory | null> {
  if (!saysDone(answer)) return null;
  const memory = await em.findOne(Memory, { owner: userId, kind: 'commitment', askedChat: chatId, doneAt: null }, { orderBy: { askedAt: 'desc' } });
  if (!memory) return null;
  memory.doneAt = new Date();
  await em.flush();
  return memory;
}
