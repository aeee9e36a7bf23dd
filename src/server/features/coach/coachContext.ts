import { wantsStepOut } from '../../../shared/rehearsalMoves.js';
import { coachTexts } from '../../../shared/texts/coach.js';
import type { ChatTurn, CoachUser, CoachContext, CoachFacts, MailFacts, MailNote, MailSource, WeekFacts } from '../../providers/ai/contract.js';
import { asksAboutWeek, asksForDraft, folderTrigger, mailTrigger } from '../../providers/ai/helpTriggers.js';

// The one context assembly: from the facts the features hand over and the conversation, what the
// coach knows for this turn (a typed CoachContext). Which facts a message calls for is decided
// here and nowhere else (mail words, folder words, a draft request, a question about the week).
// The model provider renders the value into prompt text; the offline coach reads it as it is.

/** Emails passed to the coach at most. */
export const maxContextEmails = 10;
/** Meetings of the coming week passed to the coach at most. */
export const maxWeekMeetings = 30;
// A drafting session spans a few turns (recipient, purpose, details, tone): the request may be
// among the user's last few messages.
const draftTurnsScanned = 5;

export type CoachContextInput = {
  /** Null for a phone caller nobody knows: the generic coach, with nothing of any user. */
  user: CoachUser | null;
  /** The conversation so far (without system turns); the latest user message may be its last turn. */
  history: ChatTurn[];
  latestUserMessage: string;
  /** What the features hand over; null when there is nobody to know (an unknown caller). */
  facts: CoachFacts | null;
  /** A spoken turn: the reply must be short and plain. */
  spoken?: boolean;
};

/** A context that knows nothing beyond who is asking: the start every reply's context is built from. */
export const emptyContext = (user: CoachUser | null, spoken: boolean): CoachContext => ({
  role: { kind: 'coach' },
  user,
  knowledgeBase: null,
  goals: [],
  memories: [],
  remembered: null,
  mail: null,
  folderGuidance: false,
  writingStyle: null,
  meetingPrep: null,
  week: null,
  spoken,
});

/** What the coach knows for one reply of the chat, a voice call or the phone. */
export async function assembleCoachContext(input: CoachContextInput): Promise<CoachContext> {
  const { user, history, latestUserMessage: latest, facts } = input;
  const spoken = input.spoken ?? false;
  if (!facts || !user) return emptyContext(null, spoken);
  // A rehearsal: the model plays the other person, who knows only what the role holds (never the
  // user's goals, memories or mail beyond what names them).
  // 'pause', or the user sounding distressed: the other person steps out of the role for one reply.
  if (facts.rehearsal) return { ...emptyContext(user, spoken), role: { kind: 'counterpart', counterpart: facts.rehearsal, stepOut: wantsStepOut(latest) } };
  const draftRequested = [latest, ...history.filter((turn) => turn.role === 'user').slice(-draftTurnsScanned).map((turn) => turn.content)].some(asksForDraft);
  const [memories, remembered, mail, week] = await Promise.all([
    facts.memories ? facts.memories.relevant(latest) : [],
    facts.memories ? facts.memories.remembered(latest) : null,
    mailTrigger.test(latest) ? readMail(facts.mail) : null,
    facts.meetings?.week && latest && asksAboutWeek(latest) ? readWeek(facts.meetings.week) : null,
  ]);
  return {
    ...emptyContext(user, spoken),
    knowledgeBase: facts.knowledgeBase,
    goals: facts.goals,
    memories,
    remembered,
    mail,
    folderGuidance: folderTrigger.test(latest),
    writingStyle: draftRequested ? facts.writingStyle : null,
    meetingPrep: facts.meetings?.prep ?? null,
    week,
    program: facts.program ?? null,
  };
}

/** What the email writer of the Writing Style page knows: who the user is, their style and knowledge base. */
export function assembleEmailWriterContext(input: { user: CoachUser; audience: 'internal' | 'external'; facts: Pick<CoachFacts, 'writingStyle' | 'knowledgeBase'> }): CoachContext {
  return {
    ...emptyContext(input.user, false),
    role: { kind: 'emailWriter', audience: input.audience },
    knowledgeBase: input.facts.knowledgeBase,
    writingStyle: input.facts.writingStyle,
  };
}

async function readMail(mail: MailSource | null): Promise<MailFacts> {
  if (!mail?.connected) return { kind: 'unavailable', note: coachTexts.emailNotConnected };
  try {
    const emails = await mail.recentEmails(maxContextEmails);
    return { kind: 'emails', emails: emails.slice(0, maxContextEmails) };
  } catch (error) {
    // A refused token reads as "unable to access"; anything else as "a problem".
    const status = (error as { status?: unknown; statusCode?: unknown }).status ?? (error as { statusCode?: unknown }).statusCode;
    const note: MailNote = status === 401 || status === 403 ? coachTexts.emailUnavailable : coachTexts.emailProblem;
    return { kind: 'unavailable', note };
  }
}

async function readWeek(week: () => Promise<Array<{ subject: string; start: string; end: string; attendees: string[] }>>): Promise<WeekFacts> {
  try {
    return { kind: 'meetings', meetings: (await week()).slice(0, maxWeekMeetings) };
  } catch {
    return { kind: 'unavailable' };
  }
}
