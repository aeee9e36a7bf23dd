import type { QueryClient } from '@tanstack/react-query';
import type { GoalView } from '../../../shared/schemas/goals';
import { trpc } from '../../lib/trpc';

// The goals list is read once and then kept in step with each change's answer (the goal as the
// server now sees it), so a check-in or an edit shows at once without reading every goal again.
// The list holds each key result's latest check-in only; a goal's whole history is read when its
// chart comes into view (goalHistoryOptions), so a page of many long-lived goals opens fast.

const listInput = { history: 'latest' } as const;

export function goalsQueryOptions() {
  return trpc.goals.list.queryOptions(listInput);
}

export function goalHistoryOptions(goalId: number) {
  return trpc.goals.get.queryOptions({ goalId });
}

/** Replaces a goal in the cached list, or adds it (a new goal, or one saved from a chat). */
export function upsertGoal(queryClient: QueryClient, goal: GoalView) {
  // A change answers the goal with its whole history: its chart has it at once.
  if (goal.history === 'full') queryClient.setQueryData(trpc.goals.get.queryKey({ goalId: goal.id }), goal);
  queryClient.setQueryData(trpc.goals.list.queryKey(listInput), (data) => {
    if (!data) return data;
    const index = data.goals.findIndex((g) => g.id === goal.id);
    const goals = data.goals.slice();
    if (index === -1) goals.push(goal);
    else goals[index] = goal;
    return { ...data, goals };
  });
}

export function dropGoal(queryClient: QueryClient, goalId: number) {
  queryClient.setQueryData(trpc.goals.list.queryKey(listInput), (data) => (data ? { ...data, goals: data.goals.filter((g) => g.id !== goalId) } : data));
}

/** Active goals first (soonest due first), then the done ones (in the order they were done). */
export function splitGoals(goals: GoalView[]): { active: GoalView[]; done: GoalView[] } {
  const active = goals.filter((g) => !g.doneAt).sort((a, b) => a.dueDate.localeCompare(b.dueDate) || a.id - b.id);
  const done = goals.filter((g) => g.doneAt).sort((a, b) => (a.doneAt ?? '').localeCompare(b.doneAt ?? '') || a.id - b.id);
  return { active, done };
}
