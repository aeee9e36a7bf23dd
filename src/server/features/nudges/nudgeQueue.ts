import type { EntityManager, MikroORM } from '@mikro-orm/core';
import type { Logger } from 'pino';
import { defaultNudgeSettings, type NudgeChannel, type NudgeKind, type NudgeSettings } from '../../../shared/schemas/nudges.js';
import { nudgesTexts } from '../../../shared/texts/nudges.js';
import { Chat } from '../../db/entities/Chat.js';
import { Message } from '../../db/entities/Message.js';
import { NudgeRun, NudgeSetting } from '../../db/entities/Nudge.js';
import type { AppDeps } from '../../deps.js';
import { timeZoneOf } from '../../db/userTimeZone.js';
import { meetingView } from '../meetings/index.js';
import { openMicrosoft365, ReconnectNeededError } from '../microsoft/index.js';
import { unsubscribeToken } from './unsubscribeToken.js';
import { callNudge } from './nudgeCall.js';
import { pushNudge } from './push.js';
import { newChatIsTemporary } from '../privacy/index.js';
import { meetingBriefFacts, renderMeetingBrief, weeklyReviewFacts } from './nudgeContent.js';
import { writeWeeklyReview } from './reviewWriter.js';
import { formatLocal, inQuietHours, nextWeeklyRun, quietHoursEnd } from './schedule.js';
import { queueNames, type JobQueue } from '../../jobs/jobQueue.js';
import type { JobWithMetadata } from 'pg-boss';
import type { NudgeClock, NudgeQueue, RunSender } from './nudgeQueuePort.js';

// Nudge runs are jobs of the durable job queue (pg-boss, jobs/jobQueue.ts): a planned or asked-for
// run is a row of nudge_run (the history the user sees: queued, sent, skipped, failed, and why)
// and a job of the 'nudge-run' queue that starts at the run's due time, with the run as its
// singleton key. pg-boss hands a due job to one instance only (however many run), keeps it through
// a restart (a job that came due while every instance was down is fetched by the first poll after
// start), retries a failed delivery with back-off and gives back the job of an instance that died
// mid-run. The queue decides what is due by the database's clock (job_now()); tests move it with
// pg-boss's TestClock, and the worker's own clock (quiet hours, the weekly cap, the plans) reads
// the same clock, so both agree.

export type { NudgeClock, RunSender } from './nudgeQueuePort.js';

/** The worker: the port the features call (nudgeQueuePort.ts), and what the jobs and tests drive. */
export type NudgeWorker = NudgeQueue & {
  /** The address this server listens on (known once it listens): links in emails when PUBLIC_URL is unset. */
  baseUrl(): string;
  /** Fetches the due jobs and runs them once each; resolves with how many were fetched. */
  tick(): Promise<number>;
  /** Plans the weekly review of users who have none planned, and queues the job of every queued run that has none (at start, then hourly). */
  planMissing(): Promise<number>;
  /** Plans the briefs of meetings coming up (at start, then every 10 minutes). */
  planBriefs(): Promise<number>;
  /** Starts planning and polling the queue, with the first tick at once. */
  start(deps: AppDeps, queue: JobQueue): void;
  /** The first planning and tick (start-up waits for it; tests too). */
  readonly firstRun: Promise<void>;
  stop(): Promise<void>;
};


const pollMs = 15_000;
const planEveryMs = 3_600_000;
const briefPlanEveryMs = 10 * 60_000;
const fetchBatch = 20;
/** Runs one instance delivers at once (each of them has its own deliveries in parallel). */
const maxRunsAtOnce = 20;

export async function loadNudgeSettings(em: EntityManager, userId: number): Promise<NudgeSettings> {
  const row = await em.findOne(NudgeSetting, { user: userId });
  return row?.settings ?? defaultNudgeSettings;
}

/**
 * A guest space's nudges (a visitor's run now) are written in the app only: a guest
 * cannot connect anything outside it, so no email, push or call, whatever its settings hold.
 */
export const inAppOnly = (settings: NudgeSettings): NudgeSettings => ({ ...settings, channels: { email: false, push: false, call: false } });
const outsideRefused = (owner: { isGuest: boolean; isDemo: boolean }) => owner.isGuest || owner.isDemo;

