import type { EntityManager, MikroORM } from '@mikro-orm/core';
import type { NudgeKind, NudgeSettings } from '../../../shared/schemas/nudges.js';
import { nudgesTexts } from '../../../shared/texts/nudges.js';
import { NudgeRun } from '../../db/entities/Nudge.js';
import type { AppDeps } from '../../deps.js';
import { queueNames } from '../../jobs/jobQueue.js';
import { timeZoneOf } from '../../db/userTimeZone.js';
import { meetingView } from '../meetings/index.js';
import { openMicrosoft365 } from '../microsoft/index.js';
import { dueProgramNudges } from '../organisations/index.js';
import { activeChannels, loadNudgeSettings, runSettingsOf } from './nudgeSettings.js';
import type { RunSender } from './nudgeQueuePort.js';
import { nextWeeklyRun } from './schedule.js';

// The plans: a run is a row of nudge_run (the history the user sees: queued, sent, skipped, failed,
// and why), queued through `send` (a job of the queue, due at the run's time). A weekly review is
// planned when its settings change and after each run; a meeting brief when planning finds the
// meeting; a run now when asked for. Each is planned once, however often or wherever planning runs.

/** How far past a brief's lead time planning looks for meetings (the planning's period, with a margin). */
export const briefLookAheadMs = 30 * 60_000;

/** Replaces the user's planned weekly review with one at the next day and time (none when turned off). */
export async function planWeeklyReview(em: EntityManager, send: RunSender, userId: number, settings: NudgeSettings, timeZone: string, now: Date): Promise<Date | null> {
  // The job of a run deleted here finds no run and ends (nudgeRun.ts).
  await em.getConnection().execute(`delete from "nudge_run" where "owner_id" = ? and "kind" = 'weekly_review' and "status" = 'queued' and "trigger" = 'scheduled'`, [userId]);
  if (!settings.weeklyReview.enabled) return null;
  return planNextReview(em, send, userId, settings, timeZone, now);
}

/** The user's next weekly review, unless one is planned already. */
export async function planNextReview(em: EntityManager, send: RunSender, userId: number, settings: NudgeSettings, timeZone: string, now: Date): Promise<Date> {
  const at = nextWeeklyRun(now, timeZone, settings.weeklyReview.day, settings.weeklyReview.time);
  const inserted: Array<{ id: number }> = await em.getConnection().execute(
    `insert into "nudge_run" ("owner_id", "kind", "status", "trigger", "channels", "due_at", "attempts", "created_at", "updated_at")
     values (?, 'weekly_review', 'queued', 'scheduled', ?::jsonb, ?::timestamptz, 0, ?::timestamptz, ?::timestamptz)
     on conflict ("owner_id", "kind") where "status" = 'queued' and "trigger" = 'scheduled' and "kind" = 'weekly_review' do nothing returning "id"`,
    [userId, JSON.stringify(activeChannels(settings)), at.toISOString(), now.toISOString(), now.toISOString()],
  );
  for (const { id } of inserted) await send(id, at);
  return at;
}

/** A run the user asked for: due at once. */
export async function queueManualRun(em: EntityManager, send: RunSender, owner: { id: number; isGuest: boolean; isDemo: boolean }, kind: NudgeKind, now: Date): Promise<number> {
  const settings = await runSettingsOf(em, owner);
  const run = em.create(NudgeRun, { owner: owner.id, kind, status: 'queued', trigger: 'manual', channels: activeChannels(settings), dueAt: now, attempts: 0, createdAt: now, updatedAt: now });
  await em.flush();
  await send(run.id, now);
  return run.id;
}

/**
 * The nudge of an automatic debrief, already posted into chat `chatId`: it carries the debrief to
 * the user's channels as a scheduled run (so within quiet hours and the weekly cap). One per
 * meeting: a debrief made again queues none.
 */
export async function queueDebriefNudge(em: EntityManager, send: RunSender, owner: { id: number; isGuest: boolean; isDemo: boolean }, debrief: { chatId: number; eventId: string; subject: string }, now: Date): Promise<number | null> {
  if (await em.count(NudgeRun, { owner: owner.id, kind: 'meeting_debrief', eventId: debrief.eventId })) return null;
  const settings = await runSettingsOf(em, owner);
  const run = em.create(NudgeRun, {
    owner: owner.id,
    kind: 'meeting_debrief',
    status: 'queued',
    trigger: 'scheduled',
    channels: activeChannels(settings),
    chat: debrief.chatId,
    eventId: debrief.eventId.slice(0, 512),
    title: nudgesTexts.debriefTitle(debrief.subject).slice(0, 300),
    dueAt: now,
    attempts: 0,
    createdAt: now,
    updatedAt: now,
  });
  await em.flush();
  await send(run.id, now);
  return run.id;
}

/**
 * Meeting briefs of users who turned them on: each meeting with other attendees that starts within
 * their lead time (plus a margin) gets one scheduled run, due `minutesBefore` ahead of it (at once
 * when that moment has passed). One per meeting, however often or wherever this runs.
 */
