// Settings and onboarding constants of the product spec's entities and constants and limits.
export const dataRetentionOptions = [
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '180', label: '180 days' },
  { value: '365', label: '1 year' },
  { value: 'forever', label: 'Forever' },
] as const;
export const dataRetentionValues = ['30', '90', '180', '365', 'forever'] as const;
export type DataRetention = (typeof dataRetentionValues)[number];

export const notificationDefaults = {
  emailNotifications: true,
  pushNotifications: false,
  weeklyDigest: true,
  coachingSuggestions: true,
} as const;

export const privacyDefaults = {
  dataRetention: '90' as DataRetention,
  shareAnonymousData: false,
  storeChatHistory: true,
} as const;

export const profileLimits = {
  // RFC 5321: an address is at most 254 characters.
  emailMax: 254,
  // E.164: a plus and at most 15 digits.
  phoneMax: 16,
} as const;

// E.164 after spaces, dots, dashes and parentheses are removed: '+1 (555) 123-4567' is fine.
export const internationalPhonePattern = /^\+[1-9]\d{6,14}$/;

export const emailHistoryDayOptions = ['30', '60', '90', '180'] as const;
export type EmailHistoryDays = (typeof emailHistoryDayOptions)[number];
export const calendarAccessOptions = ['all', 'work', 'public'] as const;
export type CalendarAccess = (typeof calendarAccessOptions)[number];

export const onboardingDefaults = {
  emailHistoryDays: '30' as EmailHistoryDays,
  calendarAccess: 'work' as CalendarAccess,
  saveChatHistory: true,
} as const;

export const onboardingLimits = {
  managerMax: 100,
  directReportsMax: 10_000,
} as const;

// The onboarding answers are kept in this browser (the product spec's roles and permissions); 'Save chat history' is also saved
// as the account's storeChatHistory (settings must act).
export const onboardingStorageKey = 'onboarding_data';
