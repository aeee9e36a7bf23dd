import { UserSettings } from '../../db/entities/UserSettings.js';
import type { User } from '../../db/entities/User.js';
import type { AuthedContext } from '../../trpc/context.js';
import type { Meeting, MeetingInvite, MeetingPerson } from '../../../shared/meeting.js';
import { zonedTime } from './meetingTimes.js';

// A demo visitor (the template, or their guest space) has no calendar to connect, so
// the Meetings page shows a sample week instead: made on each read, dated from today in the
// visitor's time zone, never stored. Prepare works on a sample as on a real meeting (the prep
// chat and its row are the visitor's own); nothing about a sample ever reaches Microsoft Graph.
// Registered accounts never see samples: their calendar, or the 409 asking to connect it.

/** Who sees the sample week: demo visitors and guests, while demo mode is on. */
export function seesSampleMeetings(config: { demoMode: boolean }, user: Pick<User, 'isDemo' | 'isGuest'>): boolean {
  return config.demoMode && (user.isDemo || user.isGuest);
}

type Person = MeetingPerson;
type SampleSlot = {
  dayOffset: number;
  start: string;
  minutes: number;
  subject: string;
  /** null: the visitor organizes it. */
  organizer: Person | null;
  attendees: Person[];
  location: string;
  isOnline: boolean;
  body: string;
};

const priya: Person = { name: 'Priya Shah', email: 'priya.shah@northwind.example' };
const marcus: Person = { name: 'Marcus Chen', email: 'marcus.chen@northwind.example' };
const elena: Person = { name: 'Elena Rossi', email: 'elena.rossi@northwind.example' };
const tom: Person = { name: 'Tom Becker', email: 'tom.becker@northwind.example' };
const you: Person = { name: 'Alex Morgan', email: 'alex.morgan@northwind.example' };

// The week, in the order of the ids (sample-<date>-<index>). The people and topics match the
// demo's sample goals and memories, so the coach's context tells one story.
const week: SampleSlot[] = [
  {
    dayOffset: 0, start: '16:00', minutes: 30, subject: '1:1 with Priya', organizer: null, attendees: [priya],
    location: 'Room 3B', isOnline: false,
    body: 'Weekly 1:1. Priya wants to talk about her promotion case and the on-call load on the platform team.',
  },
  {
    dayOffset: 1, start: '09:30', minutes: 45, subject: 'Weekly team sync', organizer: null, attendees: [priya, marcus, tom],
    location: 'Microsoft Teams', isOnline: true,
    body: 'Release 4.2 status, the deployment-frequency goal, blockers and asks.',
  },
  {
    dayOffset: 2, start: '14:00', minutes: 60, subject: 'Q3 roadmap review', organizer: elena, attendees: [you, marcus],
    location: 'Board room', isOnline: false,
    body: 'Each team presents its Q3 plan: outcomes, key results, risks and the staffing it needs. 10 minutes per team.',
  },
  {
    dayOffset: 3, start: '11:00', minutes: 30, subject: 'Hiring sync: senior backend engineer', organizer: tom, attendees: [you],
    location: 'Microsoft Teams', isOnline: true,
    body: 'Two candidates in the final round. Decide on the offer and the interview feedback still missing.',
  },
  {
    dayOffset: 4, start: '15:00', minutes: 45, subject: 'Sprint retrospective', organizer: null, attendees: [priya, marcus, tom],
    location: 'Room 3B', isOnline: false,
    body: 'What went well, what did not, and one change we try in the next sprint.',
  },
];

export type SampleMeeting = Meeting & { startAt: Date; endAt: Date };

const datePattern = /^sample-(\d{4})(\d{2})(\d{2})-(\d{1,2})$/;

/** Whether an id names a sample meeting (whoever asks; only demo visitors may act on one). */
export function isSampleMeetingId(id: string): boolean {
  return datePattern.test(id);
}

