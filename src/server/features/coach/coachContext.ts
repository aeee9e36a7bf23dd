import type { ChatTurn, CoachUser } from '../../providers/ai/types.js';
import { coachTexts } from '../../../shared/texts/coach.js';
import { folderTrigger, mailTrigger } from './helpTriggers.js';
import { goalsTurns, type CoachGoal } from './goalsContext.js';
import { knowledgeBaseTurns, type CoachKnowledgeBase } from './knowledgeBaseContext.js';
import { memoryTurns, type MemorySource } from './memoryContext.js';
import { formatMailNote, formatRecentEmails, type MailNote, type RecentEmail } from './mailContext.js';
import { meetingsTurns, type CoachMeetings } from './meetingsContext.js';
import { writingStyleContext, type CoachWritingStyle } from './writingStyleContext.js';

// The system context put before the conversation: who the coach is, what is known of the user,
// and what the spec's keyword routing adds (the product spec's states and transitions and REST calls). It is assembled here and
// nowhere else; later features (knowledge base, writing style) add a contributor to the list.

export type { RecentEmail } from './mailContext.js';

/** The user's mailbox as the coach sees it. The Microsoft integration implements it. */
export interface MailSource {
  connected: boolean;
  recentEmails(limit: number): Promise<RecentEmail[]>;
}

export type CoachContextInput = {
  user: CoachUser;
  /** The conversation so far (without system turns), ending with the latest user message. */
  history: ChatTurn[];
  latestUserMessage: string;
  /** null when no mail source exists (not connected, or not built yet). */
  mail: MailSource | null;
  /**
   * The user's knowledge base when they switched on 'Use my knowledge base in coaching', else
   * null or absent. Load it with loadCoachKnowledgeBase(em, userId) (knowledgeBaseContext.ts).
   */
  knowledgeBase?: CoachKnowledgeBase | null;
  /** The user's writing style profile, learned from their sent mail; null or absent when none. */
  writingStyle?: CoachWritingStyle | null;
  /** The user's active goals with their key results' latest values; absent when none. */
  goals?: CoachGoal[] | null;
  /** What the coach remembers of the user (memoryContext.ts); null or absent while memory is off. */
  memories?: MemorySource | null;
  /** The meeting a prep chat is about, and the coming week (meetingsContext.ts); absent without a calendar. */
  meetings?: CoachMeetings | null;
};

/** Adds system turns for one concern; returns nothing when it has nothing to add. */
export type ContextContributor = (input: CoachContextInput) => Promise<ChatTurn[]> | ChatTurn[];

/** Emails passed to the chat model (the product spec's constants and limits). */
export const maxContextEmails = 10;

const system = (content: string): ChatTurn => ({ role: 'system', content });


export const coachRole: ContextContributor = () => [
  system(
    [
      'You are AI Coach, a professional development coach for working professionals such as managers.',
      'You coach with named frameworks: GROW (Goal, Reality, Options, Will), SMART goals (Specific, Measurable, ' +
        'Achievable, Relevant, Time-bound) and OKRs (one qualitative objective with three to five measurable key results). ' +
        'You also help plan meetings, prepare feedback and difficult conversations (Situation, Behaviour, Impact), and write emails.',
      'Coach rather than lecture: ask one question at a time, build on what the user has already said in this chat, ' +
        'and close a framework with a concrete result and a dated next action.',
      'Keep replies short and practical. When you give a meeting agenda, use the word "agenda" and a numbered list of at ' +
        'most seven items written "1." to "7.".',
      // The app offers 'Save as goal' under results in these shapes (src/shared/goalDraft.ts).
      'When a framework reaches its result, write it in this shape so the user can save it as a goal. SMART: a line ' +
        '"Here is your SMART goal:", then a quote line "> **<the goal with its measure (from X to Y unit) and deadline>**". ' +
        'OKRs: "Here are your OKRs for <period>:", "**Objective:** <objective>", "**Key results:**" and a numbered list, each ' +
        'with its numbers (from X to Y). GROW: "Here is your GROW summary:", then "- **Goal:** ...", "- **Reality:** ...", ' +
        '"- **Options:** ...", "- **Will:** ..." and "**Next action:** <action with a date>".',
    ].join('\n'),
  ),
];

