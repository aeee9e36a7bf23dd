import { LockMode, type EntityManager } from '@mikro-orm/core';
import type { GoalFramework } from '../../../shared/schemas/goals.js';
import type { MemoryKind } from '../../../shared/schemas/memories.js';
import { CheckIn, Goal, KeyResult } from '../../db/entities/Goal.js';
import { Memory } from '../../db/entities/Memory.js';
import { NudgeRun } from '../../db/entities/Nudge.js';
import { Rehearsal } from '../../db/entities/Rehearsal.js';
import { User } from '../../db/entities/User.js';
import type { AppDeps } from '../../deps.js';
import { writeDemoExamples } from './demoExamples.js';

// The demo template carries a week of sample data beside its four sample chats, so a
// visitor sees the product alive: two goals with a few weeks of check-ins (one with weekly
// check-in reminders), and a handful of memories, one of them a commitment due this week. Every
// row is marked as a sample (isSample), which the screens show. The dates are relative to the
// day the samples were written, so the template's are written again once a day
// (refreshDemoSamples); a visitor's copies are dated from the moment they are made. The sample
// meetings are not stored at all (meetings/sampleMeetings.ts); the example rehearsal and weekly
// review are in demoExamples.ts.

const day = 86_400_000;

type SampleGoal = {
  title: string;
  framework: GoalFramework;
  /** Days since the goal was set, and until it is due. */
  startedDaysAgo: number;
  dueInDays: number;
  cadence: 'weekly' | 'off';
  keyResults: Array<{ title: string; start: number; target: number; unit: string; checkIns: Array<[daysAgo: number, value: number, note: string | null]> }>;
};

const sampleGoals: SampleGoal[] = [
  {
    title: 'Ship weekly with fewer incidents',
    framework: 'OKR',
    startedDaysAgo: 28,
    dueInDays: 63,
    cadence: 'weekly',
    keyResults: [
      {
        title: 'Deploys per week', start: 2, target: 10, unit: 'deploys',
        checkIns: [[21, 3, 'Release train agreed with product'], [14, 4, null], [7, 5, 'Feature flags on the checkout service'], [2, 6, null]],
      },
      {
        title: 'Change failure rate', start: 18, target: 8, unit: '%',
        checkIns: [[21, 17, null], [14, 14, 'Canary deploys on two services'], [7, 13, null], [2, 11, 'Rollback runbook rehearsed']],
      },
    ],
  },
  {
    title: 'Hold a 1:1 with each of my six reports every week this month',
    framework: 'SMART',
    startedDaysAgo: 21,
    dueInDays: 9,
    cadence: 'off',
    keyResults: [
      {
        title: '1:1s held', start: 0, target: 24, unit: '1:1s',
        checkIns: [[14, 6, null], [7, 11, 'Missed one with Tom: offsite'], [1, 16, null]],
      },
    ],
  },
];

type SampleMemory = { text: string; kind: MemoryKind; daysAgo: number; dueInDays?: number };

const sampleMemories: SampleMemory[] = [
  { text: 'Priya Shah is a senior engineer on my team and wants to become a tech lead this year.', kind: 'person', daysAgo: 20 },
  { text: 'Elena Rossi is my manager (VP Engineering); she cares most about predictable releases.', kind: 'person', daysAgo: 18 },
  { text: 'I prefer short agendas with time boxes and one clear outcome per meeting.', kind: 'preference', daysAgo: 12 },
  { text: 'My team is moving from monthly to weekly releases this quarter.', kind: 'fact', daysAgo: 9 },
  { text: "Send Priya written feedback on her promotion case before our 1:1.", kind: 'commitment', daysAgo: 3, dueInDays: 2 },
];

const isoDate = (at: number) => new Date(at).toISOString().slice(0, 10);

// A sample's dates, relative to `now`: the same when the samples are written and when the
// template's are dated anew.
const goalDates = (sample: SampleGoal, now: number) => {
  const createdAt = new Date(now - sample.startedDaysAgo * day);
  return { dueDate: isoDate(now + sample.dueInDays * day), createdAt, updatedAt: createdAt };
};
const memoryDates = (sample: SampleMemory, now: number) => {
  const createdAt = new Date(now - sample.daysAgo * day);
  return { dueAt: sample.dueInDays === undefined ? null : new Date(now + sample.dueInDays * day), createdAt, updatedAt: createdAt };
};
function writeCheckIns(em: EntityManager, keyResult: KeyResult, checkIns: SampleGoal['keyResults'][number]['checkIns'], now: number) {
  for (const [daysAgo, value, note] of checkIns) em.create(CheckIn, { keyResult, value, note, createdAt: new Date(now - daysAgo * day) });
}

/** Writes the sample goals and memories for `owner`, dated from `now`. */
export async function writeDemoSamples(em: EntityManager, owner: User, now = Date.now(), options: { remindersFrom?: number } = {}): Promise<{ goals: Goal[]; memories: Memory[] }> {
  const goals: Goal[] = [];
  const memories: Memory[] = [];
  for (const sample of sampleGoals) {
    const goal = em.create(Goal, {
      owner,
      framework: sample.framework,
      title: sample.title,
      ...goalDates(sample, now),
      cadence: sample.cadence,
      // The template is never reminded (a reminder is shown, and marking it seen is a write); a
      // visitor's copy is, from the day given.
      nextReminderAt: sample.cadence === 'weekly' && options.remindersFrom !== undefined ? new Date(options.remindersFrom) : null,
      isSample: true,
    });
    goals.push(goal);
    for (const [position, kr] of sample.keyResults.entries()) {
      const keyResult = em.create(KeyResult, { goal, position, title: kr.title, start: kr.start, target: kr.target, unit: kr.unit });
      writeCheckIns(em, keyResult, kr.checkIns, now);
    }
  }
  for (const sample of sampleMemories) {
    const memory = em.create(Memory, { owner, text: sample.text, kind: sample.kind, ...memoryDates(sample, now), isSample: true });
    memories.push(memory);
  }
  await em.flush();
  return { goals, memories };
}

