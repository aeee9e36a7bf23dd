import type { MeetingInvite, MeetingPerson } from '../../../shared/meeting.js';
import type { KnowledgeBase } from '../../db/entities/KnowledgeBase.js';
import type { MemoryKind } from '../../../shared/schemas/memories.js';
import type { RehearsalDifficulty } from '../../../shared/schemas/rehearsals.js';
import type { Audience, WritingStyle } from '../../../shared/schemas/writingStyle.js';
import type { coachTexts } from '../../../shared/texts/coach.js';

// The coach's contract, in one home: what a turn hands a model (CoachRequest, with the typed facts
// of CoachContext), what answers (CoachModel) and the safety line's categories. The coach feature
// (src/server/features/coach/) and every provider import it; it imports neither.

// The one interface the rest of the server uses to get a reply from "the coach", whichever
// engine answers: an OpenAI-compatible model or the built-in offline coach.

export type ChatTurn = { role: 'system' | 'user' | 'assistant'; content: string };

/** What the server knows of the signed-in user (the product spec's entities, User). */
export type CoachUser = { fullName: string; jobTitle: string | null; company: string | null };

export type CoachRequest = {
  /**
   * The conversation, ending with the user's latest turn. A caller that writes its own prompt (the
   * OpenAI-compatible API, the tone description) may start it with system turns.
   */
  messages: ChatTurn[];
  /**
   * What the coach knows for this turn, as typed facts (features/coach/coachContext.ts): a model
   * provider renders it into system turns before `messages`, the offline coach reads it as it is.
   */
  context?: CoachContext;
  /** The offline coach personalises with it; a model gets the same facts from the context. */
  user?: CoachUser;
  /** Aborting ends the stream promptly and quietly: no error reaches the caller. */
  signal?: AbortSignal;
  maxTokens?: number;
  temperature?: number;
  /** Called with the provider's own token counts, when it reports them (at the end of the stream). */
  onUsage?: (usage: TokenUsage) => void;
  /**
   * What the safety screen found in the user's latest words, when the model is still asked (a
   * harassment, medical, legal or financial question): a model provider adds the line's instruction
   * for it as a system turn just before that message; the offline coach is never asked then.
   */
  safety?: SafetyCategory;
  /**
   * The model region the user's organisation chose (OPENAI_REGIONS' name): the request goes to that
   * region's base URL; none: OPENAI_BASE_URL. The offline coach ignores it.
   */
  region?: string | null;
  /** Where the turn comes from, for metrics and traces only (never sent to the provider). */
  path?: 'chat' | 'api' | 'voice' | 'phone' | 'writing_style' | 'nudge' | 'other';
};

export type TokenUsage = { promptTokens: number; completionTokens: number };

export interface CoachModel {
  readonly kind: 'openai' | 'offline';
  /** The model that answers; a client's own choice of model is never passed through. */
  readonly model: string;
  /** Text deltas in order. Throws ProviderError when the provider fails. */
  stream(request: CoachRequest): AsyncIterable<string>;
}

/**
 * A provider failure. The message is safe to log and never contains the API key; `retryable`
 * says whether the same request may succeed later (rate limits, outages, dropped streams).
 */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  readonly status?: number;
  readonly retryable: boolean;

  constructor(message: string, options: { status?: number; retryable: boolean }) {
    super(message);
    this.status = options.status;
    this.retryable = options.retryable;
  }
}

/** The safety line's categories (features/coach/safety/screen.ts decides them; a provider adds the line's instruction). */
export type SafetyCategory = 'self_harm' | 'unsafe' | 'harassment' | 'medical' | 'legal' | 'financial';

// The coach's typed facts, in two stages.
//
// 1. CoachFacts: what the features that own a user's data hand to the context assembly (the
//    knowledge base, mail, writing style, goals, memories, meetings). Some are sources read
//    lazily, only when the user's message asks for them (the inbox, the coming week).
// 2. CoachContext: what the assembly made of them for one turn, as plain values: only what this
//    message calls for (the emails when it asks about mail, the style when it asks for a draft).
//    The model provider renders it into prompt text at its edge (providers/ai/renderContext.ts);
//    the offline coach reads the same value. Nobody parses prompt text back.
//
// This file imports no feature: the features and the providers depend on these types, never the other way round.

