import { z } from 'zod';
import { isTimeZone, meetingIdSchema } from './meetings.js';

// Debriefs of real meetings: what the REST paths, tRPC and the client share.

/** The most strengths and moments the coach names in a debrief. */
export const maxDebriefItems = 3;

export const debriefRefSchema = z.object({
  id: meetingIdSchema,
  /** The browser's time zone: dates a demo visitor's sample meeting when they saved none. */
  timeZone: z.string().max(64).refine((zone) => isTimeZone(zone)).optional(),
});

export const autoDebriefsSchema = z.object({ automatic: z.boolean({ message: 'automatic must be true or false' }) });

export const recentMeetingsSchema = z.object({
  timeZone: z.string().max(64).refine((zone) => isTimeZone(zone)).optional(),
});

/** A speaker's numbers: their share of the time spoken (0 to 1) and their turns. */
export type DebriefSpeaker = { name: string; share: number; turns: number };

/** What is computed exactly from the transcript's cues, without a model. */
export type DebriefReport = {
  /** From the first cue's start to the last cue's end, in seconds. */
  durationSeconds: number;
  you: {
    name: string;
    /** The user's share of the time spoken, 0 to 1. */
    talkShare: number;
    turns: number;
    longestTurnSeconds: number;
    questionsAsked: number;
    fillerWords: { count: number; examples: string[] };
    wordsPerMinute: number;
    /** Turns the user began while another speaker's cue was still running. */
    interruptions: number;
  };
  /** Every other speaker, the one who spoke most first. */
  speakers: DebriefSpeaker[];
  /** When an agenda was saved into the invite: each item and whether it was discussed; else null. */
  agenda: Array<{ item: string; discussed: boolean }> | null;
};

export const debriefStrengthKinds = ['question', 'acknowledged', 'commitment', 'concise', 'other'] as const;
export const debriefChangeKinds = ['interruption', 'longTurn', 'fillers', 'talkShare', 'other'] as const;
export const debriefMomentKinds = ['question', 'acknowledged', 'commitment', 'concise', 'interruption', 'longTurn', 'fillers', 'talkShare', 'other'] as const;
export type DebriefMomentKind = (typeof debriefMomentKinds)[number];

/** A moment of the meeting the coach points at: the user's own words, when they said them, and why it matters. */
export type DebriefMoment = {
  kind: DebriefMomentKind;
  /** Seconds from the transcript's start, and as the transcript shows it (mm:ss or h:mm:ss). */
  seconds: number;
  at: string;
  quote: string;
  note: string;
  /** For a moment to do differently: what to try instead. */
  instead?: string;
};

export type DebriefCoach = { by: 'model' | 'offline'; strengths: DebriefMoment[]; moments: DebriefMoment[] };

export const rehearsedBehaviours = ['agreement', 'pushback', 'talkLess', 'letThemFinish', 'shorterTurns', 'fewerFillers'] as const;
export type RehearsedBehaviour = (typeof rehearsedBehaviours)[number];

/** What the user rehearsed with someone in this meeting, and whether they did it for real. */
export type RehearsedCheck = {
  rehearsalId: number;
  counterpart: string;
  behaviours: Array<{ behaviour: RehearsedBehaviour; done: boolean; quote: string | null }>;
  /** The share of the rehearsed behaviours seen in the meeting, 0 to 1. */
  share: number;
};

export type DebriefView = {
  id: number;
  meetingId: string;
  subject: string;
  start: string;
  end: string;
  report: DebriefReport;
  coach: DebriefCoach;
  rehearsed: RehearsedCheck | null;
  /** The chat the debrief opened (the meeting's prep chat, or one of its own). */
  chatId: number | null;
  sample: boolean;
  createdAt: string;
};

/** One debriefed meeting as the trends page draws it. */
export type DebriefTrendPoint = {
  meetingId: string;
  subject: string;
  start: string;
  talkShare: number;
  questionsAsked: number;
  interruptions: number;
  /** The other speaker who spoke most. */
  mainSpeaker: string | null;
  speakers: string[];
  rehearsedShare: number | null;
};
