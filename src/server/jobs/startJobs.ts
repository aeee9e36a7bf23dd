import type { DatabaseTarget } from '../db/embedded.js';
import type { AppDeps } from '../deps.js';
import { prepareDemoAccount } from '../features/auth/demoAccount.js';
import { refreshDemoSamples } from '../features/auth/demoWeek.js';
import { endDemoGuestSessions, startGuestCleanupJob } from '../features/auth/guestAccount.js';
import { startOrphanSweep } from '../features/chats/orphanedReplies.js';
import { callGoalReminders } from '../features/goals/goalCheckInCall.js';
import { startGoalReminderJob } from '../features/goals/goalReminders.js';
import { startAutoDebriefs } from '../features/debriefs/autoDebriefs.js';
import { notificationsEnabled, renewSubscriptions } from '../features/meetings/subscriptions.js';
import { decideUndecidedMemories } from '../features/memories/memoryStore.js';
import { startDataRetentionJob } from '../features/privacy/dataRetention.js';
import { buildMessageSearchIndex } from '../features/search/messageSearchIndex.js';
import type { Teardown } from '../teardown.js';
import { startJobQueue } from './jobQueue.js';
import { startPeriodicJob } from './periodicJob.js';

/**
 * The work the server does on its own, before anyone is served and then on a schedule. Each job
 * registers its stop on the teardown stack as soon as it runs.
 */
export async function startJobs(deps: AppDeps, target: DatabaseTarget, teardown: Teardown): Promise<void> {
  const { orm: db, log, config } = deps;
  // Search across chats: the message content index, built without blocking writes (messageSearchIndex.ts).
  const searchIndex = buildMessageSearchIndex(target, db, log);
  teardown.defer('search index', () => searchIndex.stop());
  await prepareDemoAccount(deps, config.demoMode);
  // Data retention runs at start (before anyone is served) and then daily.
  const retention = startDataRetentionJob(db, log);
  teardown.defer('data retention', () => retention.stop());
  await retention.firstRun;
  // Replies whose instance died mid-stream (even killed) are marked stopped with their partial
  // text, at start and then periodically. The embedded database has one server at a time, so at
  // start every reply still 'streaming' is orphaned; on PostgreSQL other instances may be
  // streaming theirs: only replies their instance stopped writing are (orphanedReplies.ts).
  const orphanSweep = startOrphanSweep({
    em: db.em,
    chatBus: deps.chatBus,
    runningIds: () => deps.replies.runningIds(),
    log,
    firstSettlesAll: target.kind === 'pglite',
  });
  teardown.defer('orphaned replies sweep', () => orphanSweep.stop());
  await orphanSweep.firstRun;
  // Memories kept before sensitivity was marked are marked before any nudge can mail or push one.
  const decided = await decideUndecidedMemories(db.em.fork());
  if (decided) log.info({ decided }, 'memories marked sensitive or not');
  // The durable job queue (pg-boss, in this database): the nudges and the goal reminders run on it.
  const queueStarted = performance.now();
  const queue = await startJobQueue({ target, orm: db, log, clock: deps.queueClock });
  teardown.defer('job queue', () => queue.stop());
  // Goal check-in reminders due (while the server was down too) are claimed at start, then each
  // minute; those that asked for a call are called.
  await startGoalReminderJob(db, log, queue, (claimed) => callGoalReminders(deps, claimed));
  log.info({ ms: Math.round(performance.now() - queueStarted) }, 'job queue started');
  // Nudges (weekly reviews, meeting briefs) due while the server was down run at start, then as
  // they come due, on pg-boss's workers; their planning on its schedules (features/nudges/nudgeWorker.ts).
  await deps.nudges.start(deps, queue);
  teardown.defer('nudges', () => deps.nudges.stop());
  // Automatic debriefs of ended Teams meetings, for the users who turned them on (features/debriefs/autoDebriefs.ts).
  const debriefs = startAutoDebriefs(deps, queue, log);
  teardown.defer('automatic debriefs', () => debriefs.stop());
  // Calendar change-notification subscriptions are renewed before they expire (https PUBLIC_URL only).
  if (notificationsEnabled(deps)) {
    const calendarRenewals = startPeriodicJob({ work: () => renewSubscriptions(deps), intervalMs: 3_600_000, log, failure: 'calendar subscriptions not renewed' });
    teardown.defer('calendar subscription renewals', () => calendarRenewals.stop());
  }
  // Demo mode off: demo visitors' guest sessions end before anything is served (guestAccount.ts).
  if (!config.demoMode) {
    const ended = await endDemoGuestSessions({ orm: db, sessions: deps.sessions });
    if (ended) log.info({ ended }, 'demo mode is off: the sessions of demo guests ended');
  }
  // Guest spaces unused for DEMO_GUEST_IDLE_HOURS go with all their data, at start and hourly.
  const guestCleanup = startGuestCleanupJob({ orm: db, sessions: deps.sessions, log }, config.guestIdleHours);
  teardown.defer('guest cleanup', () => guestCleanup.stop());
  // The demo template's sample goals and memories, and its example review, are dated from the day: written anew daily.
  if (config.demoMode) {
    const demoSamples = startPeriodicJob({ work: (first) => (first ? Promise.resolve() : refreshDemoSamples(deps)), intervalMs: 3_600_000, log, failure: 'demo samples not refreshed' });
    teardown.defer('demo samples refresh', () => demoSamples.stop());
  }
}
