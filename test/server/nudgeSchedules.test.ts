import { TestClock } from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { NudgeRun } from '../../src/server/db/entities/Nudge.js';
import { signUp } from '../helpers/clients.js';
import { freshDatabase, type FreshDatabase } from '../helpers/database.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// The nudges' planning runs on pg-boss's schedules and workers: the queue's own timers, moved by
// its TestClock, plan the weekly review of a user who has none planned when the hour comes.

vi.setConfig({ testTimeout: 60_000 });

let database: FreshDatabase;
let server: TestServer;
const queueClock = new TestClock(new Date('2026-06-01T09:57:00Z'));

beforeAll(async () => {
  database = await freshDatabase();
  server = await startTestServer({ DEMO_MODE: 'false' }, database, { queueClock });
  await server.deps.nudges.firstRun;
});
afterAll(async () => {
  await server?.stop();
  await database?.dispose();
});

describe('the nudges planning on the queue', () => {
  it('keeps its schedules in the queue: the reviews hourly, the briefs every 10 minutes', async () => {
    const schedules = await server.deps.orm.em.fork().getConnection().execute(`select "name", "cron" from "pgboss"."schedule" where "name" like 'nudge-%' order by "name"`);
    expect(schedules).toEqual([{ name: 'nudge-plan-briefs', cron: '*/10 * * * *' }, { name: 'nudge-plan-reviews', cron: '0 * * * *' }]);
  });

  it('plans on the hour the weekly review of a user who has none, by the queue alone', async () => {
    const { user } = await signUp(server.url, `sched_${Date.now() % 100000}`);
    const planned = () => server.deps.orm.em.fork().find(NudgeRun, { owner: user.id, kind: 'weekly_review', status: 'queued', trigger: 'scheduled' });
    expect(await planned()).toHaveLength(0);
    // 09:57 to 10:02: the hour's schedule comes due, and the planning worker's poll fetches its job.
    for (let minute = 0; minute < 5; minute++) {
      await queueClock.tick(60_000);
      if ((await planned()).length) break;
    }
    await expect.poll(async () => (await planned()).length, { timeout: 10_000 }).toBe(1);
    const [run] = await planned();
    expect(run!.dueAt.toISOString()).toBe('2026-06-08T08:30:00.000Z'); // next Monday 08:30 (UTC)
  });
});
