import type { EntityManager, MikroORM } from '@mikro-orm/core';
import type { Logger } from 'pino';
import { defaultNudgeSettings, type NudgeChannel, type NudgeKind, type NudgeSettings } from '../../../shared/schemas/nudges.js';
import { nudgesTexts } from '../../../shared/texts/nudges.js';
import { Chat } from '../../db/entities/Chat.js';
import { Message } from '../../db/entities/Message.js';
import { NudgeRun, NudgeSetting } from '../../db/entities/Nudge.js';
import type { AppDeps } from '../../deps.js';
import { meetingView, openCalendar, timeZoneOf } from '../meetings/calendar.js';
import { ReconnectNeededError } from '../microsoft/connections.js';
import { unsubscribeToken } from './unsubscribeToken.js';
import { callNudge } from './nudgeCall.js';
import { pushNudge } from './push.js';
import { newChatIsTemporary } from '../privacy/temporaryChats.js';
import { meetingBriefFacts, renderMeetingBrief, renderWeeklyReview, weeklyReviewFacts } from './nudgeContent.js';
import { formatLocal, inQuietHours, nextWeeklyRun, quietHoursEnd } from './schedule.js';

// The nudges' durable queue is the nudge_run table itself: a run is a row, 'queued' with the time
// it is due. Every instance polls; one statement claims due rows with FOR UPDATE SKIP LOCKED and
// leases them (lockedUntil), so two instances never run the same nudge, and a run that came due
// while every instance was down is claimed by the first poll after start. A lease that ran out
// (its instance died mid-run) makes the row claimable again. Times are compared with the worker's
// clock, passed as a parameter, so tests can move it (and the same code runs on the embedded
// database and on PostgreSQL).

export type NudgeClock = () => Date;

export type NudgeWorker = {
  clock: NudgeClock;
  /** The address this server listens on: links in emails when PUBLIC_URL is unset. */
  baseUrl: string;
  /** Claims and runs every due nudge once; resolves with how many were claimed. */
  tick(): Promise<number>;
  /** Asks for a tick soon (after the one under way): a run now. */
  kick(): void;
  /** Plans the weekly review of users who have none planned (at start, then hourly). */
  planMissing(): Promise<number>;
  /** Plans the briefs of meetings coming up (at start, then every 10 minutes). */
  planBriefs(): Promise<number>;
  /** Starts planning and polling, with the first tick at once. */
  start(deps: AppDeps): void;
  /** The first planning and tick (start-up waits for it; tests too). */
  readonly firstRun: Promise<void>;
  stop(): Promise<void>;
};

const leaseMs = 5 * 60_000;
export const maxAttempts = 5;
/** A failed delivery waits 1, 2, 4, 8 minutes before its next attempt. */
export const retryDelayMs = (attempt: number) => 60_000 * 2 ** (attempt - 1);
const pollMs = 15_000;
const planEveryMs = 3_600_000;
const briefPlanEveryMs = 10 * 60_000;
const claimBatch = 20;

export async function loadNudgeSettings(em: EntityManager, userId: number): Promise<NudgeSettings> {
  const row = await em.findOne(NudgeSetting, { user: userId });
  return row?.settings ?? defaultNudgeSettings;
}

// What a run is planned to use: the app always, email and push when on (calls are not made yet).
export const activeChannels = (settings: NudgeSettings): NudgeChannel[] => [
  'app',
  ...(settings.channels.email ? (['email'] as const) : []),
  ...(settings.channels.push ? (['push'] as const) : []),
];

/** Replaces the user's planned weekly review with one at the next day and time (none when turned off). */
export async function planWeeklyReview(em: EntityManager, userId: number, settings: NudgeSettings, timeZone: string, now: Date): Promise<Date | null> {
  const connection = em.getConnection();
  await connection.execute(`delete from "nudge_run" where "owner_id" = ? and "kind" = 'weekly_review' and "status" = 'queued' and "trigger" = 'scheduled'`, [userId]);
  if (!settings.weeklyReview.enabled) return null;
  return insertPlanned(em, userId, settings, timeZone, now);
}

async function insertPlanned(em: EntityManager, userId: number, settings: NudgeSettings, timeZone: string, now: Date): Promise<Date> {
  const at = nextWeeklyRun(now, timeZone, settings.weeklyReview.day, settings.weeklyReview.time);
  await em.getConnection().execute(
    `insert into "nudge_run" ("owner_id", "kind", "status", "trigger", "channels", "due_at", "attempts", "created_at", "updated_at")
     values (?, 'weekly_review', 'queued', 'scheduled', ?::jsonb, ?::timestamptz, 0, ?::timestamptz, ?::timestamptz)
     on conflict ("owner_id", "kind") where "status" = 'queued' and "trigger" = 'scheduled' and "kind" = 'weekly_review' do nothing`,
    [userId, JSON.stringify(activeChannels(settings)), at.toISOString(), now.toISOString(), now.toISOString()],
  );
  return at;
}