export type RecentEmail = { subject: string; from: string; receivedDateTime: string; bodyPreview: string };

/** The user's mailbox as the coach sees it. The Microsoft integration implements it. */
export interface MailSource {
  connected: boolean;
  recentEmails(limit: number): Promise<RecentEmail[]>;
}

/** The notes that stand in for the emails when they cannot be read. */
export type MailNote = typeof coachTexts.emailNotConnected | typeof coachTexts.emailUnavailable | typeof coachTexts.emailProblem;

/** The knowledge base as the coach may see it: only when the user switched it on. */
export type CoachKnowledgeBase = Pick<
  KnowledgeBase,
  | 'fullName'
  | 'jobTitle'
  | 'company'
  | 'department'
  | 'team'
  | 'manager'
  | 'directReports'
  | 'stakeholders'
  | 'emailTone'
  | 'signatureStyle'
  | 'writingExamples'
  | 'coachNotes'
>;

export type CoachWritingStyle = Pick<WritingStyle, 'tone' | 'greeting' | 'signOff' | 'commonPhrases' | 'structure' | 'length'>;

export type CoachGoal = {
  title: string;
  framework: string;
  dueDate: string;
  status: string;
  keyResults: Array<{ title: string; current: number; target: number; unit: string; lastCheckIn: string | null }>;
};

export type CoachMemory = { text: string; kind: MemoryKind; dueAt: string | null; done: boolean };

/** What the coach remembers of the user, read fresh for every turn (a deleted memory never comes back). */
export interface MemorySource {
  /** The memories to put before this message (none while memory is off). */
  relevant(latestUserMessage: string): Promise<CoachMemory[]>;
  /**
   * When the message asks the coach to remember something ('remember that …'): what it asked to
   * keep and whether it is kept now (it was stored before this turn). Null for any other message.
   */
  remembered(latestUserMessage: string): Promise<Remembered | null>;
}
export type Remembered = { text: string; saved: boolean };

/** The invite as the coach reads it (the attendees' answers are not its business). */
export type CoachInvite = Omit<MeetingInvite, 'attendees'> & { attendees: MeetingPerson[] };
export type WeekMeeting = { subject: string; start: string; end: string; attendees: string[] };
/** The meeting a prep chat prepares, and what this turn is for. */
export type MeetingPrep = { invite: CoachInvite; mailSubjects: string[]; turn: 'agenda' | 'reflection' | 'follow-up' };

export type CoachMeetings = {
  /** The meeting this chat prepares, or null for any other chat. */
  prep: MeetingPrep | null;
  /** The coming meetings, read only when the user's message asks about their time. */
  week: (() => Promise<WeekMeeting[]>) | null;
};

/**
 * The other person of a rehearsal chat, whom the model plays instead of the coach: who they are,
 * the situation as the user described it, how hard they make it, and what the user's memory and
 * mail say about them. Never the user's goal for the conversation: the other person cannot know it.
 */
export type CoachCounterpart = {
  name: string;
  role: string | null;
  relationship: string | null;
  situation: string;
  difficulty: RehearsalDifficulty;
  /** The user's memories that name this person. */
  memories: string[];
  /** Subjects of recent mail with this person, when mail is connected. */
  mailSubjects: string[];
  /** The person's private brief, made from the set-up (rehearsals/brief.ts): the same in every turn. */
  brief: CounterpartBrief;
};

/** What the other person wants, fears and believes, and one thing the user may not know. Never shown to the user. */
export type CounterpartBrief = { wants: string; fears: string; believes: string; unknown: string };

/**
 * Everything the features hand to the coach for a signed-in user. Every key is required: a
 * caller that leaves mail out says so with null (and the coach then says mail is not connected).
 */
