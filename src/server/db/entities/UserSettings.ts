import { defineEntity, p } from '@mikro-orm/core';
import {
  dataRetentionValues,
  notificationDefaults,
  privacyDefaults,
  profileLimits,
} from '../../../shared/settingsConstants.js';
import { User } from './User.js';

// A user's contact details and preferences (the product spec's entities), one row per user keyed by the
// user's id. A user without a row has the defaults of the product spec's constants and limits.
export const UserSettingsSchema = defineEntity({
  name: 'UserSettings',
  tableName: 'user_settings',
  properties: {
    user: () => p.oneToOne(User).owner().primary().deleteRule('cascade'),
    email: p.string().length(profileLimits.emailMax).nullable(),
    phone: p.string().length(profileLimits.phoneMax).nullable(),
    // When the phone above was proved by an SMS code; null for a number nobody verified.
    // Changing the number clears it. Only a verified number is called, or trusted as caller ID.
    phoneVerifiedAt: p.datetime().nullable(),
    // The phone PIN a caller keys in when caller ID alone cannot identify them (hashPassword's format).
    phonePinHash: p.string().length(255).nullable().hidden(),
    emailNotifications: p.boolean().default(notificationDefaults.emailNotifications),
    pushNotifications: p.boolean().default(notificationDefaults.pushNotifications),
    // weeklyDigest is the weekly review's on/off, held with the nudge settings (NudgeSetting).
    coachingSuggestions: p.boolean().default(notificationDefaults.coachingSuggestions),
    dataRetention: p.enum(dataRetentionValues).default(privacyDefaults.dataRetention),
    shareAnonymousData: p.boolean().default(privacyDefaults.shareAnonymousData),
    storeChatHistory: p.boolean().default(privacyDefaults.storeChatHistory),
    // The IANA time zone the calendar is read in; null reads in UTC.
    timeZone: p.string().length(64).nullable(),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});

export class UserSettings extends UserSettingsSchema.class {
  /** The notification preferences this row holds: all but weeklyDigest (the weekly review's, in NudgeSetting). */
  toNotifications() {
    return {
      emailNotifications: this.emailNotifications,
      pushNotifications: this.pushNotifications,
      coachingSuggestions: this.coachingSuggestions,
    };
  }

  toPrivacy() {
    return {
      dataRetention: this.dataRetention,
      shareAnonymousData: this.shareAnonymousData,
      storeChatHistory: this.storeChatHistory,
    };
  }
}
UserSettingsSchema.setClass(UserSettings);
