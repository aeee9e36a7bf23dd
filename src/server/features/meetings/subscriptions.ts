import crypto from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import type { Request, Response } from 'express';
import { CalendarSubscription } from '../../db/entities/CalendarSubscription.js';
import type { AppDeps } from '../../deps.js';
import type { AuthedContext } from '../../trpc/context.js';
import { graphNotificationLimit, RateLimitError } from '../limits/index.js';
import { forgetCalendar } from './calendar.js';
import { openMicrosoft365, type Calendar, type GraphDeps } from '../microsoft/index.js';

// Graph change notifications for the user's events, only when PUBLIC_URL is https
// (Graph delivers to https endpoints only). A notification whose clientState matches moves the
// subscription's changedAt, which ends every instance's cached read of that calendar. Renewed
// ahead of expiry, on read and by a periodic job; without https the calendar is read on demand.

export const notificationPath = '/api/microsoft/notifications';
/** Graph allows event subscriptions up to 4230 minutes; two days leaves room to renew. */
const subscriptionLifetimeMs = 2 * 24 * 3_600_000;
/** Renewed once less than this is left. */
export const renewAheadMs = 12 * 3_600_000;

const hash = (value: string) => crypto.createHash('sha256').update(value).digest('hex');

export function notificationsEnabled(deps: Pick<AppDeps, 'config'>): boolean {
  return Boolean(deps.config.publicUrl?.startsWith('https://'));
}

/** The user's live subscription, made or renewed as needed; null without https or when Graph refuses. */
export async function ensureSubscription(ctx: Pick<AuthedContext, 'em' | 'user'> & { deps: Pick<AppDeps, 'config' | 'log'> }, calendar: Calendar): Promise<CalendarSubscription | null> {
  if (!notificationsEnabled(ctx.deps)) return null;
  const now = Date.now();
  const row = await ctx.em.findOne(CalendarSubscription, { user: ctx.user.id });
  try {
    if (row && row.expiresAt.getTime() - now > renewAheadMs) return row;
    const expiresAt = new Date(now + subscriptionLifetimeMs);
    if (row && row.expiresAt.getTime() > now) {
      await calendar.graph.renewSubscription(row.graphSubscriptionId, expiresAt);
      row.expiresAt = expiresAt;
      await ctx.em.flush();
      return row;
    }
    if (row) await ctx.em.nativeDelete(CalendarSubscription, { id: row.id });
    const clientState = crypto.randomBytes(32).toString('base64url');
    const made = await calendar.graph.subscribe({ notificationUrl: `${ctx.deps.config.publicUrl}${notificationPath}`, clientState, expiresAt });
    const created = ctx.em.create(CalendarSubscription, { user: ctx.user.id, graphSubscriptionId: made.id, clientStateHash: hash(clientState), expiresAt: new Date(made.expirationDateTime || expiresAt), changedAt: new Date() });
    await ctx.em.flush();
    return created;
  } catch (error) {
    ctx.deps.log.warn({ err: error, userId: ctx.user.id }, 'calendar change notifications unavailable; reading on demand');
    return null;
  }
}

/** Renews the subscriptions that expire soon (the periodic job). */
export async function renewSubscriptions(deps: GraphDeps & Pick<AppDeps, 'orm'>): Promise<number> {
  const em = deps.orm.em.fork();
  const due = await em.find(CalendarSubscription, { expiresAt: { $lt: new Date(Date.now() + renewAheadMs) } }, { populate: ['user'], limit: 200 });
  let renewed = 0;
  for (const row of due) {
    const { calendar } = await openMicrosoft365(deps, em, row.user.id);
    if (!calendar) {
      await em.nativeDelete(CalendarSubscription, { id: row.id });
      continue;
    }
    if (await ensureSubscription({ deps, em, user: row.user }, calendar)) renewed += 1;
  }
  return renewed;
}

/** Disconnecting the calendar: Graph stops notifying, and nothing read from it stays cached. */
export async function dropCalendarState(deps: GraphDeps, em: EntityManager, userId: number): Promise<void> {
  forgetCalendar(deps.microsoft.calendarCache, userId);
  const rows = await em.find(CalendarSubscription, { user: userId });
  if (!rows.length) return;
  const calendar = await openMicrosoft365(deps, em, userId).then((m365) => m365.calendar, () => null);
  for (const row of rows) {
    await calendar?.graph.deleteSubscription(row.graphSubscriptionId).catch((error: unknown) => deps.log.info({ err: error }, 'Graph subscription not deleted; it expires on its own'));
  }
  await em.nativeDelete(CalendarSubscription, { user: userId });
}

type Notification = { subscriptionId?: unknown; clientState?: unknown };

/**
 * POST /api/microsoft/notifications: Graph's validation handshake (echo validationToken as plain
 * text) and change notifications. A notification counts only with its subscription's clientState.
 */
export function notificationHandler(deps: GraphDeps & Pick<AppDeps, 'orm' | 'rateLimits'>) {
  return async (req: Request, res: Response) => {
    const token = req.query.validationToken;
    if (typeof token === 'string') {
      if (!notificationsEnabled(deps) || token.length > 1024) return void res.status(400).type('text/plain').send('');
      return void res.status(200).type('text/plain').send(token);
    }
    const items = (req.body as { value?: Notification[] } | undefined)?.value;
    // Each item costs a lookup: a request holds at most graphNotificationLimit.itemsPerRequest.
    if (!Array.isArray(items) || items.length > graphNotificationLimit.itemsPerRequest) {
      return void res.status(400).json({ message: `Not a change notification (at most ${graphNotificationLimit.itemsPerRequest} items a request)` });
    }
    const em = deps.orm.em.fork();
    let accepted = 0;
    let limited: RateLimitError | null = null;
    // One subscription is looked at once a request, however many of its items there are.
    const seen = new Set<string>();
    for (const item of items) {
      if (typeof item?.subscriptionId !== 'string' || typeof item.clientState !== 'string' || item.subscriptionId.length > 200) continue;
      if (seen.has(item.subscriptionId)) continue;
      seen.add(item.subscriptionId);
      const row = await em.findOne(CalendarSubscription, { graphSubscriptionId: item.subscriptionId });
      if (!row) continue;
      const given = Buffer.from(hash(item.clientState));
      if (!crypto.timingSafeEqual(given, Buffer.from(row.clientStateHash))) continue;
      // Each accepted notification drops the user's calendar cache (the next read asks Graph):
      // a subscription delivers at most graphNotificationLimit.perSubscriptionPerMinute a minute.
      try {
        await deps.rateLimits.graphNotifications.consume(`sub:${row.id}`);
      } catch (error) {
        if (!(error instanceof RateLimitError)) throw error;
        limited = error;
        continue;
      }
      row.changedAt = new Date();
      forgetCalendar(deps.microsoft.calendarCache, row.user.id);
      accepted += 1;
    }
    await em.flush();
    if (!accepted && limited) {
      // Graph retries a notification answered 429, later.
      res.setHeader('Retry-After', String(limited.retryAfterSeconds));
      return void res.status(429).end();
    }
    res.status(accepted ? 202 : 403).end();
  };
}
