import type { EntityManager } from '@mikro-orm/core';
import type { GoalView } from '../../../shared/schemas/goals.js';
import type { Goal } from '../../db/entities/Goal.js';
import { goalProgress, goalStatus, keyResultProgress } from './goalStatus.js';

// Goals as every client sees them: key results in order, each with its check-ins (oldest first)
// and current value (the latest check-in, else the start), progress and the derived status.
// Three queries whatever the number of goals.
type KeyResultRow = { id: number; goal_id: number; title: string; start: number; target: number; unit: string };
type CheckInRow = { key_result_id: number; value: number; note: string | null; created_at: Date | string };

export async function goalViews(em: EntityManager, goals: Goal[], now = new Date(), history: GoalView['history'] = 'full'): Promise<GoalView[]> {
  if (goals.length === 0) return [];
  // Plain rows, not entities: a long-lived account has thousands of check-ins, and hydrating each
  // as an entity costs far more than the query itself.
  // Inside a transaction (the demo's example review, written in the samples' refresh), in it: on
  // the embedded database a statement outside would wait for the transaction's connection.
  const connection = em.getConnection();
  const tx = em.getTransactionContext();
  const goalIds = goals.map((g) => g.id);
  const keyResults: KeyResultRow[] = await connection.execute(
    `select "id", "goal_id", "title", "start", "target", "unit" from "key_result" where "goal_id" in (?) order by "position", "id"`,
    [goalIds],
    'all',
    tx,
  );
  const checkIns: CheckInRow[] = !keyResults.length
    ? []
    : history === 'full'
      ? await connection.execute(
          `select "key_result_id", "value", "note", "created_at" from "check_in" where "key_result_id" in (?) order by "created_at", "id"`,
          [keyResults.map((kr) => kr.id)],
          'all',
          tx,
        )
      : await connection.execute(
          `select distinct on ("key_result_id") "key_result_id", "value", "note", "created_at" from "check_in"
           where "key_result_id" in (?) order by "key_result_id", "created_at" desc, "id" desc`,
          [keyResults.map((kr) => kr.id)],
          'all',
          tx,
        );
  const checkInsOf = new Map<number, CheckInRow[]>();
  for (const checkIn of checkIns) {
    const list = checkInsOf.get(checkIn.key_result_id);
    if (list) list.push(checkIn);
    else checkInsOf.set(checkIn.key_result_id, [checkIn]);
  }
  const keyResultsOf = new Map<number, KeyResultRow[]>();
  for (const kr of keyResults) {
    const list = keyResultsOf.get(kr.goal_id);
    if (list) list.push(kr);
    else keyResultsOf.set(kr.goal_id, [kr]);
  }
  return goals.map((goal) => {
    const krs = (keyResultsOf.get(goal.id) ?? []).map((kr) => {
      const history = checkInsOf.get(kr.id) ?? [];
      // Double precision arrives as a number from pg and PGlite; Number() keeps the type honest.
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
        checkIns: history.map((c) => ({ value: Number(c.value), note: c.note, createdAt: new Date(c.created_at).toISOString() })),
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
      sample: goal.isSample,
      createdAt: goal.createdAt.toISOString(),
      doneAt: goal.doneAt?.toISOString() ?? null,
      history,
      keyResults: krs,
    };
  });
}
