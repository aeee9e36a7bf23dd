import type { EntityManager } from '@mikro-orm/core';
import { nudgesTexts } from '../../../shared/texts/nudges.js';
import { Goal } from '../../db/entities/Goal.js';
import { MeetingPrep } from '../../db/entities/MeetingPrep.js';
import { Memory } from '../../db/entities/Memory.js';
import { Message } from '../../db/entities/Message.js';
import type { AppDeps } from '../../deps.js';
import { goalViews } from '../goals/goalViews.js';
import { meetingView, openCalendar } from '../meetings/calendar.js';
import { formatLocal, localParts } from './schedule.js';

// What a nudge says: first a typed value assembled from the database (and the calendar), then
// text rendered from it at the edge, the offline coach's way: deterministic, no model call, so
// the same facts always give the same message.

const day = 86_400_000;
const maxGoals = 10;
const maxCommitments = 10;
const maxMeetings = 10;

export type ReviewGoal = { title: string; status: string; progress: number; checkInsSinceLastWeek: number };
export type ReviewCommitment = { text: string; dueAt: Date; overdue: boolean };
export type ReviewMeeting = { subject: string; startAt: Date; attendees: string[] };
export type Focus =
  | { kind: 'commitment'; text: string }
  | { kind: 'goal'; title: string; status: string }
  | { kind: 'meeting'; subject: string }
  | { kind: 'default' };

export type WeeklyReviewFacts = {
  /** The user's local date of the review. */
  date: string;
  timeZone: string;
  goals: ReviewGoal[];
  commitments: ReviewCommitment[];
  /** null: no calendar connected. */
  unpreparedMeetings: ReviewMeeting[] | null;
  focus: Focus;
};

export type MeetingBriefFacts = {
  subject: string;
  startAt: Date;
  timeZone: string;
  people: Array<{ name: string; known: string[] }>;
  agenda: string | null;
  prepChatId: number | null;
  eventId: string;
};

/** The facts of a weekly review at `now`: goals with their check-ins of the last 7 days, commitments due within a day or overdue, the coming week's meetings with others and no prep. */
export async function weeklyReviewFacts(deps: AppDeps, em: EntityManager, userId: number, now: Date, timeZone: string): Promise<WeeklyReviewFacts> {
  const weekAgo = now.getTime() - 7 * day;
  const goals = await em.find(Goal, { owner: userId, doneAt: null }, { orderBy: { dueDate: 'asc', id: 'asc' }, limit: maxGoals });
  const views = await goalViews(em, goals, now, 'full');
  const reviewGoals = views.map((goal) => ({
    title: goal.title,
    status: goal.status.replace('_', ' '),
    progress: goal.progress,
    checkInsSinceLastWeek: goal.keyResults.flatMap((kr) => kr.checkIns).filter((c) => Date.parse(c.createdAt) >= weekAgo).length,
  }));

  const memories = await em.find(
    Memory,
    { owner: userId, kind: 'commitment', doneAt: null, dueAt: { $ne: null, $lte: new Date(now.getTime() + day) } },
    { orderBy: { dueAt: 'asc' }, limit: maxCommitments },
  );
  const commitments = memories.map((m) => ({ text: m.text, dueAt: m.dueAt!, overdue: m.dueAt!.getTime() < now.getTime() }));

  let unpreparedMeetings: ReviewMeeting[] | null = null;
  const calendar = await openCalendar(deps, em, userId).catch(() => null);
  if (calendar) {
    const events = await calendar.graph.calendarView({ start: now, end: new Date(now.getTime() + 7 * day), timeZone: calendar.timeZone });
    const own = calendar.accountEmail?.toLowerCase();
    const withOthers = events
      .map((event) => meetingView(event))
      .filter((m) => m.attendees.some((a) => a.email.toLowerCase() !== own));
    const prepared = new Set(
      (await em.find(MeetingPrep, { owner: userId, eventId: { $in: withOthers.map((m) => m.id) } }, { fields: ['eventId'] })).map((p) => p.eventId),
    );
    unpreparedMeetings = withOthers
      .filter((m) => !prepared.has(m.id))
      .slice(0, maxMeetings)
      .map((m) => ({ subject: m.subject, startAt: m.startAt, attendees: m.attendees.filter((a) => a.email.toLowerCase() !== own).map((a) => a.name || a.email) }));
  }

  return { date: localParts(now, timeZone).date, timeZone, goals: reviewGoals, commitments, unpreparedMeetings, focus: chooseFocus(reviewGoals, commitments, unpreparedMeetings) };
}

/** One focus: an overdue commitment first, then the goal furthest behind, then the first meeting to prepare. */
export function chooseFocus(goals: ReviewGoal[], commitments: ReviewCommitment[], meetings: ReviewMeeting[] | null): Focus {
  const overdue = commitments.find((c) => c.overdue);
  if (overdue) return { kind: 'commitment', text: overdue.text };
  const behind = goals.find((g) => g.status === 'behind') ?? goals.find((g) => g.status === 'at risk');
  if (behind) return { kind: 'goal', title: behind.title, status: behind.status };
  const meeting = meetings?.[0];
  if (meeting) return { kind: 'meeting', subject: meeting.subject };
  const quiet = goals.find((g) => g.checkInsSinceLastWeek === 0);
  if (quiet) return { kind: 'goal', title: quiet.title, status: quiet.status };
  return { kind: 'default' };
}

