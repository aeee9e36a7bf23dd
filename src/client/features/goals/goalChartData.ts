import type { GoalView } from '../../../shared/schemas/goals';
import { formatDay, formatTime, percentOf } from './goalFormat';

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

function progressOf(kr: { start: number; target: number }, value: number): number {
  const span = kr.target - kr.start;
  return span === 0 ? (value === kr.target ? 100 : 0) : percentOf((value - kr.start) / span);
}

export function chartRows(goal: GoalView): ChartRow[] {
  const events = goal.keyResults
    .flatMap((kr) => kr.checkIns.map((c) => ({ kr, value: c.value, time: Date.parse(c.createdAt) })))
    .sort((a, b) => a.time - b.time);
  if (events.length === 0) return [];

  const latest: Record<string, number> = {};
  for (const kr of goal.keyResults) latest[seriesKey(kr.id)] = progressOf(kr, kr.start);
  const created = Math.min(Date.parse(goal.createdAt), events[0]!.time);
  const points = [{ time: created, values: { ...latest } }];
  for (const event of events) {
    latest[seriesKey(event.kr.id)] = progressOf(event.kr, event.value);
    points.push({ time: event.time, values: { ...latest } });
  }

  // Days with more than one point name the time too. Points may still share a label (check-ins
  // in the same minute): the axis is a category axis, so each keeps its own place.
  const perDay = new Map<string, number>();
  const days = points.map((p) => formatDay(p.time));
  for (const day of days) perDay.set(day, (perDay.get(day) ?? 0) + 1);
  return points.map((p, i) => {
    const day = days[i] ?? '';
    const label = (perDay.get(day) ?? 0) > 1 ? `${day}, ${formatTime(p.time)}` : day;
    return { label, time: p.time, ...p.values };
  });
}
