import { defineEntity, p } from '@mikro-orm/core';
import { rehearsalDifficulties, type RehearsalReport } from '../../../shared/schemas/rehearsals.js';
import { Chat } from './Chat.js';
import { User } from './User.js';

// A rehearsal: the user practises a hard conversation with the model playing the other
// person in a chat of its own. The set-up is kept as given (a retry starts from the same one); the
// report is written after, by POST /api/rehearsals/{id}/feedback.
export const RehearsalSchema = defineEntity({
  name: 'Rehearsal',
  tableName: 'rehearsal',
  indexes: [{ name: 'rehearsal_owner_idx', properties: ['owner', 'createdAt'] }],
  uniques: [{ name: 'rehearsal_chat_unique', properties: ['chat'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    owner: () => p.manyToOne(User).deleteRule('cascade'),
    chat: () => p.manyToOne(Chat).deleteRule('cascade'),
    counterpartName: p.string().length(100),
    counterpartRole: p.string().length(200).nullable(),
    counterpartRelationship: p.string().length(200).nullable(),
    /** The counterpart's address when taken from a meeting: finds the mail exchanged with them. */
    counterpartEmail: p.string().length(320).nullable(),
    situation: p.text(),
    goal: p.string().length(500),
    difficulty: p.enum(rehearsalDifficulties),
    /** The meeting it was started from (an event id of the user's calendar or a sample), if any. */
    meetingId: p.string().length(400).nullable(),
    /** The rehearsal this one retries, if any. */
    retryOf: p.integer().nullable(),
    report: p.json<RehearsalReport>().nullable(),
    /** The coach messages that posted reports into the chat: not part of what was said. */
    reportMessageIds: p.json<number[]>().nullable(),
    /** The demo's finished example (the template's, or a visitor's copy of it). */
    isSample: p.boolean().default(false),
    /** A visitor's copy of the template's example: the template row's id, which keeps naming the copy (trpc/sampleCopies.ts). */
    sampleOf: p.integer().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export class Rehearsal extends RehearsalSchema.class {}
RehearsalSchema.setClass(Rehearsal);
