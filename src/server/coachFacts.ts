import type { EntityManager } from '@mikro-orm/core';
import type { Rehearsal } from './db/entities/Rehearsal.js';
import type { AppDeps } from './deps.js';
import type { CoachFacts, MailSource } from './providers/ai/contract.js';
import { loadCoachGoals } from './features/goals/goalsFacts.js';
import { loadCoachKnowledgeBase } from './features/knowledgeBase/knowledgeBaseFacts.js';
import { loadCoachMeetings } from './features/meetings/meetingsFacts.js';
import { loadCoachMemories } from './features/memories/memoryFacts.js';
import { openMicrosoft365 } from './features/microsoft/microsoft365.js';
import { loadRehearsalCounterpart } from './features/rehearsals/rehearsalFacts.js';
import { readWritingStyle } from './features/writingStyle/writingStyleStore.js';
import { loadCoachProgram } from './features/organisations/programs.js';
import type { GraphDeps } from './features/microsoft/connections.js';

// Where the features hand their facts to the coach: each feature loads its own (the knowledge base
// only while it is switched on, the mailbox, the writing style, the active goals, the memories,
// the meetings and the organisation's program), and this gathers them. Every way the coach answers (chat, voice, phone) loads them
// here, so none of them forgets one. Part of the wiring: the coach itself imports no feature.

export type CoachFactsOptions = {
  /** The chat the turn is in: a meeting prep chat brings its meeting. */
  chatId?: number;
  /** The chat's rehearsal when the turn has read it already (null: the chat holds none); else it is read here. */
  rehearsal?: Rehearsal | null;
  /** Facts the caller may not see (for example an API key without the mail scope): left out as if absent. */
  leaveOut?: { mail?: boolean; meetings?: boolean };
};

export async function loadCoachFacts(deps: Pick<AppDeps, 'config' | 'log' | 'sessions' | 'microsoft'>, em: EntityManager, userId: number, options: CoachFactsOptions = {}): Promise<CoachFacts> {
  const { chatId, rehearsal: heldRehearsal, leaveOut = {} } = options;
  // A rehearsal chat: the model plays the other person, who is handed nothing else of the user.
  const rehearsal = chatId ? await loadRehearsalCounterpart(deps, em, userId, chatId, { mail: !leaveOut.mail, rehearsal: heldRehearsal }) : null;
  if (rehearsal) return { knowledgeBase: null, writingStyle: null, mail: null, goals: [], memories: null, meetings: null, rehearsal };
  // The loaders read independent rows (and the mailbox may wait on Microsoft's token service), so
  // they run side by side: a turn waits for the slowest of them, not for their sum.
  const [knowledgeBase, writingStyle, mail, goals, memories, meetings, program] = await Promise.all([
    loadCoachKnowledgeBase(em, userId),
    readWritingStyle(em, userId),
    leaveOut.mail ? null : openMailForCoach(deps, em, userId),
    loadCoachGoals(em, userId),
    loadCoachMemories(em, userId),
    leaveOut.meetings ? null : loadCoachMeetings(deps, em, userId, chatId),
    loadCoachProgram(em, userId),
  ]);
  return { knowledgeBase, writingStyle, mail, goals, memories, meetings, rehearsal: null, program };
}

// A mailbox that cannot be opened reads as "a problem" to the coach, never as a failed reply.
async function openMailForCoach(deps: GraphDeps, em: EntityManager, userId: number): Promise<MailSource | null> {
  try {
    return (await openMicrosoft365(deps, em, userId)).mail;
  } catch (cause) {
    deps.log.warn({ err: cause, userId }, 'could not open the mailbox for the coach');
    return { connected: true, recentEmails: () => Promise.reject(cause) };
  }
}
