import { UserSettings } from '../../db/entities/UserSettings.js';
import type { AuthedContext } from '../../trpc/context.js';
import { forgetCalendar, timeZoneOf } from './calendar.js';

// The time zone the calendar is read in (a profile setting, default UTC).
export async function meetingSettings(ctx: AuthedContext) {
  return { timeZone: await timeZoneOf(ctx.em, ctx.user.id) };
}

export async function saveTimeZone(ctx: AuthedContext, input: { timeZone: string }) {
  const settings = await ctx.em.findOne(UserSettings, { user: ctx.user.id });
  if (settings) settings.timeZone = input.timeZone;
  else ctx.em.create(UserSettings, { user: ctx.user.id, timeZone: input.timeZone });
  await ctx.em.flush();
  forgetCalendar(ctx.deps.microsoft.calendarCache, ctx.user.id);
  return { timeZone: input.timeZone };
}
