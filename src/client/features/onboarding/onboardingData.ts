import { z } from 'zod';
import { limits, storageKeys } from '../../../shared/constants';
import {
  calendarAccessOptions,
  emailHistoryDayOptions,
  onboardingDefaults,
  onboardingLimits,
  onboardingStorageKey,
} from '../../../shared/settingsConstants';
import { onboardingTexts } from '../../../shared/texts';

// SPEC section 3 'Onboarding data', kept in this browser only (SPEC section 6).
export const toolKeys = ['gmail', 'outlook', 'googleCalendar', 'teams', 'linkedin'] as const;
export type ToolKey = (typeof toolKeys)[number];
export type Connections = Record<ToolKey, boolean>;

const noConnections: Connections = { gmail: false, outlook: false, googleCalendar: false, teams: false, linkedin: false };

// The role and privacy steps as one form. Direct reports is '' while empty (NumberInput).
export const onboardingFormSchema = z.object({
  jobTitle: z.string().trim().max(limits.jobTitleMax, `Must be at most ${limits.jobTitleMax} characters`),
  company: z.string().trim().max(limits.companyMax, `Must be at most ${limits.companyMax} characters`),
  manager: z.string().trim().max(onboardingLimits.managerMax, `Must be at most ${onboardingLimits.managerMax} characters`),
  directReports: z.union([
    z.literal(''),
    z
      .number({ message: onboardingTexts.directReportsInvalid })
      .int(onboardingTexts.directReportsInvalid)
      .min(0, onboardingTexts.directReportsInvalid)
      .max(onboardingLimits.directReportsMax, onboardingTexts.directReportsInvalid),
  ], { message: onboardingTexts.directReportsInvalid }),
  emailHistoryDays: z.enum(emailHistoryDayOptions),
  calendarAccess: z.enum(calendarAccessOptions),
  saveChatHistory: z.boolean(),
});
export type OnboardingForm = z.infer<typeof onboardingFormSchema>;

const storedSchema = z.object({
  jobTitle: z.string().nullable().catch(null),
  company: z.string().nullable().catch(null),
  manager: z.string().nullable().catch(null),
  directReports: z.number().int().min(0).nullable().catch(null),
  privacy: z
    .object({
      emailHistoryDays: z.enum(emailHistoryDayOptions).catch(onboardingDefaults.emailHistoryDays),
      calendarAccess: z.enum(calendarAccessOptions).catch(onboardingDefaults.calendarAccess),
      saveChatHistory: z.boolean().catch(onboardingDefaults.saveChatHistory),
    })
    .catch({ ...onboardingDefaults }),
  connections: z
    .object(Object.fromEntries(toolKeys.map((key) => [key, z.boolean().catch(false)])) as Record<ToolKey, z.ZodCatch<z.ZodBoolean>>)
    .catch(noConnections),
});
export type OnboardingData = z.infer<typeof storedSchema>;

export function hasSeenOnboarding(): boolean {
  try {
    return window.localStorage.getItem(storageKeys.hasSeenOnboarding) !== null;
  } catch {
    // Storage blocked: better not to show the dialog on every page.
    return true;
  }
}

export function markOnboardingSeen() {
  try {
    window.localStorage.setItem(storageKeys.hasSeenOnboarding, 'true');
  } catch {
    // Storage blocked: nothing to remember it in.
  }
}

export function loadOnboardingData(): OnboardingData | null {
  try {
    const raw = window.localStorage.getItem(onboardingStorageKey);
    if (!raw) return null;
    const parsed = storedSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function saveOnboardingData(form: OnboardingForm, connections: Connections) {
  const data: OnboardingData = {
    jobTitle: form.jobTitle.trim() || null,
    company: form.company.trim() || null,
    manager: form.manager.trim() || null,
    directReports: form.directReports === '' ? null : form.directReports,
    privacy: {
      emailHistoryDays: form.emailHistoryDays,
      calendarAccess: form.calendarAccess,
      saveChatHistory: form.saveChatHistory,
    },
    connections,
  };
  try {
    window.localStorage.setItem(onboardingStorageKey, JSON.stringify(data));
  } catch {
    // Storage full or blocked: the answers are only lost for this browser.
  }
}

// What the form starts with: earlier answers in this browser, else the user's own profile.
export function initialOnboardingForm(
  saved: OnboardingData | null,
  user: { jobTitle: string | null; company: string | null },
): OnboardingForm {
  return {
    jobTitle: saved?.jobTitle ?? user.jobTitle ?? '',
    company: saved?.company ?? user.company ?? '',
    manager: saved?.manager ?? '',
    directReports: saved?.directReports ?? '',
    emailHistoryDays: saved?.privacy.emailHistoryDays ?? onboardingDefaults.emailHistoryDays,
    calendarAccess: saved?.privacy.calendarAccess ?? onboardingDefaults.calendarAccess,
    saveChatHistory: saved?.privacy.saveChatHistory ?? onboardingDefaults.saveChatHistory,
  };
}

export function initialConnections(saved: OnboardingData | null): Connections {
  return saved?.connections ?? { ...noConnections };
}
