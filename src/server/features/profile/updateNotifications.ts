import type { NotificationPreferences } from '../../../shared/schemas/profile.js';
import type { AuthedContext } from '../../trpc/context.js';
import { readProfileSettings, saveUserSettings } from './profileSettings.js';

export async function updateNotifications(ctx: AuthedContext, input: NotificationPreferences) {
  await saveUserSettings(ctx.em, ctx.user.id, input);
  return readProfileSettings(ctx.em, ctx.user);
}
