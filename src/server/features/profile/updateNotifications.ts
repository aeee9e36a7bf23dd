import type { NotificationPreferencesInput } from '../../../shared/schemas/profile.js';
import type { AuthedContext } from '../../trpc/context.js';
import { setWeeklyReview } from '../nudges/index.js';
import { readProfileSettings, saveUserSettings } from './profileSettings.js';

// PUT /api/settings/notifications. weeklyDigest is the weekly review's on/off, kept
// with the nudge settings: saved there (and the next review planned or dropped); left out, the
// weekly review stays as it is.
export async function updateNotifications(ctx: AuthedContext, input: NotificationPreferencesInput) {
  const { weeklyDigest, ...columns } = input;
  await saveUserSettings(ctx.em, ctx.user.id, columns);
  if (weeklyDigest !== undefined) await setWeeklyReview(ctx, weeklyDigest);
  return readProfileSettings(ctx.em, ctx.user);
}
