import { defineEntity, p } from '@mikro-orm/core';
import type { DebriefCoach, DebriefReport, RehearsedCheck } from '../../../shared/schemas/debriefs.js';
import { Chat } from './Chat.js';
import { User } from './User.js';

// A private debrief of a meeting the user attended, computed from its Teams transcript: the
// numbers (report), the coach's strengths and moments (each quoting the user's own words), and,
// when the user had rehearsed with someone in it, whether they did what they rehearsed. The
// transcript itself is never stored: only what the coach quotes of the user.
export const DebriefSchema = defineEntity({
  name: 'Debrief',
  tableName: 'debrief',
  uniques: [{ name: 'debrief_owner_event_unique', properties: ['owner', 'eventId'] }],
  indexes: [{ name: 'debrief_owner_start_idx', properties: ['owner', 'startAt'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    owner: () => p.manyToOne(User).deleteRule('cascade'),
    /** Graph's event id (or a sample meeting's id). */
    eventId: p.string().length(512),
    subject: p.string().length(400),
    startAt: p.datetime(),
    endAt: p.datetime(),
    /** The chat the debrief was posted into (the prep chat, or its own); null once that chat is deleted. */
    chat: () => p.manyToOne(Chat).nullable().deleteRule('set null'),
    report: p.json<DebriefReport>(),
    coach: p.json<DebriefCoach>(),
    rehearsed: p.json<RehearsedCheck>().nullable(),
    /** A demo visitor's debrief of the sample meeting. */
    isSample: p.boolean().default(false),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});
export class Debrief extends DebriefSchema.class {}
DebriefSchema.setClass(Debrief);
