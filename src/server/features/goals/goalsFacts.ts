import type { EntityManager } from '@mikro-orm/core';
import { Goal } from '../../db/entities/Goal.js';
import type { CoachGoal } from '../../providers/ai/contract.js';
import { goalViews } from './goalViews.js';

// The user's active goals and where their key results stand, handed to the coach: it follows up
// on them, and a number the user reports is logged as a check-in (chatCheckIns.ts) before it answers.

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
