import type { GoalStatus } from '../../../shared/schemas/goals.js';

// Progress and status, derived, never stored: progress against the time that has
// passed between the goal's creation and its due date. Pure, with the clock passed in. The
// progress itself is computed in src/shared/goalProgress.ts, which the client shares.
export { goalProgress, keyResultProgress } from '../../../shared/goalProgress.js';

/** When the due date is over (the next midnight, UTC): a goal due today is not late until then. */
export function dueAt(dueDate: string): number {
  return Date.parse(`${dueDate}T00:00:00Z`) + 24 * 60 * 60 * 1000;
}

/** Margins of progress behind the time elapsed: within 10 points on track, within 25 at risk. */
export const statusMargins = { onTrack: 0.1, atRisk: 0.25 } as const;

/**
 * Done; else, past its due date, behind; else by the gap between the time elapsed and the
 * progress. A goal with no progress at all is not started while the time elapsed is still within
 * the on-track margin ('On track' at 0% would say what had not happened), then at risk or behind.
 */
export function goalStatus(goal: { progress: number; createdAt: Date; dueDate: string; done: boolean }, now: Date): GoalStatus {
  if (goal.done || goal.progress >= 1) return 'done';
  const start = goal.createdAt.getTime();
  const end = dueAt(goal.dueDate);
  if (now.getTime() >= end) return 'behind';
  const expected = end <= start ? 1 : Math.min(1, Math.max(0, (now.getTime() - start) / (end - start)));
  const gap = expected - goal.progress;
  if (gap <= statusMargins.onTrack) return goal.progress <= 0 ? 'not_started' : 'on_track';
  if (gap <= statusMargins.atRisk) return 'at_risk';
  return 'behind';
}