/** A run the user asked for: due at once. */
export async function queueManualRun(em: EntityManager, userId: number, kind: NudgeKind, now: Date): Promise<number> {
  const settings = await loadNudgeSettings(em, userId);
  const run = em.create(NudgeRun, { owner: userId, kind, status: 'queued', trigger: 'manual', channels: activeChannels(settings), dueAt: now, attempts: 0, createdAt: now, updatedAt: now });
  await em.flush();
  return run.id;
}

type ClaimedRow = { id: number };

export async function claimDueRuns(orm: MikroORM, now: Date, batch = claimBatch): Promise<number[]> {
  const rows: ClaimedRow[] = await orm.em.fork().getConnection().execute(
    `with due as (
       select "id" from "nudge_run"
       where "status" = 'queued' and "due_at" <= ?::timestamptz and ("locked_until" is null or "locked_until" < ?::timestamptz)
       order by "due_at", "id" limit ? for update skip locked
     )
     update "nudge_run" as r set "locked_until" = ?::timestamptz, "attempts" = r."attempts" + 1
     from due where r."id" = due."id" returning r."id"`,
    [now.toISOString(), now.toISOString(), batch, new Date(now.getTime() + leaseMs).toISOString()],
  );
  return rows.map((row) => row.id);
}

/** What one claimed run ends as (or waits for). */
async function processRun(deps: AppDeps, clock: NudgeClock, runId: number): Promise<void> {
  const em = deps.orm.em.fork();
  const run = await em.findOneOrFail(NudgeRun, runId, { populate: ['owner'] });
  const userId = run.owner.id;
  const settings = await loadNudgeSettings(em, userId);
  const timeZone = await timeZoneOf(em, userId);
  const now = clock();
  const finish = async (status: 'sent' | 'skipped' | 'failed', reason: string | null, chat?: Chat) => {
    run.status = status;
    run.reason = reason;
    run.lockedUntil = null;
    run.updatedAt = now;
    if (chat) run.chat = chat;
    await em.flush();
    if (run.trigger === 'scheduled' && run.kind === 'weekly_review' && settings.weeklyReview.enabled) await insertPlanned(em, userId, settings, timeZone, now);
  };

  if (run.trigger === 'scheduled') {
    const enabled = run.kind === 'weekly_review' ? settings.weeklyReview.enabled : settings.meetingBrief.enabled;
    if (!enabled) return finish('skipped', nudgesTexts.reasonTurnedOff);
    if (inQuietHours(now, timeZone, settings.quietHours)) {
      const end = quietHoursEnd(now, timeZone, settings.quietHours);
      run.dueAt = end;
      run.reason = nudgesTexts.reasonQuietHours(formatLocal(end, timeZone));
      run.lockedUntil = null;
      run.attempts = Math.max(0, run.attempts - 1);
      run.updatedAt = now;
      await em.flush();
      return;
    }
    const sent = await em.count(NudgeRun, { owner: userId, status: 'sent', updatedAt: { $gt: new Date(now.getTime() - 7 * 86_400_000) } });
    if (sent >= settings.maxPerWeek) return finish('skipped', nudgesTexts.reasonWeeklyCap(settings.maxPerWeek));
  }

  try {
    let title: string;
    let content: string;
    if (run.kind === 'weekly_review') {
      const facts = await weeklyReviewFacts(deps, em, userId, now, timeZone);
      title = nudgesTexts.weeklyReviewTitle(facts.date);
      content = renderWeeklyReview(facts);
    } else {
      // A scheduled brief is of its meeting; one asked for is of the next meeting.
      const facts = await meetingBriefFacts(deps, em, userId, now, Math.max(settings.meetingBrief.minutesBefore * 60_000, 86_400_000) + briefLookAheadMs, run.eventId ?? undefined);
      if (facts === 'no_calendar') return await finish('skipped', nudgesTexts.reasonNoCalendar);
      if (facts === 'no_meeting') return await finish('skipped', nudgesTexts.reasonNoMeeting);
      const link = facts.prepChatId ? `/app?chat=${facts.prepChatId}` : '/meetings';
      title = nudgesTexts.briefTitle(facts.subject);
      content = renderMeetingBrief(facts, link);
    }
    // The chat first: a retry of a failed email reuses it.
    if (!run.chat) {
      run.chat = await nudgeChat(em, userId, title, content, now);
      await em.flush();
    }
    const channels: NudgeChannel[] = ['app'];
    let reason: string | null = null;
    if (settings.channels.email) {
      const emailed = await emailNudge(deps, em, userId, run.kind, run.chat.id, title, content);
      if (emailed) channels.push('email');
      else reason = nudgesTexts.reasonMailboxReconnect;
    }
    if (settings.channels.push) {
      const pushed = await pushNudge(deps, em, userId, { title, body: content.split('\n')[0] ?? title, url: `/app?chat=${run.chat.id}` });
      if (pushed) channels.push('push');
      else reason = reason ? `${reason} ${nudgesTexts.reasonNoPushSubscription}` : nudgesTexts.reasonNoPushSubscription;
    }
    if (settings.channels.call) {
      // Last: a call not placed fails the run (nudgeCall.ts), with what was delivered before it.
      const callFailed = await callNudge(deps, em, userId, run.chat.id);
      if (callFailed) {
        run.channels = channels;
        return await finish('failed', reason ? `${reason} ${callFailed}` : callFailed);
      }
      channels.push('call');
    }
    run.channels = channels;
    return await finish('sent', reason);
  } catch (error) {
    const message = error instanceof Error ? error.message.slice(0, 200) : 'unknown error';
    deps.log.warn({ err: error, runId }, 'a nudge could not be delivered');
    if (run.attempts < maxAttempts) {
      run.dueAt = new Date(now.getTime() + retryDelayMs(run.attempts));
      run.reason = nudgesTexts.reasonRetrying(run.attempts, message);
      run.lockedUntil = null;
      run.updatedAt = now;
      await em.flush();
      return;
    }
    return finish('failed', nudgesTexts.reasonFailed(message));
  }
}

