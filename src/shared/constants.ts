// Business constants and limits of the product spec's constants and limits.
export const limits = {
  usernameMin: 3,
  usernameMax: 64,
  passwordMin: 6,
  passwordMax: 256,
  fullNameMin: 2,
  fullNameMax: 100,
  jobTitleMax: 100,
  companyMax: 100,
} as const;

// The product spec's constants and limits: toasts and tooltips.
export const toastDefaults = {
  limit: 1,
  autoCloseMs: 5000,
  /** A toast dragged right this far is dismissed. */
  swipeThresholdPx: 50,
  /** Width at most, on medium screens and up (full width below). */
  maxWidthPx: 420,
  /** Moves focus to the toast region. */
  hotkey: 'F8',
} as const;

export const tooltipDefaults = {
  openDelayMs: 700,
  /** Within this long of a tooltip closing, the next opens at once. */
  skipDelayMs: 300,
} as const;

export const accessKeyCookie = { name: 'access_key', maxAgeSeconds: 86400 } as const;

export const storageKeys = {
  hasSeenOnboarding: 'hasSeenOnboarding',
  theme: 'theme',
  userKnowledgeBase: 'user_knowledge_base',
} as const;

export const chatLimits = {
  titleMax: 200,
  messageMax: 8000,
  pageDefault: 30,
  pageMax: 100,
  // GET /api/chats/{id}/messages: a page of up to 200, 100 when no limit is given.
  restPageMax: 200,
  restPageDefault: 100,
  // The conversation sent to the model: the most recent turns, within a character budget.
  historyTurns: 40,
  historyChars: 48_000,
  autoTitleChars: 30,
} as const;

// Writing style analysis (the product spec's constants and limits).
export const writingStyleLimits = {
  minSentEmails: 5,
  maxSentEmails: 50,
  scannedUserMessages: 3,
  reminderChance: 0.3,
  copyConfirmationMs: 2000,
  topicMax: 500,
} as const;

export const writingStyleStorageKey = 'writing_style_data';
