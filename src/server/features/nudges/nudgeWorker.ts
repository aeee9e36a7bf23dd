import type { Logger } from 'pino';
import type { JobWithMetadata } from 'pg-boss';
import { NudgeRun } from '../../db/entities/Nudge.js';
import type { AppDeps } from '../../deps.js';
import { queueNames, type JobQueue } from '../../jobs/jobQueue.js';
import { planMeetingBriefs, planMissingReviews, planProgramNudges } from './nudgePlans.js';
import type { NudgeClock, NudgeQueue, RunSender } from './nudgeQueuePort.js';
import { processRun } from './nudgeRun.js';

// Nudge runs are jobs of the durable job queue (pg-boss, jobs/jobQueue.ts): a planned or asked-for
// run (nudgePlans.ts) is a job of the 'nudge-run' queue that starts at the run's due time, with the
// run as its singleton key. pg-boss's own workers run them (nudgeRun.ts): it hands a due job to one
// instance only (however many run), keeps it through a restart (a job that came due while every
// instance was down is fetched by the first fetch after start), retries a failed delivery with
// back-off and gives back the job of an instance that died mid-run. The queue decides what is due
// by the database's clock (job_now()); tests move it with pg-boss's TestClock, and the runs' clock
// (quiet hours, the weekly cap, the plans) reads the same clock, so both agree.
//
// An instance has 20 workers on the queue, each fetching one run at a time: 20 runs at once at
// most, and one user's slow delivery holds only its own worker. A run now wakes the idle workers,
// so it is fetched at once whatever else is under way. The planning runs on pg-boss schedules (one
// instance per occurrence): the weekly reviews not planned hourly, the meeting briefs every 10
// minutes; each instance plans once at start too.

export type { NudgeClock, RunSender } from './nudgeQueuePort.js';

/** The worker: the port the features call (nudgeQueuePort.ts), and what the jobs and tests drive. */
export type NudgeWorker = NudgeQueue & {
  /** The address this server listens on (known once it listens): links in emails when PUBLIC_URL is unset. */
  baseUrl(): string;
  /** Wakes the workers and resolves once no run is due or under way; resolves with how many runs this instance ran meanwhile. */
  tick(): Promise<number>;
  /** Plans the weekly review of users who have none planned, and queues the job of every queued run that has none (at start, then hourly). */
  planMissing(): Promise<number>;
  /** Plans the briefs of meetings coming up (at start, then every 10 minutes). */
  planBriefs(): Promise<number>;
  /** Puts the workers and the planning on the queue; the first planning and tick follow (`firstRun`). */
  start(deps: AppDeps, queue: JobQueue): Promise<void>;
  /** The first planning and tick (tests wait for it). */
  readonly firstRun: Promise<void>;
  stop(): Promise<void>;
};

/** Runs one instance delivers at once: its workers on the queue, one run each. */
const runsAtOnce = 20;
/** How often an idle worker looks for due runs. */
const pollSeconds = 15;
/** A run fetched this late says more are waiting: the idle workers are woken to fetch them. */
const lateMs = 1_000;
/** The longest tick() waits for the queue to be done. */
const tickLimitMs = 30_000;

type RunJob = JobWithMetadata<{ runId: number }>;
const singletonKey = (runId: number) => `run-${runId}`;

