import type { EntityManager } from '@mikro-orm/core';
import type { GoalView } from '../../../shared/schemas/goals.js';
import { CheckIn, Goal, KeyResult } from '../../db/entities/Goal.js';
import { goalProgress, goalStatus, keyResultProgress } from './goalStatus.js';

// Goals as every client sees them: key results in order, each with its check-ins (oldest first)
// and current value (the latest check-in, else the start), progress and the derived status.
// Three queries whatever the number of goals.
export async function goalViews(em: EntityManager, goals: Goal[], now = new Date()): Promise<GoalView[]> {
  if (goals.length === 0) return [];
  const keyResults = await em.find(KeyResult, { goal: { $in: goals.map((g) => g.id) } }, { orderBy: { position: 'asc', id: 'asc' } });
  const checkIns = keyResults.length
    ? await em.find(CheckIn, { keyResult: { $in: keyResults.map((kr) => kr.id) } }, { orderBy: { createdAt: 'asc', id: 'asc' } })
    : [];
  const checkInsOf = new Map<number, CheckIn[]>();
  for (const checkIn of checkIns) {
    const id = (checkIn.keyResult as { id: number }).id;
    const list = checkInsOf.get(id) ?? [];
    list.push(checkIn);
    checkInsOf.set(id, list);
  }
  const keyResultsOf = new Map<number, KeyResult[]>();
  for (const kr of keyResults) {
    const id = (kr.goal as { id: number }).id;
    const list = keyResultsOf.get(id) ?? [];
    list.push(kr);
    keyResultsOf.set(id, list);
  }
  return goals.map((goal) => {
    const krs = (keyResultsOf.get(goal.id) ?? []).map((kr) => {
      const history = checkInsOf.get(kr.id) ?? [];
      // Double precision columns arrive as numbers from pg and PGlite; Number() keeps the type honest.
      const start = Number(kr.start);
      const target = Number(kr.target);
      const current = history.length ? Number(history.at(-1)!.value) : start;
      return {
        id: kr.id,
        title: kr.title,
        start,
        target,
        unit: kr.unit,
        current,
        progress: keyResultProgress({ start, target }, current),
        checkIns: history.map((c) => ({ value: Number(c.value), note: c.note ?? null, createdAt: c.createdAt.toISOString() })),
      };
    });
    const done = goal.doneAt !== null && goal.doneAt !== undefined;
    const progress = goalProgress(krs.map((kr) => kr.progress), done);
    return {
      id: goal.id,
      title: goal.title,
      framework: goal.framework,
      dueDate: goal.dueDate,
      status: goalStatus({ progress, createdAt: goal.createdAt, dueDate: goal.dueDate, done }, now),
      progress,
      cadence: goal.cadence,
      chatId: goal.chat ? (goal.chat as { id: number }).id : null,
      createdAt: goal.createdAt.toISOString(),
      doneAt: goal.doneAt?.toISOString() ?? null,
      keyResults: krs,
    };
  });
}
