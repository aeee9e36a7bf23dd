import type { EntityManager } from '@mikro-orm/core';
import { nudgesTexts } from '../../../shared/texts/nudges.js';
import { Goal } from '../../db/entities/Goal.js';
import { MeetingPrep } from '../../db/entities/MeetingPrep.js';
import { Memory } from '../../db/entities/Memory.js';
import { Message } from '../../db/entities/Message.js';
import { dueAt } from '../goals/index.js';
import { goalViews } from '../goals/index.js';
import { mayLeaveTheApp } from '../../../shared/memoryPolicy.js';
import { meetingView } from '../meetings/index.js';
import { formatLocal, localParts } from './schedule.js';
import { openMicrosoft365, type GraphDeps } from '../microsoft/index.js';
import type { Focus, ReviewCommitment, ReviewGoal, ReviewMeeting, WeeklyReviewFacts } from '../../providers/ai/contract.js';

// What a nudge says: first a typed value assembled from the database (and the calendar), then
// text rendered from it at the edge. The meeting brief is the offline template's; the weekly
// review is written by the model when one is configured (reviewWriter.ts) and held to the shape
// of this template: the focus first, at most 8 lines, only the goals that are behind and the
// meetings that are not routine, progress acknowledged, one question to reply to at the end.
// A nudge can leave the app (email, push, a call): no sensitive memory is ever among its facts
// (memoryPolicy.ts, mayLeaveTheApp).

const day = 86_400_000;
const maxGoals = 10;
const maxCommitments = 10;
const maxMeetings = 10;
/** The review's lines (blank lines between blocks not counted) and its list's items. */
export const reviewShape = { maxLines: 8, maxItems: 5, maxGoalsBehind: 3, maxMeetings: 2, maxCommitments: 2, maxChars: 2000 } as const;

export type { Focus, ReviewCommitment, ReviewGoal, ReviewMeeting, WeeklyReviewFacts } from '../../providers/ai/contract.js';

export type MeetingBriefFacts = {
  subject: string;
  startAt: Date;
  timeZone: string;
  people: Array<{ name: string; known: string[] }>;
  agenda: string | null;
  prepChatId: number | null;
  eventId: string;
};

const routineWords = /\b(?:stand-?ups?|daily|weekly|scrum|retro(?:spective)?s?|office hours|all[- ]hands|town hall|team sync|lunch)\b/i;

/** A meeting that needs no prep reminder: one of a recurring series, or a stand-up, sync, retro … by its subject. */
export function routineMeeting(subject: string, isRecurring: boolean): boolean {
  return isRecurring || routineWords.test(subject);
}

/** How far along a goal should be by now (0 to 1), as goalStatus reckons it. */
function expectedProgress(createdAt: string, dueDate: string, now: Date): number {
  const start = Date.parse(createdAt);
  const end = dueAt(dueDate);
  if (end <= start) return 1;
  return Math.min(1, Math.max(0, (now.getTime() - start) / (end - start)));
}

/** The facts of a weekly review at `now`: goals with their check-ins of the last 7 days, commitments due within a day or overdue (none sensitive), the coming week's meetings with others and no prep. */
export async function weeklyReviewFacts(deps: GraphDeps, em: EntityManager, userId: number, now: Date, timeZone: string): Promise<WeeklyReviewFacts> {
  const weekAgo = now.getTime() - 7 * day;
  const goals = await em.find(Goal, { owner: userId, doneAt: null }, { orderBy: { dueDate: 'asc', id: 'asc' }, limit: maxGoals });
  const views = await goalViews(em, goals, now, 'full');
  const reviewGoals = views.map((goal) => ({
    title: goal.title,
    status: goal.status.replace('_', ' '),
    progress: goal.progress,
    expected: expectedProgress(goal.createdAt, goal.dueDate, now),
    checkInsSinceLastWeek: goal.keyResults.flatMap((kr) => kr.checkIns).filter((c) => Date.parse(c.createdAt) >= weekAgo).length,
  }));

  const memories = await em.find(
    Memory,
    { owner: userId, kind: 'commitment', doneAt: null, dueAt: { $ne: null, $lte: new Date(now.getTime() + day) } },
    { orderBy: { dueAt: 'asc' }, limit: 5 * maxCommitments },
  );
  const commitments = memories
    .filter(mayLeaveTheApp)
    .slice(0, maxCommitments)
    .map((m) => ({ text: m.text, dueAt: m.dueAt!, overdue: m.dueAt!.getTime() < now.getTime() }));

  let unpreparedMeetings: ReviewMeeting[] | null = null;
  const calendar = await openMicrosoft365(deps, em, userId).then((m365) => m365.calendar, () => null);
  if (calendar) {
    const events = await calendar.graph.calendarView({ start: now, end: new Date(now.getTime() + 7 * day), timeZone: calendar.timeZone });
    const own = calendar.accountEmail?.toLowerCase();
    const withOthers = events
      .map((event) => ({ ...meetingView(event), isRecurring: event.isRecurring }))
      .filter((m) => m.attendees.some((a) => a.email.toLowerCase() !== own));
    const prepared = new Set(
      (await em.find(MeetingPrep, { owner: userId, eventId: { $in: withOthers.map((m) => m.id) } }, { fields: ['eventId'] })).map((p) => p.eventId),
    );
    unpreparedMeetings = withOthers
      .filter((m) => !prepared.has(m.id))
      .slice(0, 5 * maxMeetings)
      .map((m) => ({
        subject: m.subject,
        startAt: m.startAt,
        attendees: m.attendees.filter((a) => a.email.toLowerCase() !== own).map((a) => a.name || a.email),
        routine: routineMeeting(m.subject, m.isRecurring),
      }));
  }

  return { date: localParts(now, timeZone).date, timeZone, goals: reviewGoals, commitments, unpreparedMeetings, focus: chooseFocus(reviewGoals, commitments, unpreparedMeetings) };
}