/** The calendar date (y, m, d) of an instant in a time zone. */
function dateIn(at: number, timeZone: string): { y: number; m: number; d: number } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(new Date(at)).map((p) => [p.type, p.value]),
  );
  return { y: Number(parts.year), m: Number(parts.month), d: Number(parts.day) };
}

const pad = (n: number) => String(n).padStart(2, '0');

function sampleAt(slot: SampleSlot, index: number, day: { y: number; m: number; d: number }, timeZone: string, owner: Person): SampleMeeting {
  const date = new Date(Date.UTC(day.y, day.m - 1, day.d));
  const ymd = `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
  const start = zonedTime(`${ymd}T${slot.start}:00`, timeZone);
  const endWall = new Date(Date.UTC(2000, 0, 1, Number(slot.start.slice(0, 2)), Number(slot.start.slice(3)) + slot.minutes));
  const end = zonedTime(`${ymd}T${pad(endWall.getUTCHours())}:${pad(endWall.getUTCMinutes())}:00`, timeZone);
  const organizer = slot.organizer ?? owner;
  return {
    id: `sample-${ymd.replaceAll('-', '')}-${index}`,
    subject: slot.subject,
    start: start.iso,
    end: end.iso,
    startAt: start.at,
    endAt: end.at,
    organizer,
    attendees: slot.attendees.map((person) => ({ ...(person === you ? owner : person), response: 'accepted' })),
    location: slot.location,
    isOnline: slot.isOnline,
    joinUrl: null,
    bodyPreview: slot.body,
  };
}

function ownerOf(user: Pick<User, 'fullName'>): Person {
  return { name: user.fullName || you.name, email: you.email };
}

/** The sample meetings of the next `days` days from now (those already over left out), by start. */
export function sampleWeek(user: Pick<User, 'fullName'>, timeZone: string, days: number, now = Date.now()): SampleMeeting[] {
  const today = dateIn(now, timeZone);
  const until = now + days * 86_400_000;
  return week
    .map((slot, index) => sampleAt(slot, index, { ...today, d: today.d + slot.dayOffset }, timeZone, ownerOf(user)))
    .filter((meeting) => meeting.endAt.getTime() > now && meeting.startAt.getTime() < until)
    .sort((a, b) => a.startAt.getTime() - b.startAt.getTime());
}

/**
 * The sample meeting an id names, as its invite: any date from two weeks back to two weeks on
 * (a prep made on an earlier day keeps working), or null for an id that is no sample.
 */
export function sampleMeeting(user: Pick<User, 'fullName'>, id: string, timeZone: string, now = Date.now()): (MeetingInvite & { startAt: Date; endAt: Date }) | null {
  const match = datePattern.exec(id);
  if (!match) return null;
  const [, y, m, d, index] = match.map(Number) as [number, number, number, number, number];
  const slot = week[index];
  const date = new Date(Date.UTC(y, m - 1, d));
  if (!slot || date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  if (Math.abs(date.getTime() - now) > 15 * 86_400_000) return null;
  const meeting = sampleAt(slot, index, { y, m, d }, timeZone, ownerOf(user));
  if (meeting.id !== id) return null;
  return {
    subject: meeting.subject,
    start: meeting.start,
    end: meeting.end,
    startAt: meeting.startAt,
    endAt: meeting.endAt,
    organizer: meeting.organizer,
    attendees: meeting.attendees,
    location: meeting.location,
    isOnline: meeting.isOnline,
    body: meeting.bodyPreview,
  };
}

/**
 * The time zone a sample week is dated in: the one the visitor saved, else their browser's (the
 * page sends it), else UTC.
 */
export async function sampleTimeZone(ctx: AuthedContext, requested: string | undefined): Promise<string> {
  const settings = await ctx.em.findOne(UserSettings, { user: ctx.user.id }, { fields: ['timeZone'] });
  return settings?.timeZone ?? requested ?? 'UTC';
}
