// Messages of the rate limits: what happened and how long to wait.
const minutesText = (minutes: number) => `${minutes} minute${minutes === 1 ? '' : 's'}`;

export const limitTexts = {
  tooManyRegistrations: (minutes: number) =>
    `Too many accounts have been created from your network. Please wait ${minutesText(minutes)} and try again.`,
  tooManyNudgeRuns: (max: number, minutes: number) =>
    `You ran nudges ${max} times in the last hour, the most an hour allows. Try again in ${minutesText(minutes)}; the planned ones still come.`,
  tooManyChats: (max: number) => `You have ${max} chats, the most an account may hold. Delete some you no longer need first.`,
  tooManyRehearsals: (max: number) => `You have ${max} rehearsals, the most an account may hold. Delete some you no longer need first.`,
  tooManyRehearsalRetries: (minutes: number) => `You tried rehearsals again many times in a short while. Try again in ${minutesText(minutes)}.`,
  tooManyGuests: (minutes: number) =>
    `Too many guest spaces have been started from your network. Please wait ${minutesText(minutes)} and try again, or create an account.`,
  tooManyAccessKeyAttempts: (minutes: number) =>
    `Too many wrong access keys. Please wait ${minutesText(minutes)} and try again.`,
  addressQuotaSpent: (limit: number) =>
    `Your network has used today's ${limit} coach replies for new accounts and guests. It resets at midnight UTC; your messages and chats are kept. An account older than a day is not affected.`,
} as const;
