import type { CoachUser } from '../contract.js';

export type FrameworkId = 'grow' | 'smart' | 'okr' | 'agenda' | 'feedback' | 'email';

/** What a reply may use about the person and their workspace. */
export type CoachScope = {
  user: CoachUser | null;
  firstName: string | null;
  /** The user's greeting and sign-off from their writing style profile, when the context has it. */
  writingStyle?: { greeting: string | null; signOff: string | null } | null;
};

/** The settled answers of a session so far, by step key, in the user's own words. */
export type Answers = Record<string, string>;

/**
 * Why an answer is asked for again. 'add' asks for a missing piece (a number, a date) that is
 * appended to the answer given; 'replace' asks for a better answer that takes its place.
 */
export type Issue = { message: string; mode: 'add' | 'replace' };

export interface Step {
  key: string;
  /** Shown in the step marker ("GROW · Step 2 of 4 · Reality"). */
  title: string;
  ask(answers: Answers, scope: CoachScope): string;
  /** Offered when the user asks for help or has no answer. */
  example: string;
  /** A reason to ask again, or null when the answer will do. */
  check?(answer: string, answers: Answers, scope: CoachScope): Issue | null;
  /**
   * The answer, when the user already gave it in something said before the question (the
   * opening request or an earlier answer): the question is then skipped and the coach says so.
   */
  takeFrom?(earlier: string): string | null;
  /**
   * The coach's own proposal, used when the user leaves the answer to the coach. It is kept
   * marked as the coach's (answers[`${key}.coach`]), so that no summary calls it the user's.
   */
  suggest?(answers: Answers, scope: CoachScope): string;
  /**
   * Asked the first time the user has no answer, before the coach offers its own idea: the
   * permission to suggest ("Would it help if I offered an idea?").
   */
  askFirst?: string;
  /**
   * A step that gathers a list ("what else?" until the user runs out): the question asked after
   * each addition. The list ends when the user says there is nothing more ("no", "that's all").
   */
  gather?(answer: string, answers: Answers): string;
  /** How the coach says the answer back before its next question (the default reflects the words). */
  reflect?(answer: string, answers: Answers): string;
}

export interface Framework {
  id: FrameworkId;
  /** The session's name in its step markers; must never contain the word "agenda" (see agenda.ts). */
  label: string;
  /** How the menu and explanations name it ("a GROW session"). */
  title: string;
  /** What it is, for "what is GROW?". */
  explanation: string;
  /** What to say to start one ("run a GROW session"). */
  startPhrase: string;
  /** The opening line of a new session; `request` is the message that asked for it. */
  intro(scope: CoachScope, request: string): string;
  steps: Step[];
  /** The closing result, built from the settled answers. */
  finish(answers: Answers, scope: CoachScope): string;
}
