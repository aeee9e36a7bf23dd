// The nudge planner's clock work: 10,000 members' next weekly review (their local Monday 08:30) and
// whether it falls in their quiet hours, through the planner's own functions (nextWeeklyRun,
// inQuietHours), over 5 time zones. Each of these reads the member's wall clock a few times; a
// formatter of a zone is made once and kept (features/meetings/meetingTimes.ts), where it was made
// on every reading. Pure CPU: 5 rounds, each round's time, their median and the worst.
//
// Run: npm run bench:time-zones
import os from 'node:os';
import { inQuietHours, nextWeeklyRun } from '../src/server/features/nudges/schedule.js';

const members = 10_000;
const rounds = 5;
const zones = ['Europe/Paris', 'America/New_York', 'Asia/Tokyo', 'UTC', 'Europe/London'];
const quiet = { start: '20:00', end: '07:00' };
const times: number[] = [];
for (let round = 0; round < rounds; round++) {
  const started = performance.now();
  const now = new Date();
  for (let member = 0; member < members; member++) {
    const zone = zones[member % zones.length]!;
    inQuietHours(nextWeeklyRun(now, zone, 'mon', '08:30'), zone, quiet);
  }
  times.push(performance.now() - started);
}
const sorted = [...times].sort((a, b) => a - b);
console.log(
  `${members.toLocaleString('en-US')} members' next weekly review and quiet hours: rounds ${times.map((ms) => ms.toFixed(0)).join(', ')} ms: median ${sorted[Math.floor(rounds / 2)]!.toFixed(0)} ms, worst ${sorted[rounds - 1]!.toFixed(0)} ms; load ${os.loadavg()[0]!.toFixed(1)}`,
);