export const knownUser: ContextContributor = ({ user }) => {
  const facts = [`Name: ${user.fullName}`];
  if (user.jobTitle) facts.push(`Job title: ${user.jobTitle}`);
  if (user.company) facts.push(`Company: ${user.company}`);
  return [system(`What is known of the user:\n${facts.join('\n')}\nAddress them by their first name where it is natural.`)];
};

/** What the user wrote about themselves, only when useKnowledgeBase is on (the loader ensures it). */
export const knowledgeBaseContext: ContextContributor = ({ knowledgeBase }) => knowledgeBaseTurns(knowledgeBase);

/** The active goals and their key results' latest values, so the coach follows up on them. */
export const goalsContext: ContextContributor = ({ goals }) => goalsTurns(goals);

/** What the coach remembers of the user, the most relevant to the latest message (issue 24). */
export const memoryContext: ContextContributor = ({ memories, latestUserMessage }) => memoryTurns(memories, latestUserMessage);

/** Keyword routing for mail: up to 10 recent emails, or the note that mail is unavailable. */
export const mailContext: ContextContributor = async ({ latestUserMessage, mail }) => {
  if (!mailTrigger.test(latestUserMessage)) return [];
  if (!mail?.connected) return [system(formatMailNote(coachTexts.emailNotConnected))];
  try {
    const emails = await mail.recentEmails(maxContextEmails);
    return [system(formatRecentEmails(emails.slice(0, maxContextEmails)))];
  } catch (error) {
    // A refused token reads as "unable to access"; anything else as "a problem" (the product spec's error catalogue).
    const status = (error as { status?: unknown; statusCode?: unknown }).status ?? (error as { statusCode?: unknown }).statusCode;
    const note: MailNote = status === 401 || status === 403 ? coachTexts.emailUnavailable : coachTexts.emailProblem;
    return [system(formatMailNote(note))];
  }
};

/** The meeting a prep chat prepares, and the coming week when the user asks about it. */
export const meetingsContext: ContextContributor = ({ meetings, latestUserMessage }) => meetingsTurns(meetings, latestUserMessage);

export const folderGuidance: ContextContributor = ({ latestUserMessage }) =>
  folderTrigger.test(latestUserMessage)
    ? [
        system(
          'Folder guidance: the user wants to organise their mail. Suggest a small folder structure (for example Action, ' +
            'Waiting for, Reference by project or client, and Archive), rules for recurring senders, and a few minutes a day ' +
            'to triage. In this app, folders are listed and created on the Manage Folders page (/microsoft-folders), and ' +
            'emails are moved between folders on the Microsoft Emails page (/microsoft-emails).',
        ),
      ]
    : [];

/** In order: the coach's role first, then what is known, then what the message asks for. */
export const coachContextContributors: readonly ContextContributor[] = [
  coachRole,
  knownUser,
  knowledgeBaseContext,
  goalsContext,
  memoryContext,
  mailContext,
  folderGuidance,
  writingStyleContext,
  meetingsContext,
];

export async function buildCoachContext(
  input: CoachContextInput,
  contributors: readonly ContextContributor[] = coachContextContributors,
): Promise<ChatTurn[]> {
  const parts = await Promise.all(contributors.map((contribute) => contribute(input)));
  return parts.flat();
}

/** For voice replies (the product spec's REST calls: 2 to 3 sentences), put after the coach's context. */
export const voiceReplyRule: ChatTurn = system(
  'You are speaking with the user in a voice call: reply in 2 to 3 short spoken sentences, without lists or formatting.',
);
