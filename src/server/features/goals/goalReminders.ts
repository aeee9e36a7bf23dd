import type { EntityManager, MikroORM } from '@mikro-orm/core';
import type { Logger } from 'pino';
import { GoalReminder } from '../../db/entities/Goal.js';
import { startPeriodicJob } from '../../jobs/periodicJob.js';

// Check-in reminders (issue 12) are jobs in the database: a goal with the weekly cadence carries
// its next reminder time. One statement claims the due goals (FOR UPDATE SKIP LOCKED), moves
// their next time a week on and records a reminder for each, so two instances never remind
// twice, and a restart loses none (the due time is in the row, not in a timer).

const weekInterval = `interval '7 days'`;

export type ClaimedReminder = { id: number; ownerId: number; goalId: number; cadence: string };

export async function claimDueReminders(orm: MikroORM, now = new Date(), batch = 100): Promise<ClaimedReminder[]> {
  const rows: Array<{ id: number; owner_id: number; goal_id: number; cadence: string }> = await orm.em.fork().getConnection().execute(
    `with due as (
       select "id" from "goal"
       where "next_reminder_at" <= ?::timestamptz and "cadence" <> 'off' and "done_at" is null
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
 * Claims due reminders now and then every `intervalMs`, and hands them to `deliver` (the calls of
 * those that asked for one); stop() ends it (shutdown).
 */
export function startGoalReminderJob(orm: MikroORM, log: Logger, deliver: (claimed: ClaimedReminder[]) => Promise<unknown> = async () => {}, intervalMs = 60_000) {
  return startPeriodicJob({
    intervalMs,
    log,
    failure: 'goal reminders could not be claimed',
    work: async () => {
      const claimed = await claimDueReminders(orm);
      if (!claimed.length) return;
      log.info({ reminders: claimed.length }, 'goal check-in reminders due');
      await deliver(claimed);
    },
  });
}