const behind = (goal: ReviewGoal) => goal.status === 'behind' || goal.status === 'at risk';
const gap = (goal: ReviewGoal) => goal.expected - goal.progress;

/** The goals that are behind or at risk, furthest behind first. */
export function goalsBehind(goals: ReviewGoal[]): ReviewGoal[] {
  return goals.filter(behind).sort((a, b) => gap(b) - gap(a));
}

/** The meetings of the coming week worth preparing: not routine, not prepared. */
export function meetingsToPrepare(meetings: ReviewMeeting[] | null): ReviewMeeting[] {
  return (meetings ?? []).filter((m) => !m.routine);
}

/** One focus: an overdue commitment first, then the goal furthest behind, then the first meeting worth preparing, then the goal due soonest that has not started. */
export function chooseFocus(goals: ReviewGoal[], commitments: ReviewCommitment[], meetings: ReviewMeeting[] | null): Focus {
  const overdue = commitments.find((c) => c.overdue);
  if (overdue) return { kind: 'commitment', text: overdue.text };
  const [furthest] = goalsBehind(goals);
  if (furthest) return { kind: 'goal', title: furthest.title, status: furthest.status };
  const [meeting] = meetingsToPrepare(meetings);
  if (meeting) return { kind: 'meeting', subject: meeting.subject };
  // The goals arrive in due order: the first one with nothing done yet is the one to start.
  const unstarted = goals.find((goal) => goal.status === 'not started');
  if (unstarted) return { kind: 'goal', title: unstarted.title, status: unstarted.status };
  return { kind: 'default' };
}

/** What the focus names (a commitment, a goal, a meeting), or null for the default focus. */
export function focusSubject(focus: Focus): string | null {
  switch (focus.kind) {
    case 'commitment':
      return focus.text;
    case 'goal':
      return focus.title;
    case 'meeting':
      return focus.subject;
    default:
      return null;
  }
}

/** The list under the focus, in order of weight: goals behind, overdue commitments, meetings to prepare, commitments due; the focus itself left out. */
export function reviewItems(facts: WeeklyReviewFacts): string[] {
  const t = nudgesTexts;
  const subject = focusSubject(facts.focus);
  const goals = goalsBehind(facts.goals)
    .filter((g) => g.title !== subject)
    .slice(0, reviewShape.maxGoalsBehind)
    .map((g) => t.reviewGoalBehind(g.title, g.status, Math.round(g.progress * 100), Math.round(g.expected * 100)));
  const commitment = (c: ReviewCommitment) => t.reviewCommitmentLine(c.text, localParts(c.dueAt, facts.timeZone).date, c.overdue);
  const open = facts.commitments.filter((c) => c.text !== subject);
  const meetings = meetingsToPrepare(facts.unpreparedMeetings)
    .filter((m) => m.subject !== subject)
    .slice(0, reviewShape.maxMeetings)
    .map((m) => t.reviewMeetingLine(m.subject, formatLocal(m.startAt, facts.timeZone), m.attendees.slice(0, 3).join(', ')));
  return [
    ...goals,
    ...open.filter((c) => c.overdue).slice(0, reviewShape.maxCommitments).map(commitment),
    ...meetings,
    ...open.filter((c) => !c.overdue).slice(0, reviewShape.maxCommitments).map(commitment),
  ].slice(0, reviewShape.maxItems);
}

