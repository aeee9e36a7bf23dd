import { describe, expect, it } from 'vitest';
import type { GoalView } from '../../../shared/schemas/goals';
import { chartRows, latestCheckIns } from './goalChartData';

// The chart's axis and the table under it: one date format, and each check-in's own
// progress, the same number as the key result's line.
const at = (day: number, hour = 9) => new Date(Date.UTC(2026, 10, day, hour, 0)).toISOString();
const goal: GoalView = {
  id: 1,
  title: 'Ship weekly with fewer incidents',
  framework: 'OKR',
  dueDate: '2027-03-31',
  status: 'on_track',
  progress: 0.6,
  cadence: 'weekly',
  chatId: null,
  sample: false,
  createdAt: at(1),
  doneAt: null,
  history: 'full',
  keyResults: [
    { id: 1, title: 'Deploys per week', start: 2, target: 10, unit: 'deploys', current: 6, progress: 0.5, checkIns: [{ value: 5, note: null, createdAt: at(3) }, { value: 6, note: null, createdAt: at(10) }] },
    // Checked in at the same moment as the deploys (the demo's samples are).
    { id: 2, title: 'Change failure rate', start: 18, target: 8, unit: '%', current: 11, progress: 0.7, checkIns: [{ value: 13, note: null, createdAt: at(3) }, { value: 11, note: null, createdAt: at(10) }, { value: 11, note: null, createdAt: at(10, 19) }] },
  ],
};

describe('a goal’s chart data', () => {
  it('labels every point of the axis with its day alone', () => {
    const labels = chartRows(goal).map((row) => row.label);
    expect(labels.length).toBeGreaterThan(3);
    for (const label of labels) expect(label).toMatch(/^[A-Z][a-z]{2} \d{1,2}$/);
  });

  it('gives each check-in in the table its own progress, as the key result’s line does', () => {
    const rows = latestCheckIns(goal, 10);
    const lastRate = rows.filter((r) => r.keyResult === 'Change failure rate').at(-1)!;
    expect(lastRate.percent).toBe(70);
    expect(rows.find((r) => r.keyResult === 'Change failure rate' && r.value === 13)!.percent).toBe(50);
    expect(rows.filter((r) => r.keyResult === 'Deploys per week').map((r) => r.percent)).toEqual([38, 50]);
  });
});
