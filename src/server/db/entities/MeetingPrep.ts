import { defineEntity, p } from '@mikro-orm/core';
import type { MeetingInvite } from '../../../shared/meeting.js';
import { Chat } from './Chat.js';
import { User } from './User.js';

// A meeting of the user's Microsoft calendar that they prepared with the coach: the
// Graph event id, the prep chat, and a snapshot of the invite the coach was given (so the chat's
// later turns, the reflection and the export keep it even after the event changes or is gone).
export const MeetingPrepSchema = defineEntity({
  name: 'MeetingPrep',
  tableName: 'meeting_prep',
  uniques: [{ name: 'meeting_prep_owner_event_unique', properties: ['owner', 'eventId'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    owner: () => p.manyToOne(User).deleteRule('cascade'),
    /** The prep chat; none when an agenda was saved or emailed before the meeting was prepared. */
    chat: () => p.manyToOne(Chat).nullable().deleteRule('cascade').unique(),
    /** Graph's event id (an occurrence's own id for a recurring series). */
    eventId: p.string().length(512),
    subject: p.string().length(400),
    startAt: p.datetime(),
    endAt: p.datetime(),
    /** The invite as given to the coach: organizer, attendees, location, body as plain text. */
    invite: p.json<MeetingInvite>(),
    /** When the agenda was last written into the invite (PATCH /me/events/{id}). */
    agendaSavedAt: p.datetime().nullable(),
    /** When the agenda was last emailed to the attendees. */
    agendaEmailedAt: p.datetime().nullable(),
    /** When the user answered 'How did it go?'. */
    reflectedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export class MeetingPrep extends MeetingPrepSchema.class {}
MeetingPrepSchema.setClass(MeetingPrep);
