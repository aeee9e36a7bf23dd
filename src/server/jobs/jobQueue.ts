import type { MikroORM } from '@mikro-orm/core';
import { fromPglite, PgBoss, systemClock, type Clock, type PGliteLike } from 'pg-boss';
import type { Logger } from 'pino';
import type { DatabaseTarget } from '../db/embedded.js';

// The durable job queue: pg-boss, in the application's own database, on PostgreSQL and
// on the embedded PGlite alike. Its jobs live in the `pgboss` schema: each has the time it may
// start (`startAfter`), a singleton key so a job is queued once however many instances send it,
// and retries with back-off. Due is decided by the database's clock (pg-boss's job_now()), which
// a test moves with pg-boss's TestClock (`clock`).
//
// On PGlite pg-boss shares the one connection of the embedded database (its worker thread,
// db/pgliteClient.ts), through pg-boss's own PGlite adapter; on PostgreSQL it keeps a small pool
// of its own.

export const queueNames = {
  /** A planned or asked-for nudge run: `{ runId }` (features/nudges/nudgeWorker.ts). */
  nudgeRun: 'nudge-run',
  /** The weekly reviews not planned, and the runs without a job, planned hourly (features/nudges/nudgePlans.ts). */
  nudgePlanReviews: 'nudge-plan-reviews',
  /** The briefs of the meetings coming up, planned every 10 minutes (features/nudges/nudgePlans.ts). */
  nudgePlanBriefs: 'nudge-plan-briefs',
  /** The goal check-in reminders' sweep, each minute (features/goals/goalReminders.ts). */
  goalReminders: 'goal-reminders',
  /** An automatic debrief of one ended meeting: `{ userId, eventId }` (features/debriefs/autoDebriefs.ts). */
  debriefMeeting: 'debrief-meeting',
} as const;

export type JobQueue = {
  boss: PgBoss;
  clock: Clock;
  stop(): Promise<void>;
};

const common = {
  schema: 'pgboss',
  // The instance registry and the queue statistics are not used: fewer writes.
  registerInstance: false,
  persistQueueStats: false,
  persistWarnings: false,
  monitorVacuum: false,
  reindex: false,
} as const;

/**
 * Installs pg-boss's schema and the app's queues in a new embedded database (build time, for the
 * first-start image, and the tests' template), so a first start does not spend its time on it.
 */
export async function installJobQueue(pglite: PGliteLike): Promise<void> {
  const boss = new PgBoss({ ...common, backend: 'pglite', db: fromPglite(pglite), supervise: false, schedule: false });
  await boss.start();
  await createQueues(boss);
  await boss.stop({ graceful: false });
}

/** The same on a PostgreSQL database (the tests' template database). */
export async function installJobQueueAt(connectionString: string): Promise<void> {
  const boss = new PgBoss({ ...common, connectionString, max: 1, supervise: false, schedule: false });
  await boss.start();
  await createQueues(boss);
  await boss.stop({ graceful: false });
}

export async function startJobQueue(options: { target: DatabaseTarget; orm: MikroORM; log: Logger; clock?: Clock }): Promise<JobQueue> {
  const { target, orm, log } = options;
  const clock = options.clock ?? systemClock;
  const boss =
    target.kind === 'postgresql'
      ? new PgBoss({ ...common, clock, connectionString: target.url, max: 3, application_name: 'ai-coach-jobs' })
      : new PgBoss({ ...common, clock, backend: 'pglite', db: fromPglite((await orm.em.getConnection().getNativeClient()) as unknown as PGliteLike) });
  boss.on('error', (error) => log.warn({ err: error }, 'the job queue reported an error'));
  await boss.start();
  await createQueues(boss);
  return {
    boss,
    clock,
    stop: () => boss.stop({ graceful: true, timeout: 10_000 }),
  };
}

async function createQueues(boss: PgBoss): Promise<void> {
  // One job per planned nudge run: 'stately' keeps one queued and one active job per singleton key
  // (the run), so a run sent twice (planning on two instances, a sweep after a crash) is queued
  // once. A failed delivery is retried 4 times, after about 1, 2, 4 and 8 minutes (pg-boss's
  // exponential back-off, with jitter); an instance that died mid-run gives its job back after 5
  // minutes.
  await boss.createQueue(queueNames.nudgeRun, { policy: 'stately', retryLimit: 4, retryDelay: 60, retryBackoff: true, retryDelayMax: 600, expireInSeconds: 300 });
  await boss.createQueue(queueNames.goalReminders, { policy: 'stately', retryLimit: 2, retryDelay: 30, expireInSeconds: 300 });
  // The nudges' planning, on its schedule: one job at a time, for all instances.
  await boss.createQueue(queueNames.nudgePlanReviews, { policy: 'stately', retryLimit: 2, retryDelay: 60, expireInSeconds: 900 });
  await boss.createQueue(queueNames.nudgePlanBriefs, { policy: 'stately', retryLimit: 1, retryDelay: 60, expireInSeconds: 600 });
  // A transcript Teams has not finished yet is asked for again after about 5, 10, 20, 40 and then
  // every 60 minutes (exponential back-off with jitter), 8 times, then given up.
  await boss.createQueue(queueNames.debriefMeeting, { policy: 'stately', retryLimit: 8, retryDelay: 300, retryBackoff: true, retryDelayMax: 3600, expireInSeconds: 300 });
}
