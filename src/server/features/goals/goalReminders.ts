import type { EntityManager, MikroORM } from '@mikro-orm/core';
import type { Logger } from 'pino';
import { GoalReminder } from '../../db/entities/Goal.js';
import { queueNames, type JobQueue } from '../../jobs/jobQueue.js';

// Check-in reminders: a goal with the weekly cadence carries its next reminder time.
// One statement claims the due goals (FOR UPDATE SKIP LOCKED), moves their next time a week on and
// records a reminder for each, so two instances never remind twice, and a restart loses none (the
// due time is in the row, not in a timer). The claim runs as a job of the job queue (pg-boss,
// jobs/jobQueue.ts), the nudges' queue: a schedule kept in the database queues one each minute
// (one for all instances), and one is queued at start for the reminders that came due while the
// server was down; a failed one is retried.

const weekInterval = `interval '7 days'`;

export type ClaimedReminder = { id: number; ownerId: number; goalId: number; cadence: string };

export async function claimDueReminders(orm: MikroORM, now = new Date(), batch = 100): Promise<ClaimedReminder[]> {
  const rows: Array<{ id: number; owner_id: number; goal_id: number; cadence: string }> = await orm.em.fork().getConnection().execute(
    `with due as (
       select "id" from "goal"
       where "next_reminder_at" <= ?::timestamptz and "cadence" <> 'off' and "done_at" is null
         -- No reminder (nor its check-in call) for an account the organisation deprovisioned.
         and exists (select 1 from "app_user" u where u."id" = "goal"."owner_id" and u."active")
       order by "next_reminder_at" limit ? for update skip locked
     ), claimed as (
       update "goal" as g set "next_reminder_at" = ?::timestamptz + ${weekInterval}
       from due where g."id" = due."id" returning g."id", g."owner_id", g."cadence"
     ), reminded as (
       insert into "goal_reminder" ("owner_id", "goal_id", "created_at")
       select "owner_id", "id", ?::timestamptz from claimed
       returning "id", "owner_id", "goal_id"
     )
     select r."id", r."owner_id", r."goal_id", c."cadence" from reminded r join claimed c on c."id" = r."goal_id"`,
    [now.toISOString(), batch, now.toISOString(), now.toISOString()],
  );
  return rows.map((row) => ({ id: row.id, ownerId: row.owner_id, goalId: row.goal_id, cadence: row.cadence }));
}

/** The user's reminders not yet shown, with their goals' titles (oldest first). */
export async function unseenReminders(em: EntityManager, userId: number) {
  const reminders = await em.find(GoalReminder, { owner: userId, seenAt: null }, { populate: ['goal'], orderBy: { id: 'asc' }, limit: 20 });
  return reminders.map((r) => ({ id: r.id, goalId: r.goal.id, goalTitle: r.goal.title, createdAt: r.createdAt.toISOString() }));
}

export async function markRemindersSeen(em: EntityManager, userId: number, ids: number[]) {
  if (ids.length === 0) return { seen: 0 };
  const seen = await em.nativeUpdate(GoalReminder, { owner: userId, id: { $in: ids }, seenAt: null }, { seenAt: new Date() });
  return { seen };
}

/**
 * Schedules the claim of due reminders on the job queue, each minute and once at start, and hands
 * them to `deliver` (the calls of those that asked for one). Stopping the queue stops it.
 */
export async function startGoalReminderJob(orm: MikroORM, log: Logger, queue: JobQueue, deliver: (claimed: ClaimedReminder[]) => Promise<unknown> = async () => {}) {
  await queue.boss.work(queueNames.goalReminders, { pollingIntervalSeconds: 5 }, async () => {
    const claimed = await claimDueReminders(orm, new Date(queue.clock.now()));
    if (!claimed.length) return;
    log.info({ reminders: claimed.length }, 'goal check-in reminders due');
    await deliver(claimed);
  });
  await queue.boss.schedule(queueNames.goalReminders, '* * * * *');
  await queue.boss.send(queueNames.goalReminders, {});
}
