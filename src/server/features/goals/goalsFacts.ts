import type { EntityManager } from '@mikro-orm/core';
import { Goal } from '../../db/entities/Goal.js';
import type { CoachGoal } from '../../providers/ai/contract.js';
import type { GoalView } from '../../../shared/schemas/goals.js';
import { goalViews } from './goalViews.js';

// The user's active goals and where their key results stand, handed to the coach: it follows up
// on them, and a number the user reports is logged as a check-in (chatCheckIns.ts) before it answers.

const maxGoals = 10;

/**
 * The active goals the coach works with (the ten due soonest), as views: the coach's turn and the
 * weekly review both read them here, so the review speaks of the goals the coach knows.
 */
export async function loadActiveGoals(em: EntityManager, userId: number, now: Date, history: GoalView['history']): Promise<GoalView[]> {
  const goals = await em.find(Goal, { owner: userId, doneAt: null }, { orderBy: { dueDate: 'asc', id: 'asc' }, limit: maxGoals });
  return goalViews(em, goals, now, history);
}

export async function loadCoachGoals(em: EntityManager, userId: number): Promise<CoachGoal[]> {
  // Only each key result's latest check-in: every coach turn pays for this read.
  return (await loadActiveGoals(em, userId, new Date(), 'latest')).map((goal) => ({
    title: goal.title,
    framework: goal.framework,
    dueDate: goal.dueDate,
    status: goal.status.replace('_', ' '),
    keyResults: goal.keyResults.map((kr) => ({ title: kr.title, current: kr.current, target: kr.target, unit: kr.unit, lastCheckIn: kr.checkIns.at(-1)?.createdAt.slice(0, 10) ?? null })),
  }));
}
