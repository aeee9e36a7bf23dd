import type { EntityManager } from '@mikro-orm/core';
import { TRPCError } from '@trpc/server';
import { meetingsTexts } from '../../../shared/texts/meetings.js';
import { UserSettings } from '../../db/entities/UserSettings.js';
import { graphCalendar, type GraphCalendar, type GraphEvent } from '../../providers/microsoft/graphCalendar.js';
import { accessTokenFor, findConnection, type GraphDeps } from '../microsoft/index.js';
import { zonedTime } from './meetingTimes.js';

// A user's Microsoft calendar. Only a 'Microsoft Calendar' connection opens it (mail
// alone is not enough); every request goes through the user's own token and mailbox gate, so an
// event id of another user is simply not found in theirs.

export type Calendar = { graph: GraphCalendar; accountEmail: string | null; timeZone: string };

export async function timeZoneOf(em: EntityManager, userId: number): Promise<string> {
  const settings = await em.findOne(UserSettings, { user: userId }, { fields: ['timeZone'] });
  return settings?.timeZone ?? 'UTC';
}

/** The user's calendar, or null when 'Microsoft Calendar' is not connected (or needs a reconnect). */
export async function openCalendar(deps: GraphDeps, em: EntityManager, userId: number, service: 'calendar' | 'email' = 'calendar'): Promise<Calendar | null> {
  const connection = await findConnection(em, userId, service);
  if (!connection || connection.needsReconnect) return null;
  const graph = graphCalendar({
    baseUrl: deps.config.microsoft.graphBaseUrl,
    accessToken: () => accessTokenFor(deps, em, connection),
    gate: (work) => deps.microsoft.gates.run(`user:${userId}`, work),
  });
  return { graph, accountEmail: connection.accountEmail ?? null, timeZone: await timeZoneOf(em, userId) };
}

export async function requireCalendar(deps: GraphDeps, em: EntityManager, userId: number): Promise<Calendar> {
  const calendar = await openCalendar(deps, em, userId);
  if (!calendar) throw new TRPCError({ code: 'CONFLICT', message: meetingsTexts.notConnected });
  return calendar;
}

export type MeetingView = {
  id: string;
  subject: string;
  start: string;
  end: string;
  organizer: { name: string; email: string };
  attendees: Array<{ name: string; email: string; response: string }>;
  location: string;
  isOnline: boolean;
  joinUrl: string | null;
  bodyPreview: string;
};

/** A Graph event as the API answers it (times with their offset). */
export function meetingView(event: GraphEvent): MeetingView & { startAt: Date; endAt: Date } {
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