export type CoachFacts = {
  knowledgeBase: CoachKnowledgeBase | null;
  writingStyle: CoachWritingStyle | null;
  mail: MailSource | null;
  goals: CoachGoal[];
  memories: MemorySource | null;
  meetings: CoachMeetings | null;
  /** In a rehearsal chat: the person the model plays; null in any other chat. */
  rehearsal: CoachCounterpart | null;
  /** The coaching program the user's organisation runs for them now, if any (its admin's focus). */
  program?: CoachProgram | null;
};

/** A program of the user's organisation: its name, focus and week. */
export type CoachProgram = { name: string; focus: string; week: number; weeks: number };

/** No facts at all: for a caller nobody knows, and for tests of the coach alone. */
export const noFacts: CoachFacts = { knowledgeBase: null, writingStyle: null, mail: null, goals: [], memories: null, meetings: null, rehearsal: null };

/**
 * Who answers: the coach, the email writer of the Writing Style page for one audience, or the
 * other person of a rehearsal, played in character.
 */
export type CoachRole = { kind: 'coach' } | { kind: 'emailWriter'; audience: Audience } | { kind: 'counterpart'; counterpart: CoachCounterpart; stepOut: boolean };

/** The mail this message asked about: the recent emails, or the note that they cannot be read. */
export type MailFacts = { kind: 'emails'; emails: RecentEmail[] } | { kind: 'unavailable'; note: MailNote };

/** The coming week this message asked about, or that the calendar cannot be read. */
export type WeekFacts = { kind: 'meetings'; meetings: WeekMeeting[] } | { kind: 'unavailable' };

/** What the coach knows for one turn, as values. Built by assembleCoachContext (coachContext.ts). */
export type CoachContext = {
  role: CoachRole;
  /** Who the user is; null for a phone caller nobody knows (the generic coach, nothing of anyone). */
  user: CoachUser | null;
  knowledgeBase: CoachKnowledgeBase | null;
  goals: CoachGoal[];
  /** The memories most relevant to the latest message. */
  memories: CoachMemory[];
  /** The latest message asked the coach to remember something: what, and whether it was saved. */
  remembered: Remembered | null;
  /** Null when the message did not ask about mail. */
  mail: MailFacts | null;
  /** The message asked how to organise mail into folders. */
  folderGuidance: boolean;
  /** The user's style, when they asked for a draft (the email writer always has it). */
  writingStyle: CoachWritingStyle | null;
  meetingPrep: MeetingPrep | null;
  /** Null when the message did not ask about the user's time. */
  week: WeekFacts | null;
  /** A spoken turn (browser voice or phone): 2 to 3 short sentences, no formatting. */
  spoken: boolean;
  /** The program the user's organisation runs for them (its focus the coach brings in where it fits). */
  program?: CoachProgram | null;
};

/**
 * Which outside sources the coach may read for a turn: all of them for a browser session; for a
 * turn asked with an API key, what the key's scopes allow (factSourcesOf in trpc/factSources.ts).
 */
export type FactSources = { mail: boolean; calendar: boolean };

// The weekly review's facts (features/nudges/nudgeContent.ts assembles them; the model writes the review from them).
export type ReviewGoal = { title: string; status: string; progress: number; expected: number; checkInsSinceLastWeek: number };
export type ReviewCommitment = { text: string; dueAt: Date; overdue: boolean };
/** `routine`: a recurring meeting or a stand-up, sync, retro …: never listed as 'to prepare'. */
export type ReviewMeeting = { subject: string; startAt: Date; attendees: string[]; routine: boolean };
export type Focus =
  | { kind: 'commitment'; text: string }
  | { kind: 'goal'; title: string; status: string }
  | { kind: 'meeting'; subject: string }
  | { kind: 'default' };

export type WeeklyReviewFacts = {
  /** The user's local date of the review. */
  date: string;
  timeZone: string;
  goals: ReviewGoal[];
  commitments: ReviewCommitment[];
  /** null: no calendar connected. */
  unpreparedMeetings: ReviewMeeting[] | null;
  focus: Focus;
};