/** The base of the links in an email: PUBLIC_URL, else the address this server listens on. */
function appUrl(deps: AppDeps): string {
  return deps.config.publicUrl ?? deps.nudges.baseUrl;
}

/**
 * The nudge by email, from the user's own connected mailbox to its own address, with a link to the
 * chat and a signed one-click unsubscribe link. False when the mailbox needs reconnecting (the
 * nudge stays in the app); a Graph failure throws (the run is retried).
 */
async function emailNudge(deps: AppDeps, em: EntityManager, userId: number, kind: NudgeKind, chatId: number, title: string, content: string): Promise<boolean> {
  const mailbox = await openCalendar(deps, em, userId, 'email').catch(() => null);
  if (!mailbox?.accountEmail) return false;
  const base = appUrl(deps);
  const chatLink = `${base}/app?chat=${chatId}`;
  const unsubscribe = `${base}/api/nudges/unsubscribe?token=${encodeURIComponent(unsubscribeToken(deps.sessionPassword, userId, kind))}`;
  try {
    await mailbox.graph.sendMail({ subject: title, html: nudgeEmailHtml(content, chatLink, unsubscribe, kind, base), to: [{ name: '', email: mailbox.accountEmail }] });
  } catch (error) {
    if (error instanceof ReconnectNeededError) return false;
    throw error;
  }
  return true;
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function nudgeEmailHtml(content: string, chatLink: string, unsubscribeLink: string, kind: NudgeKind, base: string): string {
  // The brief's '[Prepare or rehearse it](/meetings)' becomes a link to the app.
  const body = content
    .split('\n')
    .map((line) =>
      escapeHtml(line)
        .replace(/\*\*(.+?)\*\*/g, '<strong>$1</strong>')
        .replace(/\[([^[\]]+)\]\((\/[^()\s]*)\)/g, (_all, label: string, href: string) => `<a href="${escapeHtml(base)}${href}">${label}</a>`),
    )
    .join('<br>\n');
  const kindLabel = nudgesTexts.kindLabel[kind] ?? kind;
  return [
    `<div>${body}</div>`,
    `<p><a href="${escapeHtml(chatLink)}">${nudgesTexts.emailOpenChat}</a></p>`,
    `<p style="color:#666;font-size:12px">${nudgesTexts.emailFooter} <a href="${escapeHtml(unsubscribeLink)}">${escapeHtml(nudgesTexts.emailUnsubscribe(kindLabel))}</a></p>`,
  ].join('\n');
}

/** A new chat whose first message is the coach's nudge. */
async function nudgeChat(em: EntityManager, userId: number, title: string, content: string, now: Date): Promise<Chat> {
  // With chat history off (Settings, Privacy) the nudge's chat is temporary like any new chat.
  const isTemporary = await newChatIsTemporary(em, userId);
  const chat = em.create(Chat, { owner: userId, title: title.slice(0, 200), isPinned: false, isTemporary, createdAt: now, updatedAt: now });
  em.create(Message, { chat, role: 'assistant', content, status: 'complete' });
  await em.flush();
  return chat;
}

const briefLookAheadMs = 30 * 60_000;

/**
 * Meeting briefs of users who turned them on: each meeting with other attendees that starts within
 * their lead time (plus a margin) gets one scheduled run, due `minutesBefore` ahead of it (at once
 * when that moment has passed). One per meeting, however often or wherever this runs.
 */
async function planMeetingBriefs(deps: AppDeps, now: Date): Promise<number> {
  const em = deps.orm.em.fork();
  const rows: Array<{ user_id: number }> = await em.getConnection().execute(
    `select s."user_id" from "nudge_setting" s join "app_user" u on u."id" = s."user_id"
     where not u."is_demo" and not u."is_guest" and (s."settings" -> 'meetingBrief' ->> 'enabled')::boolean
     order by s."user_id" limit 1000`,
  );
  let planned = 0;
  for (const { user_id: userId } of rows) {
    const settings = await loadNudgeSettings(em, userId);
    const calendar = await openCalendar(deps, em, userId).catch(() => null);
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
      const inserted: unknown[] = await em.getConnection().execute(
        `insert into "nudge_run" ("owner_id", "kind", "status", "trigger", "channels", "due_at", "attempts", "event_id", "created_at", "updated_at")
         values (?, 'meeting_brief', 'queued', 'scheduled', ?::jsonb, ?::timestamptz, 0, ?, ?::timestamptz, ?::timestamptz)
         on conflict ("owner_id", "event_id") where "event_id" is not null do nothing returning "id"`,
        [userId, JSON.stringify(activeChannels(settings)), due.toISOString(), meeting.id.slice(0, 512), now.toISOString(), now.toISOString()],
      );
      planned += inserted.length;
    }
  }
  return planned;
}

