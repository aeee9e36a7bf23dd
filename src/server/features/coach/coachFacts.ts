import type { EntityManager } from '@mikro-orm/core';
import type { AppDeps } from '../../deps.js';
import { openMailbox } from '../microsoft/mailbox.js';
import { loadCoachMeetings } from '../meetings/meetingsFacts.js';
import { readWritingStyle } from '../writingStyle/writingStyleStore.js';
import type { CoachContextInput, MailSource } from './coachContext.js';
import { loadCoachGoals } from './goalsContext.js';
import { loadCoachKnowledgeBase } from './knowledgeBaseContext.js';
import { loadCoachMemories } from './memoryContext.js';

/**
 * Which outside sources the coach may read for a turn: all of them for a browser session; for a
 * turn asked with an API key, what the key's scopes allow (factSourcesOf in trpc/principal.ts).
 */
export type FactSources = { mail: boolean; calendar: boolean };
export const allFactSources: FactSources = { mail: true, calendar: true };

export type CoachFacts = Pick<CoachContextInput, 'mail' | 'knowledgeBase' | 'writingStyle' | 'goals' | 'memories' | 'meetings'>;

/**
 * What the context assembly may know of a user beyond their name: the knowledge base (only
 * while they switched it on), their mailbox, their writing style and their active goals. Every way the coach
 * answers (chat, voice, phone, email generation) loads them here, so none of them forgets one.
 */
export async function loadCoachFacts(deps: AppDeps, em: EntityManager, userId: number, chatId?: number, sources: FactSources = allFactSources): Promise<CoachFacts> {
  const knowledgeBase = await loadCoachKnowledgeBase(em, userId);
  const writingStyle = await readWritingStyle(em, userId);
  const mail = sources.mail ? await openMailForCoach(deps, em, userId) : null;
  const goals = await loadCoachGoals(em, userId);
  const memories = await loadCoachMemories(em, userId);
  const meetings = sources.calendar ? await loadCoachMeetings(deps, em, userId, chatId) : null;
  return { knowledgeBase, writingStyle, mail, goals, memories, meetings };
}

// A mailbox that cannot be opened reads as "a problem" to the coach, never as a failed reply.
export async function openMailForCoach(deps: AppDeps, em: EntityManager, userId: number): Promise<MailSource | null> {
  try {
    return await openMailbox(deps, em, userId);
  } catch (cause) {
    deps.log.warn({ err: cause, userId }, 'could not open the mailbox for the coach');
    return { connected: true, recentEmails: () => Promise.reject(cause) };
  }
}
