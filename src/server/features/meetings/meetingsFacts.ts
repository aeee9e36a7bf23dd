import type { EntityManager } from '@mikro-orm/core';
import { MeetingPrep } from '../../db/entities/MeetingPrep.js';
import { Message } from '../../db/entities/Message.js';
import type { CoachMeetings, WeekMeeting } from '../../providers/ai/contract.js';
import { User } from '../../db/entities/User.js';
import { timeZoneOf } from '../../db/userTimeZone.js';
import { meetingView, readWindow } from './calendar.js';
import { sampleWeek, seesSampleMeetings } from './sampleMeetings.js';
import { openMicrosoft365, type GraphDeps } from '../microsoft/index.js';

// What the coach may know of the user's meetings, handed to the context assembly:
// for a prep chat its meeting, and (lazily, read only when asked) the coming week.

const weekDays = 7;
const maxMailAttendees = 5;
const subjectsPerAttendee = 3;

export async function loadCoachMeetings(deps: GraphDeps, em: EntityManager, userId: number, chatId?: number): Promise<CoachMeetings | null> {
  const prep = chatId ? await em.findOne(MeetingPrep, { owner: userId, chat: chatId }) : null;
  const calendar = await openMicrosoft365(deps, em, userId).then((m365) => m365.calendar, () => null);
  const samples = calendar ? null : await sampleWeekFor(deps, em, userId);
  if (!prep && !calendar && !samples) return null;
  const week = calendar
    ? async (): Promise<WeekMeeting[]> => {
        const events = await readWindow(deps.microsoft.calendarCache, calendar, userId, weekDays, null, false);
        return events.map((event) => {
          const view = meetingView(event);
          return { subject: view.subject, start: view.start, end: view.end, attendees: view.attendees.map((a) => a.name || a.email) };
        });
      }
    : samples;
  if (!prep || !chatId) return { prep: null, week };

  const turn = await prepTurn(em, prep, chatId);
  const mailSubjects = turn === 'agenda' ? await attendeeMailSubjects(deps, em, userId, prep) : [];
  return { prep: { invite: prep.invite, mailSubjects, turn }, week };
}

/** A demo visitor's sample week (what their Meetings page shows), or null for anyone else. */
async function sampleWeekFor(deps: GraphDeps, em: EntityManager, userId: number): Promise<(() => Promise<WeekMeeting[]>) | null> {
  if (!deps.config.demoMode) return null;
  const user = await em.findOne(User, userId, { fields: ['isDemo', 'isGuest', 'fullName'] });
  if (!user || !seesSampleMeetings(deps.config, user)) return null;
  return async () => {
    const timeZone = await timeZoneOf(em, userId);
    return sampleWeek(user, timeZone, weekDays).map((m) => ({ subject: m.subject, start: m.start, end: m.end, attendees: m.attendees.map((a) => a.name || a.email) }));
  };
}

/** The first coach message is the agenda; the one right after 'How did it go?' is the reflection. */
async function prepTurn(em: EntityManager, prep: MeetingPrep, chatId: number): Promise<'agenda' | 'reflection' | 'follow-up'> {
  const written = await em.count(Message, { chat: chatId, role: { $in: ['user', 'assistant'] }, status: { $in: ['complete', 'stopped'] } });
  if (!written) return 'agenda';
  if (prep.reflectedAt) {
    const answered = await em.count(Message, { chat: chatId, role: 'assistant', status: { $in: ['complete', 'stopped'] }, createdAt: { $gt: prep.reflectedAt } });
    if (!answered) return 'reflection';
  }
  return 'follow-up';
}

/** Subjects of the latest mail exchanged with the attendees, when Microsoft Email is connected. */
async function attendeeMailSubjects(deps: GraphDeps, em: EntityManager, userId: number, prep: MeetingPrep): Promise<string[]> {
  const mailbox = await openMicrosoft365(deps, em, userId).then((m365) => m365.mail, () => null);
  if (!mailbox) return [];
  const own = mailbox.accountEmail?.toLowerCase();
  const people = [prep.invite.organizer, ...prep.invite.attendees]
    .map((p) => p.email.toLowerCase())
    .filter((email, i, all) => email && email !== own && all.indexOf(email) === i)
    .slice(0, maxMailAttendees);
  const found = await Promise.all(people.map((email) => mailbox.graph.subjectsWith(email, subjectsPerAttendee).catch(() => [] as string[])));
  return [...new Set(found.flat())].slice(0, maxMailAttendees * subjectsPerAttendee);
}

export type MeetingWithOthers = ReturnType<typeof meetingView> & { isRecurring: boolean };

/**
 * The calendar's meetings with someone other than the user, from `now` for `withinMs` (null with
 * no calendar connected): the weekly review and the meeting brief read them here. `own` is the
 * connected account's address, lower-cased, to leave the user out of the attendees.
 */
export async function loadMeetingsWithOthers(
  deps: GraphDeps,
  em: EntityManager,
  userId: number,
  now: Date,
  withinMs: number,
): Promise<{ timeZone: string; own: string | undefined; meetings: MeetingWithOthers[] } | null> {
  const calendar = await openMicrosoft365(deps, em, userId).then((m365) => m365.calendar, () => null);
  if (!calendar) return null;
  const events = await calendar.graph.calendarView({ start: now, end: new Date(now.getTime() + withinMs), timeZone: calendar.timeZone });
  const own = calendar.accountEmail?.toLowerCase();
  const meetings = events
    .map((event) => ({ ...meetingView(event), isRecurring: event.isRecurring }))
    .filter((m) => m.attendees.some((a) => a.email.toLowerCase() !== own));
  return { timeZone: calendar.timeZone, own, meetings };
}
