import type { EntityManager } from '@mikro-orm/core';
import { TRPCError } from '@trpc/server';
import type { Logger } from 'pino';
import { debriefTexts } from '../../../shared/texts/debriefs.js';
import { Debrief } from '../../db/entities/Debrief.js';
import { DebriefSetting } from '../../db/entities/DebriefSetting.js';
import { User } from '../../db/entities/User.js';
import type { AppDeps } from '../../deps.js';
import { queueNames, type JobQueue } from '../../jobs/jobQueue.js';
import { startPeriodicJob } from '../../jobs/periodicJob.js';
import type { AuthedContext } from '../../trpc/context.js';
import { meetingView } from '../meetings/index.js';
import { openMicrosoft365 } from '../microsoft/index.js';
import { queueDebriefNudge } from '../nudges/index.js';
import { createDebrief, isTeamsJoinUrl } from './debriefs.js';

// Automatic debriefs, once the user turns them on: the user's Teams meetings of the coming day
// (and the last half day) each get a job on the queue, due a few minutes after the meeting ends;
// the job asks Graph for the transcript and makes the debrief (posted into the user's own chat).
// A transcript Teams has not finished yet fails the job, which the queue retries with its
// back-off (jobQueue.ts); a meeting without the user, or not on Teams, ends the job quietly. A
// debrief made is a nudge too (nudges' queueDebriefNudge): the user's channels carry it.

type AutoDeps = Pick<AppDeps, 'config' | 'log' | 'orm' | 'microsoft' | 'chatBus' | 'sessions' | 'nudges'>;
type Job = { userId: number; eventId: string };

/** A job starts this long after the meeting's end: Teams needs a few minutes to write the transcript. */
export const afterEndMs = 5 * 60_000;
const sweepIntervalMs = 10 * 60_000;
const pollIntervalMs = 15_000;

// The queue each running app holds, so a request turning the setting on can plan that user's meetings at once.
const queues = new WeakMap<object, JobQueue>();

export async function autoDebriefsOn(em: EntityManager, userId: number): Promise<boolean> {
  return (await em.findOne(DebriefSetting, { owner: userId }, { fields: ['automatic'] }))?.automatic ?? false;
}

/** Queues a job for each Teams meeting of the user from 12 hours ago to a day ahead that has no debrief yet. */
export async function planUserDebriefs(deps: AutoDeps, queue: JobQueue, em: EntityManager, userId: number): Promise<number> {
  const { calendar } = await openMicrosoft365(deps, em, userId);
  if (!calendar) return 0;
  const now = queue.clock.now();
  const events = await calendar.graph.calendarView({ start: new Date(now - 12 * 3_600_000), end: new Date(now + 24 * 3_600_000), timeZone: calendar.timeZone });
  const teams = events.map(meetingView).filter((m) => m.isOnline && isTeamsJoinUrl(m.joinUrl));
  const done = new Set((await em.find(Debrief, { owner: userId, eventId: { $in: teams.map((m) => m.id) } }, { fields: ['eventId'] })).map((d) => d.eventId));
  let queued = 0;
  for (const meeting of teams) {
    if (done.has(meeting.id)) continue;
    const job: Job = { userId, eventId: meeting.id };
    await queue.boss.send(queueNames.debriefMeeting, job, { singletonKey: `${userId}:${meeting.id}`, startAfter: new Date(Math.max(now, meeting.endAt.getTime() + afterEndMs)) });
    queued += 1;
  }
  return queued;
}

async function planAll(deps: AutoDeps, queue: JobQueue): Promise<void> {
  const em = deps.orm.em.fork();
  const settings = await em.find(DebriefSetting, { automatic: true }, { fields: ['owner'], limit: 10_000 });
  for (const setting of settings) {
    await planUserDebriefs(deps, queue, em.fork(), setting.owner.id).catch((error) => deps.log.warn({ err: error, userId: setting.owner.id }, 'automatic debriefs not planned for a user'));
  }
}

