import type { EntityManager } from '@mikro-orm/core';
import { TRPCError } from '@trpc/server';
import { memoryLimits, type MemoryKind } from '../../../shared/schemas/memories.js';
import { memoryTexts } from '../../../shared/texts/index.js';
import { Chat } from '../../db/entities/Chat.js';
import { Memory, MemorySetting } from '../../db/entities/Memory.js';
import { User } from '../../db/entities/User.js';
import { isSensitive } from '../../../shared/memoryPolicy.js';

// Every write of memories goes through here, so the limit of 500 a user holds under parallel
// writes: the owner's count is read and the rows written in one transaction that first takes a
// transaction-scoped advisory lock keyed by the owner. Two writers for the same user take turns;
// writers for different users never wait for each other (and nothing else in the app is locked).

/** The advisory lock space of memory writes (the second key is the user's id). */
const memoryLockSpace = 240_024;

export type NewMemory = {
  text: string;
  kind: MemoryKind;
  dueAt?: Date | null;
  sourceChatId?: number | null;
  sourceMessageId?: number | null;
};

/** Runs `work` in a transaction holding the owner's memory lock. */
export async function withMemoryLock<T>(em: EntityManager, userId: number, work: (tx: EntityManager) => Promise<T>): Promise<T> {
  return em.transactional(async (tx) => {
    await tx.getConnection().execute('select pg_advisory_xact_lock(?, ?)', [memoryLockSpace, userId], 'all', tx.getTransactionContext());
    return work(tx);
  });
}

/**
 * Stores new memories for a user. `onFull`: 'throw' answers CONFLICT when they would pass the
 * limit (a person adding one); 'skip' stores what fits (the coach picking them up on its own).
 */
export async function insertMemories(
  tx: EntityManager,
  userId: number,
  items: NewMemory[],
  onFull: 'throw' | 'skip',
): Promise<Memory[]> {
  const held = await tx.count(Memory, { owner: userId });
  const room = memoryLimits.maxPerUser - held;
  if (items.length > room && onFull === 'throw') {
    throw new TRPCError({ code: 'CONFLICT', message: memoryTexts.tooMany(memoryLimits.maxPerUser) });
  }
  const stored = items.slice(0, Math.max(0, room)).map((item) =>
    tx.create(Memory, {
      owner: tx.getReference(User, userId),
      text: item.text,
      kind: item.kind,
      dueAt: item.dueAt ?? null,
      sourceChat: item.sourceChatId ? tx.getReference(Chat, item.sourceChatId) : null,
      sourceMessageId: item.sourceMessageId ?? null,
    }),
  );
  await tx.flush();
  return stored;
}

/** Whether the coach may remember and use memories for this user (on unless they turned it off). */
export async function memoryEnabled(em: EntityManager, userId: number): Promise<boolean> {
  const setting = await em.findOne(MemorySetting, { user: userId });
  return setting ? setting.enabled : true;
}

/**
 * Memories kept before sensitivity was marked (its column null) are marked by the policy, in
 * batches; at start, before any nudge runs. Returns how many were decided.
 */
export async function decideUndecidedMemories(em: EntityManager, batch = 500): Promise<number> {
  const connection = em.getConnection();
  let decided = 0;
  for (;;) {
    const rows: Array<{ id: number; text: string }> = await connection.execute(`select "id", "text" from "memory" where "sensitive" is null order by "id" limit ${batch}`);
    if (!rows.length) return decided;
    for (const value of [true, false]) {
      const ids = rows.filter((row) => isSensitive(row.text) === value).map((row) => row.id);
      if (ids.length) await connection.execute(`update "memory" set "sensitive" = ${value} where "id" in (${ids.map(() => '?').join(', ')})`, ids);
    }
    decided += rows.length;
  }
}
