import type { EntityManager } from '@mikro-orm/core';
import { computeReport, type TranscriptTurn } from '../../../shared/rehearsalReport.js';
import type { RehearsalReport } from '../../../shared/schemas/rehearsals.js';
import { nudgesTexts } from '../../../shared/texts/nudges.js';
import { rehearsalTexts } from '../../../shared/texts/rehearsals.js';
import { Chat } from '../../db/entities/Chat.js';
import { Message } from '../../db/entities/Message.js';
import { NudgeRun } from '../../db/entities/Nudge.js';
import { Rehearsal } from '../../db/entities/Rehearsal.js';
import type { User } from '../../db/entities/User.js';
import type { AppDeps } from '../../deps.js';
import type { JudgeInput } from '../../providers/ai/rehearsalJudge.js';
import { sampleWeek } from '../meetings/index.js';
import { chooseFocus, renderWeeklyReview, routineMeeting, weeklyReviewFacts, type ReviewMeeting } from '../nudges/index.js';
import { computeChecks } from '../../../shared/rehearsalChecks.js';
import { offlineJudgement } from '../rehearsals/index.js';
import { setUpOf } from '../rehearsals/index.js';
import { reportText } from '../rehearsals/index.js';

// Beside its sample chats, goals and memories (demoWeek.ts), the demo template carries
// one finished example of each of the coach's newer moves, marked as samples:
//
// - a rehearsal with Priya (the person of the sample memories and meetings): a few turns with the
//   counterpart and the report after them, computed from those turns by the same code as any
//   rehearsal's (shared/rehearsalReport.ts) and judged by the offline judge (rehearsals/judge.ts);
// - a weekly review ('Weekly review: {date}'): its chat with the first coach message, written from
//   the template's sample goals, memories and sample week by the code that writes real reviews
//   (nudges/nudgeContent.ts), and a sent run in the history (a row written here through the
//   entity, never queued: the queue claims only 'queued' runs).
//
// Their chats are written once and then kept under the same ids (a visitor's links and the
// principal's list of the template's chats stay valid); the daily refresh dates them anew in
// place and writes the review again from the day's samples. A visitor's guest space copies them
// with the rest (copyDemoExamples), pointing at the copied chats.

const day = 86_400_000;
const reviewTimeZone = 'UTC';

const rehearsalSetUp = {
  counterpartName: 'Priya Shah',
  counterpartRole: 'Senior engineer',
  counterpartRelationship: 'direct report',
  counterpartEmail: null,
  situation:
    'Priya asked to be put forward for tech lead this cycle. Her delivery is strong, but two design reviews she owned slipped this quarter, and the promotion committee wants to see her lead one end to end. I have to tell her the case waits one more cycle.',
  goal: 'Priya hears why her case waits a cycle, and we agree on a design review she leads before the next committee.',
  difficulty: 'realistic' as const,
  meetingId: null,
  retryOf: null,
};

const rehearsalTurns: TranscriptTurn[] = [
  { role: 'user', content: 'Thanks for making time, Priya. I want to talk about your promotion case before I write my feedback down.' },
  { role: 'counterpart', content: "Sure. I was hoping for good news. I've shipped everything I committed to this quarter." },
  {
    role: 'user',
    content:
      'You have, and the committee saw that. I mean, basically the case is strong on delivery, but it waits one more cycle: they want to see you lead a design review end to end.',
  },
  { role: 'counterpart', content: "That's frustrating. Two of those reviews slipped because I was covering on-call for the platform team, not because I couldn't run them." },
  { role: 'user', content: 'That is fair, and I should have taken on-call off your plate sooner. What would help you lead the storage migration review next month?' },
  { role: 'counterpart', content: "Someone else on the rotation, and a date that doesn't move. With that I can have the design doc out in two weeks." },
  { role: 'user', content: "Deal. I'll take you off on-call from Monday and put the review in the calendar. Can we agree to go through your draft together next Thursday?" },
  { role: 'counterpart', content: "OK, Thursday works. I'd like that in writing, though." },
];

/** The example rehearsal's report: computed from its turns and judged offline, as POST /api/rehearsals/{id}/feedback would. */
export function sampleRehearsalReport(at: Date): RehearsalReport {
  const computed = computeReport(rehearsalTurns);
  const input: JudgeInput = {
    transcript: rehearsalTurns,
    goal: rehearsalSetUp.goal,
    situation: rehearsalSetUp.situation,
    counterpart: { name: rehearsalSetUp.counterpartName, role: rehearsalSetUp.counterpartRole, relationship: rehearsalSetUp.counterpartRelationship },
    difficulty: rehearsalSetUp.difficulty,
  };
  const checked = computeChecks(rehearsalTurns, rehearsalSetUp.goal);
  return { ...computed, ...checked, judged: offlineJudgement(input, computed, checked.checks), createdAt: at.toISOString() };
}

