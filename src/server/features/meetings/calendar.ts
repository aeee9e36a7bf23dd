import type { EntityManager } from '@mikro-orm/core';
import { TRPCError } from '@trpc/server';
import { meetingsTexts } from '../../../shared/texts/meetings.js';
import type { Meeting } from '../../../shared/meeting.js';
import type { GraphEvent } from '../../providers/microsoft/graphCalendar.js';
import { openMicrosoft365, type Calendar, type GraphDeps } from '../microsoft/index.js';
import { zonedTime } from './meetingTimes.js';

// A user's Microsoft calendar, as microsoft365.ts opens it: only a 'Microsoft Calendar' connection
// opens it (mail alone is not enough).

/** The user's calendar, or 409 when 'Microsoft Calendar' is not connected (or needs a reconnect). */
export async function requireCalendar(deps: GraphDeps, em: EntityManager, userId: number): Promise<Calendar> {
  const { calendar } = await openMicrosoft365(deps, em, userId);
  if (!calendar) throw new TRPCError({ code: 'CONFLICT', message: meetingsTexts.notConnected });
  return calendar;
}

/** A Graph event as the API answers it (times with their offset). */
export function meetingView(event: GraphEvent): Meeting & { startAt: Date; endAt: Date } {
  const start = zonedTime(event.start.dateTime, event.start.timeZone);
  const end = zonedTime(event.end.dateTime, event.end.timeZone);
  return {
    id: event.id,
    subject: event.subject,
    start: start.iso,
    end: end.iso,
    startAt: start.at,
    endAt: end.at,
    organizer: event.organizer,
    attendees: event.attendees,
    location: event.location,
    isOnline: event.isOnline,
    joinUrl: event.joinUrl,
    bodyPreview: event.bodyPreview,
  };
}

// Without change notifications the calendar is read on demand and kept this long per instance.
export const calendarCacheMs = 60_000;
// With a subscription, a read stays valid until a notification moves changedAt, at most this long.
export const subscribedCacheMs = 10 * 60_000;

type CachedWindow = { at: number; stamp: string | null; events: GraphEvent[] };
/** Per instance: `${userId}:${days}:${timeZone}` → the events read. */
export type CalendarCache = Map<string, CachedWindow>;

export function createCalendarCache(): CalendarCache {
  return new Map();
}

export function forgetCalendar(cache: CalendarCache, userId: number) {
  for (const key of cache.keys()) if (key.startsWith(`${userId}:`)) cache.delete(key);
}

/** The events of the next `days` days, from the cache while it is fresh. */
export async function readWindow(cache: CalendarCache, calendar: Calendar, userId: number, days: number, stamp: string | null, subscribed: boolean): Promise<GraphEvent[]> {
  const key = `${userId}:${days}:${calendar.timeZone}`;
  const cached = cache.get(key);
  const now = Date.now();
  const maxAge = subscribed ? subscribedCacheMs : calendarCacheMs;
  if (cached && now - cached.at < maxAge && cached.stamp === stamp) return cached.events;
  const events = await calendar.graph.calendarView({ start: new Date(now), end: new Date(now + days * 86_400_000), timeZone: calendar.timeZone });
  if (cache.size > 5_000) cache.clear();
  cache.set(key, { at: now, stamp, events });
  return events;
}