/** The progress line: the week's check-ins and the goals on track, acknowledged. */
export function progressLine(facts: WeeklyReviewFacts): string {
  const t = nudgesTexts;
  if (!facts.goals.length) return t.reviewNoGoals;
  const checkIns = facts.goals.reduce((sum, g) => sum + g.checkInsSinceLastWeek, 0);
  const onTrack = facts.goals.filter((g) => g.status === 'on track').map((g) => g.title).slice(0, 3);
  if (!checkIns && !onTrack.length) return t.reviewProgressNone;
  const parts = [
    ...(checkIns ? [t.reviewProgressCheckIns(checkIns, facts.goals.filter((g) => g.checkInsSinceLastWeek > 0).length)] : []),
    ...(onTrack.length ? [t.reviewProgressOnTrack(onTrack)] : []),
  ];
  const text = parts.join('; ');
  return `${checkIns ? text : `Progress: ${text}`}.`;
}

/** The one question to reply to, about the focus. */
export function reviewQuestion(focus: Focus): string {
  switch (focus.kind) {
    case 'commitment':
      return nudgesTexts.questionCommitment(focus.text);
    case 'goal':
      return nudgesTexts.questionGoal(focus.title);
    case 'meeting':
      return nudgesTexts.questionMeeting(focus.subject);
    default:
      return nudgesTexts.questionDefault;
  }
}

/** The offline template: focus, the list, progress, the question; at most 8 lines. */
export function renderWeeklyReview(facts: WeeklyReviewFacts): string {
  const items = reviewItems(facts);
  const blocks = [nudgesTexts.reviewFocusLine(focusText(facts.focus)), ...(items.length ? [items.join('\n')] : []), progressLine(facts), reviewQuestion(facts.focus)];
  return blocks.join('\n\n');
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

const normalise = (text: string) => text.toLowerCase().replace(/[“”"‘’'*_`]/g, '').replace(/\s+/g, ' ').trim();
const isBlank = (line: string) => !line.trim();

/**
 * A review (the model's) held to the template's shape, or null when it cannot be: at most 8
 * non-blank lines, the first naming the focus, one question and it the last line. Lines after the
 * question are dropped; lines past the eighth are cut from the middle, the question kept.
 */
export function shapeReview(text: string, facts: WeeklyReviewFacts): string | null {
  const lines = text
    .replace(/\r/g, '')
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => !/^\s*```/.test(line));
  const filled = lines.map((line, index) => ({ line, index })).filter(({ line }) => !isBlank(line));
  if (!filled.length || text.length > 4 * reviewShape.maxChars) return null;
  const questionAt = filled.findLastIndex(({ line }) => /\?[\s*_]*$/.test(line));
  if (questionAt < 1) return null;
  const question = filled[questionAt]!;
  if ((question.line.match(/\?/g) ?? []).length > 1) return null;
  const body = filled.slice(0, questionAt);
  if (body.some(({ line }) => line.includes('?'))) return null;
  const subject = focusSubject(facts.focus);
  if (subject && !normalise(body[0]!.line).includes(normalise(subject))) return null;
  const kept = new Set(body.slice(0, reviewShape.maxLines - 1).map(({ index }) => index));
  const out: string[] = [];
  for (let i = 0; i < question.index; i++) {
    const line = lines[i]!;
    if (kept.has(i)) out.push(line);
    else if (isBlank(line) && out.length && !isBlank(out.at(-1)!)) out.push('');
  }
  while (out.length && isBlank(out.at(-1)!)) out.pop();
  out.push('', question.line.trim());
  const shaped = out.join('\n');
  return shaped.length > reviewShape.maxChars ? null : shaped;
}

/**
 * The facts of a brief for the next meeting with other attendees starting within `withinMs`:
 * the people with what memory holds that names them, and the prep chat's agenda (its first coach
 * message). With `eventId`, the brief of that meeting (a scheduled one). 'no_calendar' /
 * 'no_meeting' when there is nothing to brief (the meeting was cancelled, or has begun).
 */
export async function meetingBriefFacts(deps: GraphDeps, em: EntityManager, userId: number, now: Date, withinMs: number, eventId?: string): Promise<MeetingBriefFacts | 'no_calendar' | 'no_meeting'> {
  const calendar = await openMicrosoft365(deps, em, userId).then((m365) => m365.calendar, () => null);
  if (!calendar) return 'no_calendar';
  const events = await calendar.graph.calendarView({ start: now, end: new Date(now.getTime() + withinMs), timeZone: calendar.timeZone });
  const own = calendar.accountEmail?.toLowerCase();
  const meeting = events
    .map((event) => meetingView(event))
    .filter((m) => m.startAt.getTime() > now.getTime() && m.attendees.some((a) => a.email.toLowerCase() !== own) && (!eventId || m.id.slice(0, 512) === eventId))
    .sort((a, b) => a.startAt.getTime() - b.startAt.getTime())[0];
  if (!meeting) return 'no_meeting';
  // What memory holds of them, none of it sensitive: the brief can be mailed or pushed.
  const memories = (await em.find(Memory, { owner: userId, doneAt: null }, { orderBy: { updatedAt: 'desc' }, limit: 200 })).filter(mayLeaveTheApp);
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
