import type { GoalStatus } from '../../../shared/schemas/goals.js';

// Progress and status, derived, never stored: progress against the time that has
// passed between the goal's creation and its due date. Pure, with the clock passed in.

/** How far a key result has come from its start to its target, 0 to 1 (either direction). */
export function keyResultProgress(kr: { start: number; target: number }, current: number): number {
  const span = kr.target - kr.start;
  if (span === 0) return current === kr.target ? 1 : 0;
  return clamp((current - kr.start) / span);
}

/** The mean of the key results' progress; a goal without key results is 0 until done. */
export function goalProgress(keyResults: number[], done: boolean): number {
  if (done) return 1;
  if (keyResults.length === 0) return 0;
  return keyResults.reduce((sum, p) => sum + p, 0) / keyResults.length;
}

/** When the due date is over (the next midnight, UTC): a goal due today is not late until then. */
export function dueAt(dueDate: string): number {
  return Date.parse(`${dueDate}T00:00:00Z`) + 24 * 60 * 60 * 1000;
}

/** Margins of progress behind the time elapsed: within 10 points on track, within 25 at risk. */
export const statusMargins = { onTrack: 0.1, atRisk: 0.25 } as const;

export function goalStatus(goal: { progress: number; createdAt: Date; dueDate: string; done: boolean }, now: Date): GoalStatus {
  if (goal.done || goal.progress >= 1) return 'done';
  const start = goal.createdAt.getTime();
  const end = dueAt(goal.dueDate);
  if (now.getTime() >= end) return 'behind';
  const expected = end <= start ? 1 : clamp((now.getTime() - start) / (end - start));
  const gap = expected - goal.progress;
  if (gap <= statusMargins.onTrack) return 'on_track';
  if (gap <= statusMargins.atRisk) return 'at_risk';
  return 'behind';
}

function clamp(value: number): number {
  return Math.min(1, Math.max(0, value));
}