/**
 * A visitor's own copy of the samples, made with their guest space (inside its transaction): dated
 * from now, each remembering the template's row it copies (sampleOf), so the template's ids keep
 * naming the copies (trpc/sampleCopies.ts).
 */
export async function copyDemoSamples(em: EntityManager, templateId: number, guest: User, now = Date.now()): Promise<void> {
  const copies = await writeDemoSamples(em, guest, now, { remindersFrom: now + 2 * day });
  const goals = await em.find(Goal, { owner: templateId, isSample: true }, { fields: ['id', 'title'] });
  const memories = await em.find(Memory, { owner: templateId, isSample: true }, { fields: ['id', 'text'] });
  for (const goal of copies.goals) goal.sampleOf = goals.find((g) => g.title === goal.title)?.id ?? null;
  for (const memory of copies.memories) memory.sampleOf = memories.find((m) => m.text === memory.text)?.id ?? null;
  await em.flush();
}

/**
 * The template's samples dated anew from `now` where they are: each goal, key result and memory
 * keeps its id, so a page a visitor loaded before the daily refresh still names them (their first
 * write maps the template's ids to their copies, trpc/sampleCopies.ts); the check-ins are written again.
 * False, changing nothing, when the rows are not the samples as written (some missing or extra):
 * they are then written anew.
 */
async function redateTemplateSamples(em: EntityManager, ownerId: number, now: number): Promise<boolean> {
  const goals = await em.find(Goal, { owner: ownerId, isSample: true });
  const memories = await em.find(Memory, { owner: ownerId, isSample: true });
  const keyResults = goals.length === 0 ? [] : await em.find(KeyResult, { goal: goals.map((goal) => goal.id) });
  const goalOf = (sample: SampleGoal) => goals.find((goal) => goal.title === sample.title);
  const keyResultOf = (goal: Goal, position: number) => keyResults.find((kr) => kr.goal.id === goal.id && kr.position === position);
  const asWritten =
    goals.length === sampleGoals.length &&
    keyResults.length === sampleGoals.reduce((sum, sample) => sum + sample.keyResults.length, 0) &&
    sampleGoals.every((sample) => {
      const goal = goalOf(sample);
      return goal !== undefined && sample.keyResults.every((_, position) => keyResultOf(goal, position) !== undefined);
    }) &&
    memories.length === sampleMemories.length &&
    sampleMemories.every((sample) => memories.some((memory) => memory.text === sample.text));
  if (!asWritten) return false;
  await em.nativeDelete(CheckIn, { keyResult: keyResults.map((kr) => kr.id) });
  for (const sample of sampleGoals) {
    const goal = goalOf(sample)!;
    // Native updates: the entity's updatedAt hook would date the row now, not with the sample.
    await em.nativeUpdate(Goal, { id: goal.id }, goalDates(sample, now));
    for (const [position, kr] of sample.keyResults.entries()) writeCheckIns(em, keyResultOf(goal, position)!, kr.checkIns, now);
  }
  for (const sample of sampleMemories) {
    const memory = memories.find((row) => row.text === sample.text)!;
    await em.nativeUpdate(Memory, { id: memory.id }, memoryDates(sample, now));
  }
  await em.flush();
  return true;
}

/**
 * The template's samples, written when missing and dated anew, in place, once they are a day old
 * (their dates are relative: the commitment stays due this week). Instances starting together take
 * the template's row lock in turn; the second finds the samples fresh. The example rehearsal and
 * weekly review (demoExamples.ts) are written when missing and dated anew with the samples.
 */
export async function refreshDemoSamples(deps: Pick<AppDeps, 'config' | 'orm' | 'log' | 'sessions' | 'microsoft'>, now = Date.now()): Promise<boolean> {
  return deps.orm.em.fork().transactional(async (tx) => {
    const demo = await tx.findOne(User, { isDemo: true }, { lockMode: LockMode.PESSIMISTIC_WRITE, fields: ['id'] });
    if (!demo) return false;
    const demoId = demo.id;
    const oldest = sampleGoals[0]!;
    const fresh = await tx.count(Goal, { owner: demoId, isSample: true, createdAt: { $gt: new Date(now - (oldest.startedDaysAgo + 1) * day) } });
    const examples = (await tx.count(Rehearsal, { owner: demoId, isSample: true })) > 0 && (await tx.count(NudgeRun, { owner: demoId, isSample: true })) > 0;
    if (fresh >= sampleGoals.length && examples) return false;
    const owner = await tx.findOneOrFail(User, demoId);
    if (fresh < sampleGoals.length && !(await redateTemplateSamples(tx, demoId, now))) {
      await tx.nativeDelete(Goal, { owner: demoId, isSample: true });
      await tx.nativeDelete(Memory, { owner: demoId, isSample: true });
      await writeDemoSamples(tx, owner, now);
    }
    await writeDemoExamples(deps, tx, owner, now);
    return true;
  });
}
