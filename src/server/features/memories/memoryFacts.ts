import type { EntityManager } from '@mikro-orm/core';
import { mayLeaveTheApp } from '../../../shared/memoryPolicy.js';
import { memoryLimits, type MemoryKind } from '../../../shared/schemas/memories.js';
import { Memory } from '../../db/entities/Memory.js';
import type { CoachMemory, MemorySource } from '../../providers/ai/contract.js';
import { explicitRemember } from './memoryRules.js';
import { memoryEnabled } from './memoryStore.js';

// What the coach remembers of the user, handed to the context assembly: every memory when there
// are few, else the 20 best for the latest message by full-text relevance and recency. Read fresh
// for every turn, so a deleted memory never reaches the model again; with memory off, none. Also
// says whether the latest message was just remembered ('remember that …'), so the coach says so.

const memoryVector = `to_tsvector('english', "text")`;
// Relevance counts most; recency breaks ties and lifts what was said lately (a month halves it).
const score = `ts_rank(${memoryVector}, q) * 100 + 1.0 / (1 + extract(epoch from (now() - "updated_at")) / 2592000)`;

/** Terms of the latest message as an OR query for websearch_to_tsquery (which never fails on input). */
export function orQuery(message: string): string {
  const terms = [...new Set((message.toLowerCase().match(/[\p{L}\p{N}]{2,}/gu) ?? []).filter((w) => w !== 'or'))].slice(0, 40);
  return terms.join(' or ');
}

type Row = { text: string; kind: MemoryKind; due_at: Date | string | null; done_at: Date | string | null };
const toCoach = (row: Row): CoachMemory => ({
  text: row.text,
  kind: row.kind,
  dueAt: row.due_at ? new Date(row.due_at).toISOString().slice(0, 10) : null,
  done: Boolean(row.done_at),
});

/** The user's memories as the coach reads them; while memory is off, none (and nothing asked to be remembered is kept). */
export async function loadCoachMemories(em: EntityManager, userId: number): Promise<MemorySource> {
  const enabled = await memoryEnabled(em, userId);
  const connection = em.getConnection();
  return {
    async relevant(latest) {
      if (!enabled) return [];
      const [{ count }] = (await connection.execute('select count(*)::int as count from "memory" where "owner_id" = ?', [userId])) as [{ count: number }];
      if (count === 0) return [];
      if (count <= memoryLimits.contextAll) {
        const rows: Row[] = await connection.execute(
          'select "text", "kind", "due_at", "done_at" from "memory" where "owner_id" = ? order by "updated_at" desc, "id" desc',
          [userId],
        );
        return rows.map(toCoach);
      }
      const rows: Row[] = await connection.execute(
        `select "text", "kind", "due_at", "done_at" from "memory", websearch_to_tsquery('english', ?) as q
         where "owner_id" = ? order by ${score} desc, "id" desc limit ${memoryLimits.contextBest}`,
        [orQuery(latest), userId],
      );
      return rows.map(toCoach);
    },
    async remembered(latest) {
      const asked = explicitRemember(latest);
      if (!asked) return null;
      // Stored before the turn began (rememberFromChat.ts) when memory is on and the chat allows it.
      const saved = enabled && (await em.count(Memory, { owner: userId, text: asked })) > 0;
      return { text: asked, saved };
    },
  };
}

// What a nudge may say of the user's memories: a nudge can leave the app (email, push, a call),
// so no sensitive memory is ever among them (memoryPolicy.ts, mayLeaveTheApp). The weekly review
// and the meeting brief read them here, beside the coach's own loader above.

/** Open commitments due by `by` (overdue ones too), soonest first, none sensitive. */
export async function loadShareableCommitments(em: EntityManager, userId: number, by: Date, limit: number): Promise<Memory[]> {
  // Sensitive ones are dropped after the read: read a few times the limit so the limit is still met.
  const rows = await em.find(Memory, { owner: userId, kind: 'commitment', doneAt: null, dueAt: { $ne: null, $lte: by } }, { orderBy: { dueAt: 'asc' }, limit: 5 * limit });
  return rows.filter(mayLeaveTheApp).slice(0, limit);
}

/** The open memories most lately touched (at most 200 read), none sensitive. */
export async function loadShareableMemories(em: EntityManager, userId: number): Promise<Memory[]> {
  return (await em.find(Memory, { owner: userId, doneAt: null }, { orderBy: { updatedAt: 'desc' }, limit: 200 })).filter(mayLeaveTheApp);
}
