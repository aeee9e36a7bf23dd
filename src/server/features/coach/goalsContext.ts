import type { EntityManager } from '@mikro-orm/core';
import type { ChatTurn } from '../../providers/ai/types.js';
import { Goal } from '../../db/entities/Goal.js';
import { goalViews } from '../goals/goalViews.js';

// The user's active goals and where their key results stand (issue 12), for the coach's context:
// the coach follows up on them, and a number the user reports is logged as a check-in
// (goals/chatCheckIns.ts) before the coach answers.

export type CoachGoal = {
  title: string;
  framework: string;
  dueDate: string;
  status: string;
  keyResults: Array<{ title: string; current: number; target: number; unit: string; lastCheckIn: string | null }>;
};

const maxGoals = 10;

export async function loadCoachGoals(em: EntityManager, userId: number): Promise<CoachGoal[]> {
  const goals = await em.find(Goal, { owner: userId, doneAt: null }, { orderBy: { dueDate: 'asc', id: 'asc' }, limit: maxGoals });
  // Only each key result's latest check-in: every coach turn pays for this read.
  return (await goalViews(em, goals, new Date(), 'latest')).map((goal) => ({
    title: goal.title,
    framework: goal.framework,
    dueDate: goal.dueDate,
    status: goal.status.replace('_', ' '),
    keyResults: goal.keyResults.map((kr) => ({ title: kr.title, current: kr.current, target: kr.target, unit: kr.unit, lastCheckIn: kr.checkIns.at(-1)?.createdAt.slice(0, 10) ?? null })),
  }));
}

export function goalsTurns(goals: CoachGoal[] | null | undefined): ChatTurn[] {
  if (!goals?.length) return [];
  const lines = goals.map((goal) => {
    const krs = goal.keyResults.map((kr) => `  - ${kr.title}: ${kr.current} of ${kr.target}${kr.unit ? ` ${kr.unit}` : ''} (last check-in: ${kr.lastCheckIn ?? 'none yet'})`);
    return [`- ${goal.title} (${goal.framework}, due ${goal.dueDate}, ${goal.status})`, ...krs].join('\n');
  });
  return [
    {
      role: 'system',
      content:
        `The user's active goals, saved from earlier coaching:\n${lines.join('\n')}\n` +
        'Follow up on them where it helps. When the user reports where a key result stands, it has already been logged as a check-in: acknowledge it and coach on what it means.',
    },
  ];
}
