import { z } from 'zod';
import { limits } from '../constants.js';
import { dataRetentionValues, internationalPhonePattern, profileLimits } from '../settingsConstants.js';
import { settingsTexts } from '../texts/index.js';

// Empty optional text is stored as null.
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, settingsTexts.tooLong(max))
    .nullish()
    .transform((value) => value || null);

export const profileSchema = z.object({
  fullName: z
    .string({ message: settingsTexts.fullNameRequired })
    .trim()
    .min(limits.fullNameMin, settingsTexts.fullNameRequired)
    .max(limits.fullNameMax, settingsTexts.fullNameTooLong(limits.fullNameMax)),
  email: z
    .string({ message: settingsTexts.invalidEmail })
    .trim()
    .max(profileLimits.emailMax, settingsTexts.invalidEmail)
    .pipe(z.union([z.literal(''), z.email(settingsTexts.invalidEmail)]))
    .nullish()
    .transform((value) => value || null),
  jobTitle: optionalText(limits.jobTitleMax),
  company: optionalText(limits.companyMax),
  phone: z
    .string({ message: settingsTexts.invalidPhone })
    .max(40, settingsTexts.invalidPhone)
    // People write '+1 (555) 123-4567'; it is stored as '+15551234567'.
    .transform((value) => value.replace(/[\s().-]/g, ''))
    .pipe(z.union([z.literal(''), z.string().regex(internationalPhonePattern, settingsTexts.invalidPhone)]))
    .nullish()
    .transform((value) => value || null),
});
export type ProfileInput = z.input<typeof profileSchema>;
export type Profile = z.output<typeof profileSchema>;

// weeklyDigest is the weekly review's on/off (the nudge settings' weeklyReview.enabled,
// one setting under two names): always answered; when a save leaves it out, it stays as it is.
export const notificationPreferencesSchema = z.object({
  emailNotifications: z.boolean(),
  pushNotifications: z.boolean(),
  weeklyDigest: z.boolean().optional(),
  coachingSuggestions: z.boolean(),
});
export type NotificationPreferencesInput = z.infer<typeof notificationPreferencesSchema>;
export type NotificationPreferences = Required<NotificationPreferencesInput>;

export const privacySettingsSchema = z.object({
  dataRetention: z.enum(dataRetentionValues, { message: 'Please choose a data retention period' }),
  shareAnonymousData: z.boolean(),
  storeChatHistory: z.boolean(),
});
export type PrivacySettings = z.infer<typeof privacySettingsSchema>;

// What profile.get answers and every update returns.
export type ProfileSettings = {
  profile: Profile;
  notifications: NotificationPreferences;
  privacy: PrivacySettings;
  /** Whether the profile phone is verified by SMS code, and whether a phone PIN is set. */
  phoneTrust: { verified: boolean; pinSet: boolean };
};