/** One job: the debrief made, or 'retry' while the transcript is not there yet. */
async function runJob(deps: AutoDeps, queue: JobQueue, job: Job): Promise<'done' | 'retry'> {
  const em = deps.orm.em.fork();
  const user = await em.findOne(User, job.userId);
  if (!user || !(await autoDebriefsOn(em, user.id))) return 'done';
  if (await em.count(Debrief, { owner: user.id, eventId: job.eventId })) return 'done';
  try {
    const { debrief } = await createDebrief({ deps: deps as AppDeps, em, user } as Pick<AuthedContext, 'deps' | 'em' | 'user'>, { id: job.eventId }, queue.clock.now());
    // The user is told by their nudge channels (within the weekly cap and quiet hours); the debrief is in the app already.
    if (debrief.chatId !== null) await queueDebriefNudge(em, deps.nudges.enqueue, user, { chatId: debrief.chatId, eventId: job.eventId, subject: debrief.subject }, deps.nudges.clock());
    return 'done';
  } catch (error) {
    if (error instanceof TRPCError && (error.message === debriefTexts.noTranscript || error.message === debriefTexts.stillAhead || error.code === 'TOO_MANY_REQUESTS' || error.code === 'BAD_GATEWAY')) return 'retry';
    // Not on Teams, not the user's, no permission: nothing a retry changes.
    deps.log.info({ userId: job.userId, reason: error instanceof Error ? error.message : String(error) }, 'automatic debrief not made');
    return 'done';
  }
}

/** Claims the due jobs and runs them; answers how many ran (tests call it after moving the queue's clock). */
export async function tickAutoDebriefs(deps: AutoDeps): Promise<number> {
  const queue = queues.get(deps);
  if (!queue) return 0;
  const jobs = await queue.boss.fetch<Job>(queueNames.debriefMeeting, { batchSize: 5 });
  for (const job of jobs) {
    try {
      const outcome = await runJob(deps, queue, job.data);
      if (outcome === 'retry') await queue.boss.fail(queueNames.debriefMeeting, job.id, { message: 'transcript not ready' });
      else await queue.boss.complete(queueNames.debriefMeeting, job.id);
    } catch (error) {
      await queue.boss.fail(queueNames.debriefMeeting, job.id, { message: error instanceof Error ? error.message : 'failed' }).catch(() => {});
    }
  }
  return jobs.length;
}

/** Plans every user's meetings now and then, and runs the due jobs; the stop waits for a run under way. */
export function startAutoDebriefs(deps: AutoDeps, queue: JobQueue, log: Logger): { stop(): Promise<void> } {
  queues.set(deps, queue);
  const plan = startPeriodicJob({ work: () => planAll(deps, queue), intervalMs: sweepIntervalMs, log, failure: 'automatic debriefs not planned' });
  const poll = startPeriodicJob({ work: () => tickAutoDebriefs(deps), intervalMs: pollIntervalMs, log, failure: 'automatic debriefs not run' });
  return {
    async stop() {
      queues.delete(deps);
      await Promise.all([plan.stop(), poll.stop()]);
    },
  };
}

/** PUT /api/debriefs/settings: turning it on plans the user's meetings at once. */
export async function saveAutoDebriefs(ctx: AuthedContext, input: { automatic: boolean }): Promise<{ automatic: boolean }> {
  const row = await ctx.em.findOne(DebriefSetting, { owner: ctx.user.id });
  if (row) row.automatic = input.automatic;
  else ctx.em.create(DebriefSetting, { owner: ctx.user.id, automatic: input.automatic });
  await ctx.em.flush();
  const queue = queues.get(ctx.deps);
  if (input.automatic && queue) await planUserDebriefs(ctx.deps, queue, ctx.em, ctx.user.id).catch((error) => ctx.deps.log.warn({ err: error }, 'automatic debriefs not planned'));
  return { automatic: input.automatic };
}

export async function getAutoDebriefs(ctx: AuthedContext): Promise<{ automatic: boolean }> {
  return { automatic: await autoDebriefsOn(ctx.em, ctx.user.id) };
}