// What a run is planned to use: the app always, email, push and a call when on. Once it runs, its
// channels are those that delivered.
export const activeChannels = (settings: NudgeSettings): NudgeChannel[] => [
  'app',
  ...(settings.channels.email ? (['email'] as const) : []),
  ...(settings.channels.push ? (['push'] as const) : []),
  ...(settings.channels.call ? (['call'] as const) : []),
];

/** Replaces the user's planned weekly review with one at the next day and time (none when turned off). */
export async function planWeeklyReview(em: EntityManager, send: RunSender, userId: number, settings: NudgeSettings, timeZone: string, now: Date): Promise<Date | null> {
  // The job of a run deleted here finds no run and ends (processRun).
  await em.getConnection().execute(`delete from "nudge_run" where "owner_id" = ? and "kind" = 'weekly_review' and "status" = 'queued' and "trigger" = 'scheduled'`, [userId]);
  if (!settings.weeklyReview.enabled) return null;
  return insertPlanned(em, send, userId, settings, timeZone, now);
}

async function insertPlanned(em: EntityManager, send: RunSender, userId: number, settings: NudgeSettings, timeZone: string, now: Date): Promise<Date> {
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
  const userId = owner.id;
  const stored = await loadNudgeSettings(em, userId);
  const settings = outsideRefused(owner) ? inAppOnly(stored) : stored;
  const run = em.create(NudgeRun, { owner: userId, kind, status: 'queued', trigger: 'manual', channels: activeChannels(settings), dueAt: now, attempts: 0, createdAt: now, updatedAt: now });
  await em.flush();
  await send(run.id, now);
  return run.id;
}

/** What became of a job's run: done (sent, skipped, failed or gone), waiting (a new job queued), or a delivery to retry. */
type Outcome = { done: true } | { retry: string };