/** The worker, idle until start(deps, queue): the app's dependencies include it. */
export function createNudgeWorker(log: Logger, clock: NudgeClock = () => new Date(), listenUrl: () => string = () => 'http://127.0.0.1'): NudgeWorker {
  let deps: AppDeps | null = null;
  let queue: JobQueue | null = null;
  let stopped = false;
  let firstRun: Promise<void> = Promise.resolve();
  // The runs this instance is delivering, and how many it began (what tick() waits for and counts).
  const running = new Set<Promise<void>>();
  let begun = 0;

  const enqueue: RunSender = async (runId, dueAt) => {
    if (!queue || stopped) return; // queued by the sweep at start
    await queue.boss.send(queueNames.nudgeRun, { runId }, { singletonKey: singletonKey(runId), startAfter: dueAt });
  };
  /** The idle workers fetch at once, the busy ones once their run ends, instead of at their next poll. */
  const wake = () => {
    if (!queue || stopped) return;
    for (const worker of queue.boss.getWipData()) if (worker.name === queueNames.nudgeRun) queue.boss.notifyWorker(worker.id);
  };
  const deliver = async (app: Pick<AppDeps, 'config' | 'orm' | 'log' | 'sessionPassword' | 'rateLimits' | 'sessions' | 'coach' | 'microsoft' | 'providers' | 'nudges' | 'hostLookup'>, jobs: JobQueue, job: RunJob): Promise<void> => {
    const { runId } = job.data;
    if (clock().getTime() - new Date(job.startAfter).getTime() > lateMs) wake();
    const outcome = await processRun(app, clock, enqueue, runId, job.retryCount + 1, job.retryLimit + 1);
    if (!('retry' in outcome)) return;
    // Failed here rather than thrown, so the history says when the queue tries again (its
    // back-off), to the second: rounded up, as the database keeps microseconds. pg-boss's own
    // completion then finds the job no longer active and leaves it.
    await jobs.boss.fail(queueNames.nudgeRun, job, { message: outcome.retry });
    const next = await jobs.boss.getJobById(queueNames.nudgeRun, job.id);
    if (next?.state === 'retry') {
      const at = Math.ceil(new Date(next.startAfter).getTime() / 1000) * 1000;
      await app.orm.em.fork().nativeUpdate(NudgeRun, { id: runId, status: 'queued' }, { dueAt: new Date(at) });
    }
  };
  const handle = async (batch: RunJob[]): Promise<void> => {
    const app = deps;
    const jobs = queue;
    if (!app || !jobs) throw new Error('the nudges are not started');
    await Promise.all(
      batch.map((job) => {
        begun += 1;
        const delivering = deliver(app, jobs, job).catch((error: unknown) => {
          log.warn({ err: error, runId: job.data.runId }, 'a nudge run failed');
          throw error; // the queue retries it
        });
        const tracked = delivering.then(
          () => {},
          () => {},
        );
        running.add(tracked);
        void tracked.finally(() => running.delete(tracked));
        return delivering;
      }),
    );
  };
  /** Runs due or under way, on any instance: asked on the queue's own connection, whose job_now() is its clock's. */
  const pendingRuns = async (jobs: JobQueue): Promise<number> => {
    const { rows } = await jobs.boss
      .getDb()
      .executeSql(`select count(*)::int as "n" from "pgboss"."job" where "name" = $1 and ("state" = 'active' or ("state" in ('created', 'retry') and "start_after" <= "pgboss".job_now()))`, [queueNames.nudgeRun]);
    return (rows[0] as { n: number } | undefined)?.n ?? 0;
  };
  const tick = async (): Promise<number> => {
    const jobs = queue;
    if (!jobs || stopped) return 0;
    const from = begun - running.size;
    const until = Date.now() + tickLimitMs;
    for (;;) {
      wake();
      while (running.size) await Promise.all([...running]);
      if (stopped || Date.now() > until || (await pendingRuns(jobs)) === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return begun - from;
  };
  const planMissing = async () => (deps && !stopped ? planMissingReviews(deps.orm, enqueue, clock()) : 0);
  // Meeting briefs and the organisation's program nudges, on the same ten-minute planning.
  const planBriefs = async () => (deps && !stopped ? (await planMeetingBriefs(deps, enqueue, clock())) + (await planProgramNudges(deps.orm, enqueue, clock())) : 0);
  const quietly = (plan: () => Promise<number>, failure: string) => plan().catch((error) => void log.warn({ err: error }, failure));
  const loudly = (plan: () => Promise<number>, failure: string) => async () => {
    await plan().catch((error: unknown) => {
      log.warn({ err: error }, failure);
      throw error; // the queue retries it
    });
  };
  const queues = [queueNames.nudgeRun, queueNames.nudgePlanReviews, queueNames.nudgePlanBriefs];
  return {
    clock,
    baseUrl: listenUrl,
    tick,
    kick: wake,
    enqueue,
    planMissing,
    planBriefs,
    get firstRun() {
      return firstRun;
    },
    async start(app: AppDeps, jobs: JobQueue) {
      deps = app;
      queue = jobs;
      const { boss } = jobs;
      await boss.work(queueNames.nudgeRun, { localConcurrency: runsAtOnce, batchSize: 1, includeMetadata: true, pollingIntervalSeconds: pollSeconds }, handle);
      await boss.work(queueNames.nudgePlanReviews, { pollingIntervalSeconds: 60 }, loudly(planMissing, 'weekly reviews could not be planned'));
      await boss.schedule(queueNames.nudgePlanReviews, '0 * * * *');
      await boss.work(queueNames.nudgePlanBriefs, { pollingIntervalSeconds: 30 }, loudly(planBriefs, 'meeting briefs could not be planned'));
      await boss.schedule(queueNames.nudgePlanBriefs, '*/10 * * * *');
      firstRun = (async () => {
        await quietly(planMissing, 'weekly reviews could not be planned');
        await quietly(planBriefs, 'meeting briefs could not be planned');
        await tick();
      })();
    },
    async stop() {
      stopped = true;
      await firstRun.catch(() => {});
      const jobs = queue;
      if (jobs) await Promise.all(queues.map((name) => jobs.boss.offWork(name, { wait: true }).catch(() => {})));
    },
  };
}
