import { limits, storageKeys } from '../../../shared/constants';
import {
  calendarAccessOptions,
  emailHistoryDayOptions,
  onboardingDefaults,
  onboardingLimits,
  onboardingStorageKey,
  type CalendarAccess,
  type EmailHistoryDays,
} from '../../../shared/settingsConstants';
import { onboardingTexts } from '../../../shared/texts';

// The product spec's entities 'Onboarding data', kept in this browser only (the product spec's roles and permissions).
// Checked by hand rather than with zod: zod is about 24 KB of gzipped JavaScript, and this dialog
// is part of every first visit to /app. The server checks the profile fields it is sent
// with its own zod schemas (shared/schemas/profile.ts); the messages here are the same texts.
export const toolKeys = ['gmail', 'outlook', 'googleCalendar', 'teams', 'linkedin'] as const;
export type ToolKey = (typeof toolKeys)[number];
export type Connections = Record<ToolKey, boolean>;

const noConnections: Connections = { gmail: false, outlook: false, googleCalendar: false, teams: false, linkedin: false };

// The role and privacy steps as one form. Direct reports is '' while empty (NumberInput).
export type OnboardingForm = {
  jobTitle: string;
  company: string;
  manager: string;
  directReports: number | '';
  emailHistoryDays: EmailHistoryDays;
  calendarAccess: CalendarAccess;
  saveChatHistory: boolean;
};

const atMost = (max: number) => (value: string) => (value.trim().length > max ? `Must be at most ${max} characters` : null);

/** The onboarding form's rules (useOnboardingForm): a message per invalid field, else null. */
export const onboardingFormValidation = {
  jobTitle: atMost(limits.jobTitleMax),
  company: atMost(limits.companyMax),
  manager: atMost(onboardingLimits.managerMax),
  directReports: (value: number | '') =>
    value === '' || (Number.isInteger(value) && value >= 0 && value <= onboardingLimits.directReportsMax)
      ? null
      : onboardingTexts.directReportsInvalid,
  // The privacy fields come from a fixed list of choices and a switch: nothing to check.
};

export type OnboardingData = {
  jobTitle: string | null;
  company: string | null;
  manager: string | null;
  directReports: number | null;
  privacy: { emailHistoryDays: EmailHistoryDays; calendarAccess: CalendarAccess; saveChatHistory: boolean };
  connections: Connections;
};

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const stringOrNull = (value: unknown) => (typeof value === 'string' ? value : null);
const oneOf = <T extends string>(options: readonly T[], value: unknown, fallback: T): T =>
  options.includes(value as T) ? (value as T) : fallback;

/**
 * What was stored in this browser, read leniently: a field that is missing or of the wrong type
 * falls back to its default (null, the privacy defaults, not connected), as a part of the data
 * written by an older version must not throw the rest away. Null when it is not an object at all.
 */
export function parseOnboardingData(value: unknown): OnboardingData | null {
  if (!isRecord(value)) return null;
  const reports = value.directReports;
  const privacy = isRecord(value.privacy) ? value.privacy : null;
  const connections = isRecord(value.connections) ? value.connections : null;
  return {
    jobTitle: stringOrNull(value.jobTitle),
    company: stringOrNull(value.company),
    manager: stringOrNull(value.manager),
    directReports: typeof reports === 'number' && Number.isInteger(reports) && reports >= 0 ? reports : null,
    privacy: privacy
      ? {
          emailHistoryDays: oneOf(emailHistoryDayOptions, privacy.emailHistoryDays, onboardingDefaults.emailHistoryDays),
          calendarAccess: oneOf(calendarAccessOptions, privacy.calendarAccess, onboardingDefaults.calendarAccess),
          saveChatHistory: typeof privacy.saveChatHistory === 'boolean' ? privacy.saveChatHistory : onboardingDefaults.saveChatHistory,
        }
      : { ...onboardingDefaults },
    connections: connections
      ? (Object.fromEntries(toolKeys.map((key) => [key, connections[key] === true])) as Connections)
      : { ...noConnections },
  };
}

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
    return parseOnboardingData(JSON.parse(raw));
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
