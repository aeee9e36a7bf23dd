import { UserSettings } from '../../db/entities/UserSettings.js';
import type { AuthedContext } from '../../trpc/context.js';
import { loadNudgeSettings, planWeeklyReview } from '../nudges/index.js';
import { timeZoneOf } from '../../db/userTimeZone.js';
import { forgetCalendar } from './calendar.js';

// The time zone the calendar is read in and nudges are planned in (a profile setting): the one the
// user chose, else the browser's, which the app sends once when no zone was ever chosen; UTC only
// until then.
export async function meetingSettings(ctx: AuthedContext) {
  return { timeZone: await timeZoneOf(ctx.em, ctx.user.id) };
}

export async function saveTimeZone(ctx: AuthedContext, input: { timeZone: string }) {
  const settings = await ctx.em.findOne(UserSettings, { user: ctx.user.id });
  if (settings) settings.timeZone = input.timeZone;
  else ctx.em.create(UserSettings, { user: ctx.user.id, timeZone: input.timeZone });
  await ctx.em.flush();
  await zoneChanged(ctx);
  return { timeZone: input.timeZone };
}

/**
 * The browser's time zone, taken only when the user has none yet (a new account or guest space):
 * a zone already there, chosen on the Meetings page or adopted from another browser, is kept.
 */
export async function adoptTimeZone(ctx: AuthedContext, input: { timeZone: string }) {
  // One conditional statement each way, so two tabs adopting at once cannot overwrite a choice.
  const updated = await ctx.em.nativeUpdate(UserSettings, { user: ctx.user.id, timeZone: null }, { timeZone: input.timeZone, updatedAt: new Date() });
  let adopted = updated > 0;
  if (!adopted) {
    const inserted: Array<{ user_id: number }> = await ctx.em
      .getConnection()
      .execute(`insert into "user_settings" ("user_id", "time_zone", "updated_at") values (?, ?, ?::timestamptz) on conflict ("user_id") do nothing returning "user_id"`, [ctx.user.id, input.timeZone, new Date().toISOString()]);
    adopted = inserted.length > 0;
  }
  if (adopted) await zoneChanged(ctx);
  return { timeZone: await timeZoneOf(ctx.em.fork(), ctx.user.id), adopted };
}

// The calendar is read again in the new zone, and an account's planned weekly review moves to its
// day and time there (a guest space's is never planned).
async function zoneChanged(ctx: AuthedContext) {
  forgetCalendar(ctx.deps.microsoft.calendarCache, ctx.user.id);
  if (ctx.user.isGuest || ctx.user.isDemo) return;
  const em = ctx.em.fork();
  await planWeeklyReview(em, ctx.deps.nudges.enqueue, ctx.user.id, await loadNudgeSettings(em, ctx.user.id), await timeZoneOf(em, ctx.user.id), ctx.deps.nudges.clock());
}
