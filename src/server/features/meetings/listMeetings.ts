import type { z } from 'zod';
import type { listMeetingsSchema } from '../../../shared/schemas/meetings.js';
import { meetingsTexts } from '../../../shared/texts/meetings.js';
import { CalendarSubscription } from '../../db/entities/CalendarSubscription.js';
import { MeetingPrep } from '../../db/entities/MeetingPrep.js';
import type { AuthedContext } from '../../trpc/context.js';
import { asPublicError } from '../microsoft/index.js';
import type { Meeting } from '../../../shared/meeting.js';
import { meetingView, readWindow, requireCalendar } from './calendar.js';
import { isSampleMeetingId, sampleTimeZone, sampleWeek, seesSampleMeetings } from './sampleMeetings.js';
import { ensureSubscription } from './subscriptions.js';

// GET /api/meetings?days=N: the coming N days of the user's calendar from Graph's
// calendarView (series expanded, cancelled left out), ordered by start, each with its prep chat;
// and the prepared meetings that ended in the last 24 hours, which ask 'How did it go?'. A demo
// visitor gets the sample week instead (sampleMeetings.ts), every meeting with `sample: true`.

export type ListedMeeting = Meeting & { prepChatId: number | null; agendaSavedAt: string | null; needsReflection: boolean; sample: boolean };

const reflectionWindowMs = 24 * 3_600_000;

export async function listMeetings(ctx: AuthedContext, input: z.output<typeof listMeetingsSchema>) {
  if (seesSampleMeetings(ctx.deps.config, ctx.user)) {
    const timeZone = await sampleTimeZone(ctx, input.timeZone);
    const samples = sampleWeek(ctx.user, timeZone, input.days);
    return { meetings: await withPreps(ctx, samples, true), timeZone, subscribed: false, sample: true as const };
  }
  const calendar = await requireCalendar(ctx.deps, ctx.em, ctx.user.id);
  const subscription = await ensureSubscription(ctx, calendar);
  let events;
  try {
    events = await readWindow(ctx.deps.microsoft.calendarCache, calendar, ctx.user.id, input.days, subscription?.changedAt?.toISOString() ?? null, Boolean(subscription));
  } catch (error) {
    throw asPublicError(error, meetingsTexts.fetchError);
  }
  const meetings = await withPreps(ctx, events.map(meetingView), false);
  return { meetings, timeZone: calendar.timeZone, subscribed: Boolean(subscription), sample: false as const };
}

/** The meetings with their preps; and the prepared meetings that ended in the last day, which ask 'How did it go?'. */
async function withPreps(ctx: AuthedContext, views: Array<Meeting & { startAt: Date; endAt: Date }>, sample: boolean): Promise<ListedMeeting[]> {
  const now = Date.now();
  const preps = await ctx.em.find(MeetingPrep, {
    owner: ctx.user.id,
    $or: [{ eventId: { $in: views.map((e) => e.id) } }, { endAt: { $gte: new Date(now - reflectionWindowMs), $lte: new Date(now) } }],
  });
  const prepOf = new Map(preps.map((prep) => [prep.eventId, prep]));
  const needsReflection = (prep: MeetingPrep | undefined, endAt: Date) =>
    Boolean(prep?.chat && !prep.reflectedAt && endAt.getTime() <= now && now - endAt.getTime() <= reflectionWindowMs);

  const meetings: ListedMeeting[] = views.map(({ startAt: _start, endAt, ...view }) => {
    const prep = prepOf.get(view.id);
    return { ...view, prepChatId: prep?.chat?.id ?? null, agendaSavedAt: prep?.agendaSavedAt?.toISOString() ?? null, needsReflection: needsReflection(prep, endAt), sample };
  });
  // Meetings that ended in the last day are no longer in the window: they come from their prep.
  const listed = new Set(meetings.map((m) => m.id));
  const ended = preps
    .filter((prep) => !listed.has(prep.eventId) && isSampleMeetingId(prep.eventId) === sample && needsReflection(prep, prep.endAt))
    .map((prep): ListedMeeting => ({
      id: prep.eventId,
      subject: prep.subject,
      start: prep.invite.start,
      end: prep.invite.end,
      organizer: prep.invite.organizer,
      attendees: prep.invite.attendees,
      location: prep.invite.location,
      isOnline: prep.invite.isOnline,
      joinUrl: null,
      bodyPreview: prep.invite.body.slice(0, 255),
      prepChatId: prep.chat?.id ?? null,
      agendaSavedAt: prep.agendaSavedAt?.toISOString() ?? null,
      needsReflection: true,
      sample,
    }));
  return [...ended, ...meetings].sort((a, b) => Date.parse(a.start) - Date.parse(b.start));
}

export async function hasSubscription(ctx: AuthedContext) {
  return (await ctx.em.count(CalendarSubscription, { user: ctx.user.id })) > 0;
}
