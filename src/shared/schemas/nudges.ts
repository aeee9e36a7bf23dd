import { z } from 'zod';
import { nudgesTexts } from '../texts/nudges.js';

// Proactive coaching: the nudge settings, run now, and the run history. The same
// schemas validate tRPC, REST (/api/nudges/...) and the client's form.
export const nudgeKinds = ['weekly_review', 'meeting_brief', 'meeting_debrief', 'program'] as const;
export type NudgeKind = (typeof nudgeKinds)[number];
/** What a user may run now: a debrief's nudge follows its automatic debrief and is never asked for. */
export const manualNudgeKinds = ['weekly_review', 'meeting_brief'] as const;
export const nudgeStatuses = ['queued', 'sent', 'skipped', 'failed'] as const;
export type NudgeStatus = (typeof nudgeStatuses)[number];
export const weekDays = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type WeekDay = (typeof weekDays)[number];
export const nudgeChannels = ['app', 'email', 'push', 'call'] as const;
export type NudgeChannel = (typeof nudgeChannels)[number];

export const nudgeLimits = { minMinutesBefore: 10, maxMinutesBefore: 1440, minPerWeek: 1, maxPerWeek: 14 } as const;

const clockTime = (field: string) => z.string({ message: nudgesTexts.timeInvalid(field) }).regex(/^([01]\d|2[0-3]):[0-5]\d$/, nudgesTexts.timeInvalid(field));
const flag = (field: string) => z.boolean({ message: nudgesTexts.flagInvalid(field) });

export const nudgeSettingsSchema = z.object(
  {
    weeklyReview: z.object(
      {
        enabled: flag('weeklyReview.enabled'),
        day: z.enum(weekDays, { message: nudgesTexts.dayInvalid }),
        time: clockTime('weeklyReview.time'),
      },
      { message: nudgesTexts.sectionRequired('weeklyReview') },
    ),
    meetingBrief: z.object(
      {
        enabled: flag('meetingBrief.enabled'),
        minutesBefore: z
          .number({ message: nudgesTexts.minutesBeforeInvalid })
          .int(nudgesTexts.minutesBeforeInvalid)
          .min(nudgeLimits.minMinutesBefore, nudgesTexts.minutesBeforeInvalid)
          .max(nudgeLimits.maxMinutesBefore, nudgesTexts.minutesBeforeInvalid),
      },
      { message: nudgesTexts.sectionRequired('meetingBrief') },
    ),
    channels: z.object(
      { email: flag('channels.email'), push: flag('channels.push'), call: flag('channels.call') },
      { message: nudgesTexts.sectionRequired('channels') },
    ),
    quietHours: z.object(
      { start: clockTime('quietHours.start'), end: clockTime('quietHours.end') },
      { message: nudgesTexts.sectionRequired('quietHours') },
    ),
    maxPerWeek: z
      .number({ message: nudgesTexts.maxPerWeekInvalid })
      .int(nudgesTexts.maxPerWeekInvalid)
      .min(nudgeLimits.minPerWeek, nudgesTexts.maxPerWeekInvalid)
      .max(nudgeLimits.maxPerWeek, nudgesTexts.maxPerWeekInvalid),
  },
  { message: nudgesTexts.settingsRequired },
);
export type NudgeSettings = z.output<typeof nudgeSettingsSchema>;

export const defaultNudgeSettings: NudgeSettings = {
  weeklyReview: { enabled: true, day: 'mon', time: '08:30' },
  meetingBrief: { enabled: false, minutesBefore: 60 },
  channels: { email: false, push: false, call: false },
  quietHours: { start: '20:00', end: '07:00' },
  maxPerWeek: 5,
};

export const runNudgeSchema = z.object({ kind: z.enum(manualNudgeKinds, { message: nudgesTexts.kindInvalid }) }, { message: nudgesTexts.kindInvalid });

/** `turnedOffByOrganisation`: the channels the member's organisation does not let nudges use (never delivered on, whatever `channels` says). */
export type NudgeSettingsView = NudgeSettings & { timeZone: string; nextRun: { kind: NudgeKind; at: string } | null; turnedOffByOrganisation: Array<keyof NudgeSettings['channels']> };

export type NudgeRunView = {
  id: number;
  kind: NudgeKind;
  status: NudgeStatus;
  channels: NudgeChannel[];
  reason: string | null;
  chatId: number | null;
  createdAt: string;
  /** When it runs (queued) or ran. */
  dueAt: string;
  trigger: 'scheduled' | 'manual';
  /** The demo's example weekly review. */
  sample: boolean;
};

const base64url = (field: string, max: number) => z.string({ message: nudgesTexts.pushKeyInvalid(field) }).regex(/^[A-Za-z0-9_-]+=*$/, nudgesTexts.pushKeyInvalid(field)).min(8, nudgesTexts.pushKeyInvalid(field)).max(max, nudgesTexts.pushKeyInvalid(field));
const endpoint = z.url({ protocol: /^https$/, message: nudgesTexts.pushEndpointInvalid }).max(1000, nudgesTexts.pushEndpointInvalid);

export const pushSubscriptionSchema = z.object(
  {
    endpoint,
    keys: z.object({ p256dh: base64url('keys.p256dh', 200), auth: base64url('keys.auth', 100) }, { message: nudgesTexts.pushKeyInvalid('keys') }),
  },
  { message: nudgesTexts.pushEndpointInvalid },
);
export const pushUnsubscribeSchema = z.object({ endpoint }, { message: nudgesTexts.pushEndpointInvalid });
