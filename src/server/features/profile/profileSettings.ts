import type { EntityManager } from '@mikro-orm/core';
import type { ProfileSettings } from '../../../shared/schemas/profile.js';
import { notificationDefaults, privacyDefaults } from '../../../shared/settingsConstants.js';
import type { User } from '../../db/entities/User.js';
import { UserSettings } from '../../db/entities/UserSettings.js';
import { loadNudgeSettings } from '../nudges/nudgeSettings.js';

// The settings page's three sections, always read through the signed-in user's id (architecture rule 9).
export async function readProfileSettings(em: EntityManager, user: User): Promise<ProfileSettings> {
  const settings = await em.findOne(UserSettings, { user: user.id });
  return {
    profile: {
      fullName: user.fullName,
      email: settings?.email ?? null,
      jobTitle: user.jobTitle ?? null,
      company: user.company ?? null,
      phone: settings?.phone ?? null,
    },
    // The weekly digest is the weekly review: one setting, the nudges' weeklyReview.enabled.
    notifications: { ...notificationDefaults, ...settings?.toNotifications(), weeklyDigest: (await loadNudgeSettings(em, user.id)).weeklyReview.enabled },
    privacy: settings?.toPrivacy() ?? { ...privacyDefaults },
    phoneTrust: { verified: Boolean(settings?.phone && settings.phoneVerifiedAt), pinSet: Boolean(settings?.phonePinHash) },
  };
}

// Insert the user's row with the given columns (the rest take their defaults) or update just
// those columns: one statement, so two first saves racing cannot collide.
export async function saveUserSettings(
  em: EntityManager,
  userId: number,
  values: Partial<Omit<UserSettings, 'user' | 'updatedAt' | 'toNotifications' | 'toPrivacy'>>,
) {
  await em.upsert(UserSettings, { user: userId, ...values, updatedAt: new Date() });
}
