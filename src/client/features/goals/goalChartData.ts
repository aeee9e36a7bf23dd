import type { GoalView } from '../../../shared/schemas/goals';
import { keyResultPercent } from '../../../shared/goalProgress';
import { formatDay } from './goalFormat';

// The rows of a goal's progress chart: one row when the goal was set (every key result at its
// start) and one per check-in. Each key result is a series of its progress in percent from its
// start to its target; between its own check-ins it keeps its last value, so every line shows
// where that key result stood at each moment.

export type ChartRow = { label: string; time: number } & Record<string, number | string>;
export type ChartSeries = { name: string; label: string; color: string };

const palette = ['indigo.6', 'teal.6', 'orange.6', 'grape.6', 'cyan.6', 'pink.6', 'lime.7', 'blue.6', 'red.6', 'yellow.7'];
const maxLegendChars = 40;

export function seriesKey(keyResultId: number) {
  return `kr${keyResultId}`;
}

export function chartSeries(goal: GoalView): ChartSeries[] {
  return goal.keyResults.map((kr, i) => ({
    name: seriesKey(kr.id),
    label: kr.title.length > maxLegendChars ? `${kr.title.slice(0, maxLegendChars - 1)}…` : kr.title,
    color: palette[i % palette.length]!,
  }));
}

export function chartRows(goal: GoalView): ChartRow[] {
  const events = goal.keyResults
    .flatMap((kr) => kr.checkIns.map((c) => ({ kr, value: c.value, time: Date.parse(c.createdAt) })))
    .sort((a, b) => a.time - b.time);
  if (events.length === 0) return [];

  const latest: Record<string, number> = {};
  for (const kr of goal.keyResults) latest[seriesKey(kr.id)] = keyResultPercent(kr, kr.start);
  const created = Math.min(Date.parse(goal.createdAt), events[0]!.time);
  const points = [{ time: created, values: { ...latest } }];
  for (const event of events) {
    latest[seriesKey(event.kr.id)] = keyResultPercent(event.kr, event.value);
    points.push({ time: event.time, values: { ...latest } });
  }

  // One date format on the axis ('Nov 3' beside 'Nov 10, 7:53 PM'): the day. Points
  // of the same day share a label; the axis is a category axis, so each keeps its own place, and
  // the table below the chart gives each check-in's time.
  return points.map((p) => ({ label: formatDay(p.time), time: p.time, ...p.values }));
}

export type CheckInRow = { key: string; time: number; keyResult: string; value: number; percent: number };

/**
 * The latest check-ins, newest last, each with its own progress: computed from the check-in's
 * value (the same computation as the key result's line), never looked up in the chart's rows,
 * where two check-ins of the same moment share a time (the table said 50% for a
 * check-in the line showed at 70%).
 */
export function latestCheckIns(goal: GoalView, count: number): CheckInRow[] {
  return goal.keyResults
    .flatMap((kr) =>
      kr.checkIns.map((c) => ({ key: `${kr.id}-${c.createdAt}`, time: Date.parse(c.createdAt), keyResult: kr.title, value: c.value, percent: keyResultPercent(kr, c.value) })),
    )
    .sort((a, b) => a.time - b.time)
    .slice(-count);
}