export function renderWeeklyReview(facts: WeeklyReviewFacts): string {
  const t = nudgesTexts;
  const lines = [t.reviewIntro(facts.date), '', t.reviewGoalsHeading];
  if (!facts.goals.length) lines.push(t.reviewNoGoals);
  for (const g of facts.goals) lines.push(t.reviewGoalLine(g.title, g.status, Math.round(g.progress * 100), g.checkInsSinceLastWeek));
  lines.push('', t.reviewCommitmentsHeading);
  if (!facts.commitments.length) lines.push(t.reviewNoCommitments);
  for (const c of facts.commitments) lines.push(t.reviewCommitmentLine(c.text, localParts(c.dueAt, facts.timeZone).date, c.overdue));
  lines.push('', t.reviewMeetingsHeading);
  if (facts.unpreparedMeetings === null) lines.push(t.reviewNoCalendar);
  else if (!facts.unpreparedMeetings.length) lines.push(t.reviewNoMeetings);
  else for (const m of facts.unpreparedMeetings) lines.push(t.reviewMeetingLine(m.subject, formatLocal(m.startAt, facts.timeZone), m.attendees.join(', ')));
  lines.push('', t.reviewFocusHeading, focusText(facts.focus), '', t.reviewClose);
  return lines.join('\n');
}

function focusText(focus: Focus): string {
  switch (focus.kind) {
    case 'commitment':
      return nudgesTexts.focusCommitment(focus.text);
    case 'goal':
      return nudgesTexts.focusGoal(focus.title, focus.status);
    case 'meeting':
      return nudgesTexts.focusMeeting(focus.subject);
    default:
      return nudgesTexts.focusDefault;
  }
}

/**
 * The facts of a brief for the next meeting with other attendees starting within `withinMs`:
 * the people with what memory holds that names them, and the prep chat's agenda (its first coach
 * message). With `eventId`, the brief of that meeting (a scheduled one). 'no_calendar' /
 * 'no_meeting' when there is nothing to brief (the meeting was cancelled, or has begun).
 */
export async function meetingBriefFacts(deps: AppDeps, em: EntityManager, userId: number, now: Date, withinMs: number, eventId?: string): Promise<MeetingBriefFacts | 'no_calendar' | 'no_meeting'> {
  const calendar = await openCalendar(deps, em, userId).catch(() => null);
  if (!calendar) return 'no_calendar';
  const events = await calendar.graph.calendarView({ start: now, end: new Date(now.getTime() + withinMs), timeZone: calendar.timeZone });
  const own = calendar.accountEmail?.toLowerCase();
  const meeting = events
    .map((event) => meetingView(event))
    .filter((m) => m.startAt.getTime() > now.getTime() && m.attendees.some((a) => a.email.toLowerCase() !== own) && (!eventId || m.id.slice(0, 512) === eventId))
    .sort((a, b) => a.startAt.getTime() - b.startAt.getTime())[0];
  if (!meeting) return 'no_meeting';
  const memories = await em.find(Memory, { owner: userId, doneAt: null }, { orderBy: { updatedAt: 'desc' }, limit: 200 });
  const people = meeting.attendees
    .filter((a) => a.email.toLowerCase() !== own)
    .slice(0, 10)
    .map((a) => {
      const name = a.name || a.email;
      // The first name as a whole word of the memory (not built into a pattern: names are not ours).
      const first = (name.split(/\s+/)[0] ?? '').toLowerCase().replace(/[^a-z0-9]/g, '');
      const known = memories
        .filter((m) => {
          const text = m.text.toLowerCase();
          return text.includes(name.toLowerCase()) || (first.length > 2 && text.split(/[^a-z0-9]+/).includes(first));
        })
        .slice(0, 3)
        .map((m) => m.text);
      return { name, known };
    });
  const prep = await em.findOne(MeetingPrep, { owner: userId, eventId: meeting.id });
  // A prep row without a chat is an agenda saved to the invite without preparing: no agenda message.
  const prepChatId = prep?.chat?.id ?? null;
  const agendaMessage = prepChatId
    ? await em.findOne(Message, { chat: prepChatId, role: 'assistant', status: 'complete' }, { orderBy: { id: 'asc' } })
    : null;
  return {
    subject: meeting.subject,
    startAt: meeting.startAt,
    timeZone: calendar.timeZone,
    people,
    agenda: agendaMessage?.content ?? null,
    prepChatId,
    eventId: meeting.id,
  };
}

export function renderMeetingBrief(facts: MeetingBriefFacts, prepareLink: string): string {
  const t = nudgesTexts;
  const lines = [t.briefIntro(facts.subject, formatLocal(facts.startAt, facts.timeZone)), '', t.briefPeopleHeading];
  for (const p of facts.people) lines.push(t.briefPerson(p.name, p.known));
  lines.push('', t.briefAgendaHeading, facts.agenda ?? t.briefNoAgenda, '', t.briefQuestion(facts.subject), '', t.briefPrepare(prepareLink));
  return lines.join('\n');
}
