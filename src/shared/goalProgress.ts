// How far a goal has come: one computation for the server (the goal's
// progress and status) and the client (the key result's line, the chart and its table), so
// that every place shows the same number for the same check-in. Pure.

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

/** A progress (0 to 1) as a whole percent, 0 to 100. */
export function percentOf(progress: number): number {
  return Math.round(clamp(progress) * 100);
}

/** Where a value of a key result stands, in whole percent from its start to its target. */
export function keyResultPercent(kr: { start: number; target: number }, value: number): number {
  return percentOf(keyResultProgress(kr, value));
}

function clamp(value: number): number {
  return Math.min(1, Math.max(0, value));
}
