import { z } from 'zod';
import { organisationTexts } from '../texts/organisations.js';

// The organisation's analytics (GET /api/admin/analytics): what is counted, by which fixed labels,
// and the shape of an answer. Every figure is counted over a group of people; a group smaller
// than the privacy floor (ORG_ANALYTICS_MIN_GROUP) is never shown as a number.

/** The kinds of coaching session, in the order the console shows them. */
export const sessionKinds = ['chat', 'voice', 'phone', 'rehearsal', 'debrief'] as const;
export type SessionKind = (typeof sessionKinds)[number];

/**
 * The frameworks the coach works with: a goal's framework (SMART, OKR, GROW) and those the coach
 * recognises in a session. Each has a fixed bit in coaching_activity.frameworks: append only.
 */
export const coachingFrameworks = ['grow', 'smart', 'okr', 'feedback', 'agenda', 'email'] as const;
export type CoachingFramework = (typeof coachingFrameworks)[number];

/**
 * The themes people coach on, as the coach labels them from a fixed list (never their words).
 * Work themes only: a turn that touches a sensitive topic (health, family, ...: memoryPolicy.ts)
 * gets no theme at all. Each has a fixed bit in coaching_activity.themes: append only.
 */
export const coachingThemes = ['feedback', 'goals', 'meetings', 'communication', 'leadership', 'career', 'priorities', 'relationships', 'decisions'] as const;
export type CoachingTheme = (typeof coachingThemes)[number];

/** The bit of a label in its bit set. */
export const labelBit = <T extends string>(labels: readonly T[], label: T): number => 1 << labels.indexOf(label);

/** How the weekly figures may be broken down: by the department or the manager the identity provider names. */
export const analyticsGroupings = ['department', 'manager'] as const;
export type AnalyticsGrouping = (typeof analyticsGroupings)[number];

export const analyticsLimits = {
  /** The weeks the weekly figures cover, the current one included. */
  weeks: 52,
  /** The weeks frameworks and themes are counted over, the current one included. */
  labelWeeks: 12,
  /** The weeks a breakdown's groups are shown for, the current one included. */
  groupWeeks: 12,
  /** The floor when ORG_ANALYTICS_MIN_GROUP is unset, and the lowest it may be set to. */
  defaultMinGroup: 5,
  lowestMinGroup: 3,
} as const;

export const analyticsQuerySchema = z.object({
  by: z.enum(analyticsGroupings, { message: organisationTexts.analytics.unknownGrouping }).optional(),
});
export type AnalyticsQuery = z.infer<typeof analyticsQuerySchema>;

/**
 * A figure: a number counted over at least the floor's people, or hidden. 'small': its group has
 * fewer people than the floor; 'withheld': its group is large enough, but shown beside a small one
 * its number would let the small one be worked out by subtraction from a total.
 */
export type Figure = { value: number } | { hidden: 'small' | 'withheld' };

export type WeekFigures = {
  /** The week's Monday (UTC), YYYY-MM-DD. */
  week: string;
  /** Members who coached that week (any kind of session). */
  active: Figure;
  /** Sessions of each kind that week, each over the members who had one. */
  sessions: Record<SessionKind, Figure>;
  /** Goals set and completed that week, each over the members who set or completed one. */
  goalsSet: Figure;
  goalsCompleted: Figure;
};

export type AnalyticsGroup = {
  /** The department or the manager's name; null: the members the identity provider names none for. */
  name: string | null;
  /** 'other': the groups under the floor, taken together. */
  kind: 'group' | 'other';
  weeks: WeekFigures[];
};

export type AnalyticsAnswer = {
  minGroup: number;
  /** The organisation's members (active accounts) the figures are over. */
  members: number;
  weeks: WeekFigures[];
  /** Members who used each framework over the last labelWeeks weeks. */
  frameworks: Array<{ framework: CoachingFramework; members: Figure }>;
  /** Members who coached on each theme over the last labelWeeks weeks. */
  themes: Array<{ theme: CoachingTheme; members: Figure }>;
  labelWeeks: number;
  /** Present when asked with `by`: the weekly figures of the last groupWeeks weeks for each group. */
  groups?: { by: AnalyticsGrouping; groups: AnalyticsGroup[] };
};
