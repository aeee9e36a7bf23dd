// Limits that client code on /app's first view needs, in a module without zod: importing them from
// shared/schemas/ put zod (about 24 KB gzipped) in every first visit to /app. The
// schemas in shared/schemas/ import them from here, so client and server keep one value.

/** Meetings: the week's span in days, the agenda's and reflection's lengths, Graph ids. */
export const meetingLimits = { minDays: 1, maxDays: 14, defaultDays: 7, maxAgenda: 20_000, maxReflection: 4_000, maxIdLength: 512 } as const;

/** Search across chats (Ctrl+K). */
export const searchLimits = { minQuery: 2, maxQuery: 200, maxResults: 50 } as const;