/** The example weekly review at `now`: the template's facts, with the sample week standing in for a calendar. */
async function sampleReview(deps: Pick<AppDeps, 'config' | 'log' | 'sessions' | 'microsoft'>, em: EntityManager, owner: User, now: Date): Promise<{ title: string; content: string }> {
  const facts = await weeklyReviewFacts(deps, em, owner.id, now, reviewTimeZone);
  const meetings: ReviewMeeting[] = sampleWeek(owner, reviewTimeZone, 7, now.getTime()).map((m) => ({
    subject: m.subject,
    startAt: m.startAt,
    attendees: m.attendees.filter((a) => a.name !== owner.fullName).map((a) => a.name || a.email),
    routine: routineMeeting(m.subject, false),
  }));
  const withWeek = { ...facts, unpreparedMeetings: meetings, focus: chooseFocus(facts.goals, facts.commitments, meetings) };
  return { title: nudgesTexts.weeklyReviewTitle(facts.date).slice(0, 200), content: renderWeeklyReview(withWeek) };
}

/**
 * Writes the template's examples when missing, and dates them from `now` (the review written again
 * from the day's samples). Inside the refresh's transaction, after the sample goals and memories.
 */
export async function writeDemoExamples(deps: Pick<AppDeps, 'config' | 'log' | 'sessions' | 'microsoft'>, em: EntityManager, owner: User, now = Date.now()): Promise<void> {
  const at = new Date(now);
  const rehearsedAt = new Date(now - 2 * day);

  const rehearsal = await em.findOne(Rehearsal, { owner: owner.id, isSample: true }, { populate: ['chat'] });
  if (!rehearsal) {
    const chat = em.create(Chat, { owner, title: rehearsalTexts.chatTitle(rehearsalSetUp.counterpartName), isPinned: false, isTemporary: false, isRehearsal: true, createdAt: rehearsedAt, updatedAt: rehearsedAt });
    for (const [i, turn] of rehearsalTurns.entries()) {
      em.create(Message, { chat, role: turn.role === 'user' ? 'user' : 'assistant', content: turn.content, status: 'complete', createdAt: new Date(rehearsedAt.getTime() + i * 20_000) });
    }
    const report = sampleRehearsalReport(new Date(rehearsedAt.getTime() + rehearsalTurns.length * 20_000));
    const posted = em.create(Message, { chat, role: 'assistant', content: reportText(report), status: 'complete', createdAt: new Date(report.createdAt) });
    await em.flush();
    em.create(Rehearsal, { owner, chat, ...rehearsalSetUp, report, reportMessageIds: [posted.id], isSample: true, createdAt: rehearsedAt });
  } else {
    rehearsal.createdAt = rehearsedAt;
    rehearsal.chat.createdAt = rehearsedAt;
    rehearsal.chat.updatedAt = rehearsedAt;
    if (rehearsal.report) rehearsal.report = { ...rehearsal.report, createdAt: new Date(rehearsedAt.getTime() + rehearsalTurns.length * 20_000).toISOString() };
  }
  await em.flush();

  const review = await sampleReview(deps, em, owner, at);
  const run = await em.findOne(NudgeRun, { owner: owner.id, isSample: true }, { populate: ['chat'] });
  const chat = run?.chat ?? em.create(Chat, { owner, title: review.title, isPinned: false, isTemporary: false, createdAt: at, updatedAt: at });
  Object.assign(chat, { title: review.title, createdAt: at, updatedAt: at });
  const message = run?.chat ? await em.findOne(Message, { chat: run.chat.id, role: 'assistant' }, { orderBy: { id: 'asc' } }) : null;
  if (message) Object.assign(message, { content: review.content, createdAt: at });
  else em.create(Message, { chat, role: 'assistant', content: review.content, status: 'complete', createdAt: at });
  if (run) Object.assign(run, { chat, createdAt: at, dueAt: at, updatedAt: at });
  else em.create(NudgeRun, { owner, kind: 'weekly_review', status: 'sent', trigger: 'scheduled', channels: ['app'], reason: null, chat, dueAt: at, attempts: 1, isSample: true, createdAt: at, updatedAt: at });
  await em.flush();
}

/**
 * A visitor's copies of the template's examples, made with their guest space (inside its
 * transaction), after the template's chats were copied: `chats` and `messages` map the template's
 * ids to the copies.
 */
export async function copyDemoExamples(em: EntityManager, templateId: number, guest: User, chats: ReadonlyMap<number, Chat>, messages: ReadonlyMap<number, Message>): Promise<void> {
  for (const rehearsal of await em.find(Rehearsal, { owner: templateId, isSample: true })) {
    const chat = chats.get(rehearsal.chat.id);
    if (!chat) continue;
    em.create(Rehearsal, {
      owner: guest,
      chat,
      ...setUpOf(rehearsal, null),
      report: rehearsal.report ?? null,
      reportMessageIds: (rehearsal.reportMessageIds ?? []).flatMap((id) => {
        const copy = messages.get(id);
        return copy ? [copy.id] : [];
      }),
      isSample: true,
      sampleOf: rehearsal.id,
      createdAt: rehearsal.createdAt,
    });
  }
  for (const run of await em.find(NudgeRun, { owner: templateId, isSample: true })) {
    em.create(NudgeRun, {
      owner: guest,
      kind: run.kind,
      status: run.status,
      trigger: run.trigger,
      channels: run.channels,
      reason: run.reason ?? null,
      chat: run.chat ? (chats.get(run.chat.id) ?? null) : null,
      dueAt: run.dueAt,
      attempts: run.attempts,
      isSample: true,
      createdAt: run.createdAt,
      updatedAt: run.updatedAt,
    });
  }
  await em.flush();
}