export async function planMeetingBriefs(deps: Pick<AppDeps, 'config' | 'orm' | 'log' | 'sessions' | 'microsoft'>, send: RunSender, now: Date): Promise<number> {
  const em = deps.orm.em.fork();
  const rows: Array<{ user_id: number }> = await em.getConnection().execute(
    `select s."user_id" from "nudge_setting" s join "app_user" u on u."id" = s."user_id"
     where not u."is_demo" and not u."is_guest" and u."active" and (s."settings" -> 'meetingBrief' ->> 'enabled')::boolean
     order by s."user_id" limit 1000`,
  );
  let planned = 0;
  for (const { user_id: userId } of rows) {
    const settings = await loadNudgeSettings(em, userId);
    const calendar = await openMicrosoft365(deps, em, userId).then((m365) => m365.calendar, () => null);
    if (!calendar) continue;
    const lead = settings.meetingBrief.minutesBefore * 60_000;
    let events;
    try {
      events = await calendar.graph.calendarView({ start: now, end: new Date(now.getTime() + lead + briefLookAheadMs), timeZone: calendar.timeZone });
    } catch (error) {
      deps.log.warn({ err: error, userId }, 'meeting briefs could not be planned: the calendar did not answer');
      continue;
    }
    const own = calendar.accountEmail?.toLowerCase();
    for (const event of events) {
      const meeting = meetingView(event);
      if (meeting.startAt.getTime() <= now.getTime() || !meeting.attendees.some((a) => a.email.toLowerCase() !== own)) continue;
      const due = new Date(Math.max(now.getTime(), meeting.startAt.getTime() - lead));
      const inserted: Array<{ id: number }> = await em.getConnection().execute(
        `insert into "nudge_run" ("owner_id", "kind", "status", "trigger", "channels", "due_at", "attempts", "event_id", "created_at", "updated_at")
         values (?, 'meeting_brief', 'queued', 'scheduled', ?::jsonb, ?::timestamptz, 0, ?, ?::timestamptz, ?::timestamptz)
         on conflict ("owner_id", "event_id") where "event_id" is not null do nothing returning "id"`,
        [userId, JSON.stringify(activeChannels(settings)), due.toISOString(), meeting.id.slice(0, 512), now.toISOString(), now.toISOString()],
      );
      for (const { id } of inserted) await send(id, due);
      planned += inserted.length;
    }
  }
  return planned;
}

/**
 * Users (not demo, not guests, not deprovisioned) whose weekly review is on but not planned: planned now. Then every
 * queued run gets its job again: the queue keeps one per run (its singleton key), so this only
 * adds those lost between a run's row and its job (an instance that died in between) and those
 * of runs planned before the queue held them.
 */
export async function planMissingReviews(orm: MikroORM, send: RunSender, now: Date): Promise<number> {
  const em = orm.em.fork();
  const rows: Array<{ id: number }> = await em.getConnection().execute(
    `select u."id" from "app_user" u
     left join "nudge_setting" s on s."user_id" = u."id"
     where not u."is_demo" and not u."is_guest" and u."active"
       and coalesce((s."settings" -> 'weeklyReview' ->> 'enabled')::boolean, true)
       and not exists (select 1 from "nudge_run" r where r."owner_id" = u."id" and r."kind" = 'weekly_review' and r."status" = 'queued' and r."trigger" = 'scheduled')
     order by u."id" limit 1000`,
  );
  for (const { id } of rows) {
    const settings = await loadNudgeSettings(em, id);
    await planNextReview(em, send, id, settings, await timeZoneOf(em, id), now);
  }
  const queued: Array<{ id: number; due_at: string | Date }> = await em.getConnection().execute(
    `select r."id", r."due_at" from "nudge_run" r where r."status" = 'queued'
     and not exists (select 1 from "pgboss"."job" j where j."name" = ? and j."singleton_key" = 'run-' || r."id" and j."state" < 'completed')
     order by r."id" limit 5000`,
    [queueNames.nudgeRun],
  );
  for (const run of queued) await send(run.id, new Date(run.due_at));
  return rows.length;
}

/**
 * The nudges of the organisation's programs due this week, one per member and program week
 * (scheduled runs: within each member's quiet hours and weekly cap, on their own channels).
 */
export async function planProgramNudges(orm: MikroORM, send: RunSender, now: Date): Promise<number> {
  const em = orm.em.fork();
  let planned = 0;
  for (const due of await dueProgramNudges(em, now)) {
    for (const userId of due.members) {
      const inserted: Array<{ id: number }> = await em.getConnection().execute(
        `insert into "nudge_run" ("owner_id", "kind", "status", "trigger", "channels", "due_at", "attempts", "event_id", "title", "created_at", "updated_at")
         values (?, 'program', 'queued', 'scheduled', '["app"]'::jsonb, ?::timestamptz, 0, ?, ?, ?::timestamptz, ?::timestamptz)
         on conflict ("owner_id", "event_id") where "event_id" is not null do nothing returning "id"`,
        [userId, now.toISOString(), due.event, due.title.slice(0, 300), now.toISOString(), now.toISOString()],
      );
      for (const { id } of inserted) await send(id, now);
      planned += inserted.length;
    }
  }
  return planned;
}