/** Users (not demo, not guests) whose weekly review is on but not planned: planned now. */
async function planMissingReviews(orm: MikroORM, now: Date): Promise<number> {
  const em = orm.em.fork();
  const rows: Array<{ id: number }> = await em.getConnection().execute(
    `select u."id" from "app_user" u
     left join "nudge_setting" s on s."user_id" = u."id"
     where not u."is_demo" and not u."is_guest"
       and coalesce((s."settings" -> 'weeklyReview' ->> 'enabled')::boolean, true)
       and not exists (select 1 from "nudge_run" r where r."owner_id" = u."id" and r."kind" = 'weekly_review' and r."status" = 'queued' and r."trigger" = 'scheduled')
     order by u."id" limit 1000`,
  );
  for (const { id } of rows) {
    const settings = await loadNudgeSettings(em, id);
    await insertPlanned(em, id, settings, await timeZoneOf(em, id), now);
  }
  return rows.length;
}

/** The worker, idle until start(deps): the app's dependencies include it. */
export function createNudgeWorker(log: Logger, clock: NudgeClock = () => new Date()): NudgeWorker {
  let deps: AppDeps | null = null;
  let running: Promise<number> | null = null;
  let again = false;
  let stopped = false;
  let poll: NodeJS.Timeout | undefined;
  let plan: NodeJS.Timeout | undefined;
  let firstRun: Promise<void> = Promise.resolve();
  const tickOnce = async (app: AppDeps): Promise<number> => {
    const ids = await claimDueRuns(app.orm, clock());
    for (const id of ids) {
      await processRun(app, clock, id).catch((error) => log.warn({ err: error, runId: id }, 'a nudge run failed'));
    }
    return ids.length;
  };
  const tick = (): Promise<number> => {
    const app = deps;
    if (!app || stopped) return Promise.resolve(0);
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let total = 0;
      try {
        do {
          again = false;
          total += await tickOnce(app);
        } while (again && !stopped);
      } catch (error) {
        log.warn({ err: error }, 'nudges could not be claimed');
      } finally {
        running = null;
      }
      return total;
    })();
    return running;
  };
  const planMissing = async () => (deps && !stopped ? planMissingReviews(deps.orm, clock()) : 0);
  const planQuietly = () => planMissing().catch((error) => log.warn({ err: error }, 'weekly reviews could not be planned'));
  const planBriefs = async () => (deps && !stopped ? planMeetingBriefs(deps, clock()) : 0);
  const planBriefsQuietly = () => planBriefs().catch((error) => log.warn({ err: error }, 'meeting briefs could not be planned'));
  let briefs: NodeJS.Timeout | undefined;
  return {
    clock,
    baseUrl: 'http://127.0.0.1',
    tick,
    kick: () => void tick(),
    planMissing,
    planBriefs,
    get firstRun() {
      return firstRun;
    },
    start(app: AppDeps) {
      deps = app;
      firstRun = (async () => {
        await planQuietly();
        await planBriefsQuietly();
        await tick();
      })();
      briefs = setInterval(() => void planBriefsQuietly().then(() => tick()), briefPlanEveryMs);
      briefs.unref();
      poll = setInterval(() => void tick(), pollMs);
      poll.unref();
      plan = setInterval(() => void planQuietly(), planEveryMs);
      plan.unref();
    },
    async stop() {
      stopped = true;
      clearInterval(poll);
      clearInterval(plan);
      clearInterval(briefs);
      await firstRun.catch(() => {});
      await running;
    },
  };
}