/** Runs the run of one fetched job, attempt `attempt` of `lastAttempt` (one function delivering a claimed run). */
async function processRun(deps: AppDeps, clock: NudgeClock, send: RunSender, runId: number, attempt: number, lastAttempt: number): Promise<Outcome> {
  const em = deps.orm.em.fork();
  const run = await em.findOne(NudgeRun, runId, { populate: ['owner'] });
  // Replanned (its settings changed) or already ended: nothing to do.
  if (!run || run.status !== 'queued') return { done: true };
  const userId = run.owner.id;
  const stored = await loadNudgeSettings(em, userId);
  const settings = outsideRefused(run.owner) ? inAppOnly(stored) : stored;
  const timeZone = await timeZoneOf(em, userId);
  const now = clock();
  const finish = async (status: 'sent' | 'skipped' | 'failed', reason: string | null, chat?: Chat): Promise<Outcome> => {
    run.status = status;
    run.reason = reason;
    run.updatedAt = now;
    if (chat) run.chat = chat;
    await em.flush();
    if (run.trigger === 'scheduled' && run.kind === 'weekly_review' && settings.weeklyReview.enabled) await insertPlanned(em, send, userId, settings, timeZone, now);
    return { done: true };
  };

  if (run.trigger === 'scheduled') {
    const enabled = run.kind === 'weekly_review' ? settings.weeklyReview.enabled : settings.meetingBrief.enabled;
    if (!enabled) return finish('skipped', nudgesTexts.reasonTurnedOff);
    if (inQuietHours(now, timeZone, settings.quietHours)) {
      // A new job for the run, starting at the end of the quiet hours; this one ends.
      const end = quietHoursEnd(now, timeZone, settings.quietHours);
      run.dueAt = end;
      run.reason = nudgesTexts.reasonQuietHours(formatLocal(end, timeZone));
      run.updatedAt = now;
      await em.flush();
      await send(run.id, end);
      return { done: true };
    }
    const sent = await em.count(NudgeRun, { owner: userId, status: 'sent', updatedAt: { $gt: new Date(now.getTime() - 7 * 86_400_000) } });
    if (sent >= settings.maxPerWeek) return finish('skipped', nudgesTexts.reasonWeeklyCap(settings.maxPerWeek));
  }
  run.attempts = attempt;

  try {
    let title: string;
    let content: string;
    if (run.kind === 'weekly_review') {
      const facts = await weeklyReviewFacts(deps, em, userId, now, timeZone);
      title = nudgesTexts.weeklyReviewTitle(facts.date);
      // A retry (a failed email) sends the review its chat holds: the model writes it once.
      const written = run.chat ? await em.findOne(Message, { chat: run.chat.id, role: 'assistant' }, { orderBy: { id: 'asc' } }) : null;
      content = written?.content ?? (await writeWeeklyReview(deps, em, userId, facts)).content;
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
    // The queue retries the job with back-off (the worker records when); the last attempt fails the run.
    if (attempt < lastAttempt) {
      run.reason = nudgesTexts.reasonRetrying(attempt, message);
      run.updatedAt = now;
      await em.flush();
      return { retry: message };
    }
    return finish('failed', nudgesTexts.reasonFailed(message));
  }
}

/** The base of the links in an email: PUBLIC_URL, else the address this server listens on. */
function appUrl(deps: AppDeps): string {
  return deps.config.publicUrl ?? deps.nudges.baseUrl();
}

/**
 * The nudge by email, from the user's own connected mailbox to its own address, with a link to the
 * chat and a signed one-click unsubscribe link. False when the mailbox needs reconnecting (the
 * nudge stays in the app); a Graph failure throws (the run is retried).
 */
async function emailNudge(deps: AppDeps, em: EntityManager, userId: number, kind: NudgeKind, chatId: number, title: string, content: string): Promise<boolean> {
  const mailbox = await openMicrosoft365(deps, em, userId).then((m365) => m365.mail, () => null);
  if (!mailbox?.accountEmail) return false;
  const base = appUrl(deps);
  const chatLink = `${base}/app?chat=${chatId}`;
  const unsubscribe = `${base}/api/nudges/unsubscribe?token=${encodeURIComponent(unsubscribeToken(deps.sessionPassword, userId, kind))}`;
  try {
    // As MIME, for RFC 8058's one-click headers: a mail client's 'Unsubscribe' POSTs to the link.
    await mailbox.graph.sendMimeMail({
      from: mailbox.accountEmail,
      subject: title,
      html: nudgeEmailHtml(content, chatLink, unsubscribe, kind, base),
      text: nudgeEmailText(content, chatLink, unsubscribe, kind, base),
      to: [{ name: '', email: mailbox.accountEmail }],
      headers: { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    });
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

/** The plain-text alternative of the same mail: the brief's links spelled out. */
export function nudgeEmailText(content: string, chatLink: string, unsubscribeLink: string, kind: NudgeKind, base: string): string {
  const body = content.replace(/\*\*(.+?)\*\*/g, '$1').replace(/\[([^[\]]+)\]\((\/[^()\s]*)\)/g, (_all, label: string, href: string) => `${label} (${base}${href})`);
  const kindLabel = nudgesTexts.kindLabel[kind] ?? kind;
  return [body, '', `${nudgesTexts.emailOpenChat}: ${chatLink}`, '', `${nudgesTexts.emailFooter} ${nudgesTexts.emailUnsubscribe(kindLabel)}: ${unsubscribeLink}`, ''].join('\n');
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
async function planMeetingBriefs(deps: AppDeps, send: RunSender, now: Date): Promise<number> {
  const em = deps.orm.em.fork();
  const rows: Array<{ user_id: number }> = await em.getConnection().execute(
    `select s."user_id" from "nudge_setting" s join "app_user" u on u."id" = s."user_id"
     where not u."is_demo" and not u."is_guest" and (s."settings" -> 'meetingBrief' ->> 'enabled')::boolean
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
 * Users (not demo, not guests) whose weekly review is on but not planned: planned now. Then every
 * queued run gets its job again: the queue keeps one per run (its singleton key), so this only
 * adds those lost between a run's row and its job (an instance that died in between) and those
 * of runs planned before the queue held them.
 */
async function planMissingReviews(orm: MikroORM, send: RunSender, now: Date): Promise<number> {
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
    await insertPlanned(em, send, id, settings, await timeZoneOf(em, id), now);
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

const singletonKey = (runId: number) => `run-${runId}`;

/** The worker, idle until start(deps, queue): the app's dependencies include it. */
export function createNudgeWorker(log: Logger, clock: NudgeClock = () => new Date(), listenUrl: () => string = () => 'http://127.0.0.1'): NudgeWorker {
  let deps: AppDeps | null = null;
  let queue: JobQueue | null = null;
  // Rounds of fetched jobs run side by side (a run now is fetched at once, whatever else runs), and
  // the runs of a round too: one user's slow delivery holds no other user's run. At most
  // maxRunsAtOnce runs at once on an instance; past that a round waits for room.
  const rounds = new Set<Promise<number>>();
  let active = 0;
  let again = false;
  let stopped = false;
  let poll: NodeJS.Timeout | undefined;
  let plan: NodeJS.Timeout | undefined;
  let firstRun: Promise<void> = Promise.resolve();
  const enqueue: RunSender = async (runId, dueAt) => {
    if (!queue || stopped) return; // queued by the sweep at start
    await queue.boss.send(queueNames.nudgeRun, { runId }, { singletonKey: singletonKey(runId), startAfter: dueAt });
  };
  const tickOnce = async (app: AppDeps, jobs: JobQueue): Promise<number> => {
    const room = maxRunsAtOnce - active;
    if (room <= 0) {
      again = true;
      return 0;
    }
    active += room;
    let fetched: JobWithMetadata<{ runId: number }>[] = [];
    try {
      fetched = await jobs.boss.fetch<{ runId: number }>(queueNames.nudgeRun, { batchSize: Math.min(fetchBatch, room), includeMetadata: true });
    } finally {
      active -= room - fetched.length;
    }
    await Promise.all(fetched.map((job) => runJob(app, jobs, job).finally(() => (active -= 1))));
    return fetched.length;
  };
  const runJob = async (app: AppDeps, jobs: JobQueue, job: JobWithMetadata<{ runId: number }>): Promise<void> => {
    const { runId } = job.data;
    try {
      const outcome = await processRun(app, clock, enqueue, runId, job.retryCount + 1, job.retryLimit + 1);
      if ('retry' in outcome) {
        await jobs.boss.fail(queueNames.nudgeRun, job, { message: outcome.retry });
        // The history says when the queue tries again (its back-off), to the second: rounded up,
        // as the database keeps microseconds.
        const next = await jobs.boss.getJobById(queueNames.nudgeRun, job.id);
        if (next?.state === 'retry') {
          const at = Math.ceil(new Date(next.startAfter).getTime() / 1000) * 1000;
          await app.orm.em.fork().nativeUpdate(NudgeRun, { id: runId, status: 'queued' }, { dueAt: new Date(at) });
        }
      } else {
        await jobs.boss.complete(queueNames.nudgeRun, job);
      }
    } catch (error) {
      log.warn({ err: error, runId }, 'a nudge run failed');
      await jobs.boss.fail(queueNames.nudgeRun, job, { message: error instanceof Error ? error.message : 'unknown error' }).catch(() => {});
    }
  };
  /** A round: fetches what is due (as much as there is room for) and runs it; resolves once the rounds under way when it began are done too. */
  const tick = async (): Promise<number> => {
    const app = deps;
    const jobs = queue;
    if (!app || !jobs || stopped) return 0;
    const before = [...rounds];
    const round = tickOnce(app, jobs).catch((error) => {
      log.warn({ err: error }, 'nudges could not be fetched');
      return 0;
    });
    rounds.add(round);
    const fetched = await round;
    rounds.delete(round);
    // A round refused for want of room asked for another: now there is some.
    if (again && !stopped && active < maxRunsAtOnce) {
      again = false;
      void tick();
    }
    await Promise.all(before);
    return fetched;
  };
  const planMissing = async () => (deps && !stopped ? planMissingReviews(deps.orm, enqueue, clock()) : 0);
  const planQuietly = () => planMissing().catch((error) => log.warn({ err: error }, 'weekly reviews could not be planned'));
  const planBriefs = async () => (deps && !stopped ? planMeetingBriefs(deps, enqueue, clock()) : 0);
  const planBriefsQuietly = () => planBriefs().catch((error) => log.warn({ err: error }, 'meeting briefs could not be planned'));
  let briefs: NodeJS.Timeout | undefined;
  return {
    clock,
    baseUrl: listenUrl,
    tick,
    kick: () => void tick(),
    enqueue,
    planMissing,
    planBriefs,
    get firstRun() {
      return firstRun;
    },
    start(app: AppDeps, jobs: JobQueue) {
      deps = app;
      queue = jobs;
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
      while (rounds.size) await Promise.all([...rounds]);
    },
  };
}
