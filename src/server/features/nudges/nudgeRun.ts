import type { EntityManager } from '@mikro-orm/core';
import { nudgesTexts } from '../../../shared/texts/nudges.js';
import { Chat } from '../../db/entities/Chat.js';
import { Message } from '../../db/entities/Message.js';
import { NudgeRun } from '../../db/entities/Nudge.js';
import type { AppDeps } from '../../deps.js';
import { timeZoneOf } from '../../db/userTimeZone.js';
import { newChatIsTemporary } from '../privacy/index.js';
import { programNudgeContent } from '../organisations/index.js';
import { deliverOutside } from './nudgeChannels.js';
import { meetingBriefFacts, renderMeetingBrief, weeklyReviewFacts } from './nudgeContent.js';
import { briefLookAheadMs, planNextReview } from './nudgePlans.js';
import type { NudgeClock, RunSender } from './nudgeQueuePort.js';
import { runSettingsOf } from './nudgeSettings.js';
import { writeWeeklyReview } from './reviewWriter.js';
import { formatLocal, inQuietHours, quietHoursEnd } from './schedule.js';

// A run's policy, when its job comes due: a run replanned or ended does nothing; a scheduled one
// turned off is skipped, one in quiet hours waits for their end (a new job), one past the weekly
// cap is skipped; otherwise its content is written into a new chat and carried by the channels
// (nudgeChannels.ts). A failed delivery is retried by the queue until its last attempt fails the
// run. Once a scheduled weekly review ends, the next week's is planned.

/** What became of a job's run: done (sent, skipped, failed, gone, or waiting on a new job), or a delivery to retry. */
export type Outcome = { done: true } | { retry: string };

/** Runs the run `runId`, attempt `attempt` of `lastAttempt`. */
export async function processRun(deps: Pick<AppDeps, 'config' | 'orm' | 'log' | 'sessionPassword' | 'rateLimits' | 'sessions' | 'coach' | 'microsoft' | 'providers' | 'nudges' | 'hostLookup'>, clock: NudgeClock, send: RunSender, runId: number, attempt: number, lastAttempt: number): Promise<Outcome> {
  const em = deps.orm.em.fork();
  const run = await em.findOne(NudgeRun, runId, { populate: ['owner'] });
  // Replanned (its settings changed) or already ended: nothing to do.
  if (!run || run.status !== 'queued') return { done: true };
  const userId = run.owner.id;
  const settings = await runSettingsOf(em, run.owner);
  const timeZone = await timeZoneOf(em, userId);
  const now = clock();
  const finish = async (status: 'sent' | 'skipped' | 'failed', reason: string | null, chat?: Chat): Promise<Outcome> => {
    run.status = status;
    run.reason = reason;
    run.updatedAt = now;
    if (chat) run.chat = chat;
    await em.flush();
    if (run.trigger === 'scheduled' && run.kind === 'weekly_review' && settings.weeklyReview.enabled) await planNextReview(em, send, userId, settings, timeZone, now);
    return { done: true };
  };

  if (run.trigger === 'scheduled') {
    // A debrief's nudge is planned only while automatic debriefs are on (their link turns them off).
    const enabled = run.kind === 'weekly_review' ? settings.weeklyReview.enabled : run.kind === 'meeting_brief' ? settings.meetingBrief.enabled : true;
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
    if (run.kind === 'program') {
      // Read when it comes due: a program ended, over or left since it was planned sends nothing.
      const said = await programNudgeContent(em, userId, run.eventId, now);
      if (!said) return await finish('skipped', nudgesTexts.reasonProgramOver);
      title = said.title;
      content = said.content;
    } else if (run.kind === 'meeting_debrief') {
      // Written before it was queued: the debrief is in its chat; the channels carry its title and a line about it.
      if (!run.chat) return await finish('skipped', nudgesTexts.reasonDebriefGone);
      title = run.title ?? nudgesTexts.kindLabel.meeting_debrief!;
      content = nudgesTexts.debriefBody;
    } else if (run.kind === 'weekly_review') {
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
    const delivery = await deliverOutside(deps, em, userId, run.kind, run.chat.id, settings, title, content);
    run.channels = delivery.channels;
    return await finish(delivery.callFailed ? 'failed' : 'sent', delivery.reason);
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

/** A new chat whose first message is the coach's nudge. */
async function nudgeChat(em: EntityManager, userId: number, title: string, content: string, now: Date): Promise<Chat> {
  // With chat history off (Settings, Privacy) the nudge's chat is temporary like any new chat.
  const isTemporary = await newChatIsTemporary(em, userId);
  const chat = em.create(Chat, { owner: userId, title: title.slice(0, 200), isPinned: false, isTemporary, createdAt: now, updatedAt: now });
  em.create(Message, { chat, role: 'assistant', content, status: 'complete' });
  await em.flush();
  return chat;
}
