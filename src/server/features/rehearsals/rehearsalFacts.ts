import type { EntityManager } from '@mikro-orm/core';
import { Memory } from '../../db/entities/Memory.js';
import { Rehearsal } from '../../db/entities/Rehearsal.js';
import type { AppDeps } from '../../deps.js';
import type { CoachCounterpart } from '../../providers/ai/contract.js';
import { openMicrosoft365 } from '../microsoft/index.js';
import { memoryEnabled } from '../memories/index.js';
import { counterpartBrief } from './brief.js';

// What the other person of a rehearsal is made of, handed to the context assembly: the set-up the
// user gave (never their goal), their private brief (brief.ts), the memories that name the person
// and, when mail is connected, the subjects of recent mail with them.

const maxMemories = 10;
const maxMailSubjects = 5;

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

/** The counterpart of the rehearsal held in this chat, or null when the chat is not a rehearsal. */
export async function loadRehearsalCounterpart(
  deps: Pick<AppDeps, 'config' | 'log' | 'sessions' | 'microsoft'>,
  em: EntityManager,
  userId: number,
  chatId: number,
  /** rehearsal: the chat's, when the turn has read it already (null: the chat holds none). */
  options: { mail: boolean; rehearsal?: Rehearsal | null },
): Promise<CoachCounterpart | null> {
  const held = options.rehearsal;
  const rehearsal = held === undefined ? await em.findOne(Rehearsal, { owner: userId, chat: chatId }) : held && held.owner.id === userId && held.chat.id === chatId ? held : null;
  if (!rehearsal) return null;
  const [memories, mailSubjects] = await Promise.all([
    memoriesNaming(em, userId, rehearsal.counterpartName),
    options.mail ? mailWith(deps, em, userId, rehearsal).catch(() => []) : [],
  ]);
  return {
    name: rehearsal.counterpartName,
    role: rehearsal.counterpartRole ?? null,
    relationship: rehearsal.counterpartRelationship ?? null,
    situation: rehearsal.situation,
    difficulty: rehearsal.difficulty,
    memories,
    mailSubjects,
    brief: counterpartBrief(rehearsal),
  };
}

/** The user's memories that name the person: their full name, or their first name as a word. */
export async function memoriesNaming(em: EntityManager, userId: number, name: string): Promise<string[]> {
  if (!(await memoryEnabled(em, userId))) return [];
  const full = name.trim();
  const first = full.split(/\s+/)[0] ?? full;
  const rows = await em.find(Memory, { owner: userId, text: { $ilike: likePattern(first) } }, { orderBy: { updatedAt: 'desc' }, limit: 50, fields: ['text'] });
  // The first name as a whole word ('Sam', not 'Samsung'), or the full name anywhere. Words are
  // compared, not a pattern built from the name (a name is the user's text, not ours).
  const firstWords = first.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const namesFirst = (text: string) => {
    const words = text.toLowerCase().split(/[^\p{L}\p{N}]+/u);
    return firstWords.length > 0 && words.some((_, i) => firstWords.every((w, j) => words[i + j] === w));
  };
  return rows
    .map((row) => row.text)
    .filter((text) => text.toLowerCase().includes(full.toLowerCase()) || namesFirst(text))
    .slice(0, maxMemories);
}

/** Subjects of recent mail exchanged with the person, when Microsoft Email is connected. */
async function mailWith(deps: Pick<AppDeps, 'config' | 'log' | 'sessions' | 'microsoft'>, em: EntityManager, userId: number, rehearsal: Rehearsal): Promise<string[]> {
  const mailbox = await openMicrosoft365(deps, em, userId).then((m365) => m365.mail, () => null);
  if (!mailbox) return [];
  const subjects = await mailbox.graph.subjectsWith(rehearsal.counterpartEmail ?? rehearsal.counterpartName, maxMailSubjects);
  return [...new Set(subjects)].slice(0, maxMailSubjects);
}

const titleInBrackets = /\(([^()]{2,60})\)/;
const titleAfterIs = /\bis (?:the |our |my |a |an )?((?:[A-Z][\w&/-]*\s?){1,5})/;

/**
 * The person's role as the user's memory has it: 'Elena Rossi is my manager (VP Engineering)' gives
 * 'VP Engineering'; 'Sam Rivera is the Head of Sales' gives 'Head of Sales'. Only from a memory that
 * names them in full; null when none says.
 */
export function roleFromMemories(name: string, memories: string[]): string | null {
  const full = name.trim().toLowerCase();
  for (const text of memories) {
    const at = text.toLowerCase().indexOf(full);
    if (at < 0) continue;
    const after = text.slice(at + full.length, at + full.length + 200);
    const role = titleInBrackets.exec(after)?.[1] ?? titleAfterIs.exec(after)?.[1];
    if (role?.trim()) return role.trim().slice(0, 200);
  }
  return null;
}
