import type { EntityManager } from '@mikro-orm/core';
import { memoryLimits, type MemoryKind } from '../../../shared/schemas/memories.js';
import type { ChatTurn } from '../../providers/ai/types.js';
import { Memory } from '../../db/entities/Memory.js';
import { memoryEnabled } from '../memories/memoryStore.js';
import { explicitRemember } from '../memories/memoryRules.js';

// What the coach remembers of the user (issue 24), for the context assembly: every memory when
// there are few, else the 20 best for the latest message by full-text relevance and recency.
// Read fresh for every turn, so a deleted memory never reaches the model again; with memory off,
// nothing. Also tells the coach when the latest message was just remembered, so both coaches say so.

export type CoachMemory = { text: string; kind: MemoryKind; dueAt: string | null; done: boolean };

export interface MemorySource {
  /** The memories to put before this message. */
  relevant(latestUserMessage: string): Promise<CoachMemory[]>;
  /** Whether this text is kept as a memory now (it was just remembered). */
  holds(text: string): Promise<boolean>;
}

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

/** The user's memories as the coach reads them; null while memory is off. */
export async function loadCoachMemories(em: EntityManager, userId: number): Promise<MemorySource | null> {
  if (!(await memoryEnabled(em, userId))) return null;
  const connection = em.getConnection();
  return {
    async relevant(latest) {
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
    async holds(text) {
      return (await em.count(Memory, { owner: userId, text })) > 0;
    },
  };
}

const savedLead = 'Saved to memory just now, at the user’s request: ';
const notSavedNote =
  'The user asked you to remember something, but it was not saved: memory is off, this chat is temporary, chat history is off, or the memory is full. Say so in one sentence and mention the Memory page.';

/** What the coach knows of the user, and whether the latest message was just remembered. */
export async function memoryTurns(memories: MemorySource | null | undefined, latestUserMessage: string): Promise<ChatTurn[]> {
  const turns: ChatTurn[] = [];
  const asked = explicitRemember(latestUserMessage);
  if (asked) {
    const saved = memories ? await memories.holds(asked) : false;
    turns.push({
      role: 'system',
      content: saved ? `${savedLead}“${asked}”\nConfirm briefly that you will remember it, then carry on.` : notSavedNote,
    });
  }
  const relevant = memories ? await memories.relevant(latestUserMessage) : [];
  if (relevant.length) {
    const lines = relevant.map((m) => `- ${m.text} (${m.kind}${m.dueAt ? `, due ${m.dueAt}` : ''}${m.done ? ', done' : ''})`);
    turns.push({
      role: 'system',
      content: `What you know about the user (from earlier conversations; they can see and edit it on the Memory page):\n${lines.join('\n')}\nUse it where it helps; do not recite it.`,
    });
  }
  return turns;
}

/** For the offline coach: the note above, read back from the system context. */
export function rememberedIn(systemText: string): { saved: string } | { saved: null } | null {
  if (systemText.startsWith(savedLead)) {
    // From the first opening quote to the last closing one (indexOf, not a greedy regex).
    const rest = systemText.slice(savedLead.length);
    const open = rest.indexOf('“');
    const close = rest.lastIndexOf('”');
    return { saved: open >= 0 && close > open ? rest.slice(open + 1, close) : '' };
  }
  return systemText === notSavedNote ? { saved: null } : null;
}
