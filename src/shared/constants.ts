// Business constants and limits of SPEC section 9.
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

export const toastDefaults = {
  limit: 1,
  autoCloseMs: 5000,
} as const;

export const accessKeyCookie = { name: 'access_key', maxAgeSeconds: 86400 } as const;

export const storageKeys = {
  hasSeenOnboarding: 'hasSeenOnboarding',
  theme: 'theme',
} as const;
