import { notificationPreferencesSchema, privacySettingsSchema, profileSchema } from '../../../shared/schemas/profile.js';
import { protectedProcedure, router } from '../../trpc/init.js';
import { getProfile } from './getProfile.js';
import { updateNotifications } from './updateNotifications.js';
import { updatePrivacy } from './updatePrivacy.js';
import { updateProfile } from './updateProfile.js';

// The settings page (the product spec's screens): each user reads and writes only their own settings.
export const profileRouter = router({
  get: protectedProcedure.query(({ ctx }) => getProfile(ctx)),
  updateProfile: protectedProcedure.input(profileSchema).mutation(({ ctx, input }) => updateProfile(ctx, input)),
  updateNotifications: protectedProcedure
    .input(notificationPreferencesSchema)
    .mutation(({ ctx, input }) => updateNotifications(ctx, input)),
  updatePrivacy: protectedProcedure.input(privacySettingsSchema).mutation(({ ctx, input }) => updatePrivacy(ctx, input)),
});
