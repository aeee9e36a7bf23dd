import type { CoachContext, ChatTurn, CoachUser } from '../contract.js';
import { frameworkList, frameworks } from './frameworks/index.js';
import { accepts, idleIntent, sessionIntent } from './intents.js';
import { agendaEditReply, agendaEditRequest, lastAgenda } from './agendaEdits.js';
import { counterpartReply } from './counterpart.js';
import { prepAgendaReply, reflectionReply, weekReply } from './meetingReplies.js';
import { asksForHelp, clause, defersToCoach } from './language.js';
import { asksForCalendar, describesFocusProblem, reflect } from './listen.js';
import {
  cancelReply,
  challengeReply,
  declinedReply,
  explainReply,
  fallbackReply,
  foldersReply,
  focusTimeReply,
  greetingReply,
  inboxReply,
  menuReply,
  offers,
  thanksReply,
} from './replies.js';
import { checkInReply, threadOf } from './threads.js';
import { scopeFor } from './scope.js';
import { readSession, stepMarker, type Session } from './state.js';
import type { Answers, CoachScope, Framework, Issue, Step } from './types.js';

// The offline coach's decision: given the conversation and the coach's typed context (the same
// value a model gets rendered as text), the next reply. Pure and deterministic: the same input
// always gives the same text. System turns in the conversation are not read.

/**
 * How many replies one question may get: a question is asked at most twice, then the coach moves
 * on with a sensible default (the step's suggestion) or the answer as it is, and says so.
 */
const maxRepliesPerStep = 2;
/** A list gathered with "what else?" takes more replies, until the user runs out. */
const maxRepliesToGather = 8;

export function coachReply(input: { messages: ChatTurn[]; context?: CoachContext | null; user?: CoachUser | null }): string {
  const context = input.context ?? null;
  const conversation = input.messages.filter((m) => m.role !== 'system');
  const style = context?.writingStyle;
  const scope: CoachScope = { ...scopeFor(input.user ?? context?.user), writingStyle: style ? { greeting: style.greeting || null, signOff: style.signOff || null } : null };
  // A rehearsal: the other person answers in character, never the coach.
  if (context?.role.kind === 'counterpart') return counterpartReply(context.role.counterpart, conversation, scope, context.role.stepOut);
  // A prep chat opens with the meeting's agenda, and answers 'How did it go?' with a reflection.
  const prep = context?.meetingPrep ?? null;
  if (prep?.turn === 'agenda') return prepAgendaReply(prep, scope);
  const latest = conversation.at(-1);
  if (!latest || latest.role !== 'user' || !latest.content.trim()) return greetingReply(scope);

  const message = latest.content.trim();
  // 'Remember that …': stored before this reply, which says so.
  const remembered = context?.remembered;
  if (remembered) return rememberedReply(remembered.saved ? remembered.text : null);
  if (prep?.turn === 'reflection') return reflectionReply(prep, message, scope);
  // 'Modify the agenda' changes the agenda the coach last wrote (a prep chat's too), never starts a new one.
  const earlier = conversation.slice(0, -1);
  const edit = agendaEditRequest(message, earlier.findLast((turn) => turn.role === 'assistant')?.content ?? '');
  const agenda = edit === null ? null : lastAgenda(earlier);
  if (edit !== null && agenda) return agendaEditReply(agenda, edit, scope);
  const session = readSession(earlier);
  if (session) return continueSession(session, message, scope);

  // "yes" to the coach's offer of a framework starts it; "no" is fine, and the user is asked back.
  const lastReply = conversation.findLast((turn) => turn.role === 'assistant')?.content ?? '';
  const offered = frameworkList.find((f) => offers(lastReply, f));
  if (offered && accepts(message)) return startFramework(offered, scope, message);
  if (offered && declines(message)) return declinedReply();

  const intent = idleIntent(message);
  // An answer to the coach's own question continues that thread, unless it asks for something else.
  const thread = threadOf(lastReply);
  if (thread && continuesThread(intent)) return thread.answer(message, context, scope, lastReply);
  // A check-in told in any chat: the progress said back, and the goal it is for named or asked.
  if (continuesThread(intent) && context?.goals.length) {
    const checkIn = checkInReply(message, context, scope);
    if (checkIn) return checkIn;
  }
  // Meetings eating the time for focused work is a problem to think through, not a list of times.
  if (describesFocusProblem(message) && !asksForCalendar(message) && intent.kind !== 'start') return focusTimeReply(message);
  const week = context?.week;
  if (week && (intent.kind === 'unknown' || intent.kind === 'greeting')) return weekReply(week, scope);
  switch (intent.kind) {
    case 'start':
      return startFramework(frameworks[intent.framework], scope, message);
    case 'explain':
      return explainReply(frameworks[intent.framework]);
    case 'restart':
    case 'menu':
      return menuReply(scope);
    case 'cancel':
      return cancelReply(scope, null);
    case 'greeting':
      return greetingReply(scope);
    case 'thanks':
      return thanksReply(scope);
    case 'folders':
      return foldersReply(scope);
    case 'inbox':
      return inboxReply(scope, context?.mail ?? null);
    case 'challenge':
      return challengeReply(scope, frameworks.grow, message);
    case 'unknown':
      return fallbackReply(message, frameworks.grow);
  }
}

/** An intent that leaves the coach's question open: anything but a clear request for something else. */
function continuesThread(intent: ReturnType<typeof idleIntent>): boolean {
  return intent.kind === 'unknown' || intent.kind === 'challenge' || intent.kind === 'menu';
}

/** "no", "not now", "no thanks": turning down an offer. */
function declines(text: string): boolean {
  return /^(?:no|nope|nah|not (?:now|really|today|yet)|no,? thanks?(?: you)?|maybe later|i'?d rather not)[\s.!]*$/i.test(text.trim());
}

function rememberedReply(saved: string | null): string {
  return saved !== null
    ? `I’ll remember that: “${saved}”. You can see and edit what I remember on the Memory page.`
    : 'I could not remember that: memory is off, this chat is temporary, or your memory is full. You can change that on the Memory page.';
}

function startFramework(framework: Framework, scope: CoachScope, request: string, lead?: string): string {
  const intro = lead ?? framework.intro(scope, request);
  const answers: Answers = {};
  const { index, notes } = skipAnswered(framework, 0, answers, lead ? [] : [request]);
  if (index >= framework.steps.length) return framework.finish(answers, scope);
  return `${[intro, ...notes].join(' ')}\n\n${question(framework, index, answers, scope)}`;
}

function question(framework: Framework, stepIndex: number, answers: Answers, scope: CoachScope): string {
  return `${stepMarker(framework, stepIndex)}\n\n${framework.steps[stepIndex]!.ask(answers, scope)}`;
}

/** The answer a step takes from what the user already said, or null. */
function takenFrom(step: Step, earlier: string[]): string | null {
  if (!step.takeFrom) return null;
  for (const text of earlier) {
    const taken = step.takeFrom(text);
    if (taken) return taken;
  }
  return null;
}

/** From `from` on, the questions the user has already answered are skipped (and their answers kept). */
function skipAnswered(framework: Framework, from: number, answers: Answers, earlier: string[]): { index: number; notes: string[] } {
  const notes: string[] = [];
  let index = from;
  for (; index < framework.steps.length; index++) {
    const step = framework.steps[index]!;
    const taken = takenFrom(step, earlier);
    if (!taken) break;
    answers[step.key] = taken;
    notes.push(`I'll take ${quoteAnswer(taken)} as the ${step.title.toLowerCase()}, as you said.`);
  }
  return { index, notes };
}

function continueSession(session: Session, message: string, scope: CoachScope): string {
  const framework = frameworks[session.framework];
  const intent = sessionIntent(message, framework.id);
  if (intent?.kind === 'restart') return startFramework(framework, scope, message, "Let's start again.");
  if (intent?.kind === 'cancel') return cancelReply(scope, framework);
  if (intent?.kind === 'start') return startFramework(frameworks[intent.framework], scope, message);

  // The answers to the earlier steps are settled exactly as they were when the coach moved on.
  const answers: Answers = {};
  const earlier = [session.opening];
  for (let i = 0; i < session.stepIndex; i++) {
    const step = framework.steps[i]!;
    const replies = sinceRestart(session.replies[i]!, framework);
    const taken = replies.length ? null : takenFrom(step, earlier);
    const settled = taken ? null : resolve(step, replies, answers, scope);
    answers[step.key] = taken ?? settled!.answer;
    if (settled?.suggested) answers[`${step.key}.coach`] = 'yes';
    earlier.push(...replies);
  }

  const step = framework.steps[session.stepIndex]!;
  const replies = [...sinceRestart(session.replies[session.stepIndex]!, framework), message];
  const outcome = resolve(step, replies, answers, scope);
  if (outcome.suggested) answers[`${step.key}.coach`] = 'yes';
  if (outcome.askAgain) {
    const marker = stepMarker(framework, session.stepIndex);
    // An issue is itself a question; an example comes before the question asked again.
    return outcome.issue ? `${marker}\n\n${outcome.askAgain}` : `${outcome.askAgain}\n\n${marker}\n\n${step.ask(answers, scope)}`;
  }
  answers[step.key] = outcome.answer;
  earlier.push(...replies);

  const { index: next, notes } = skipAnswered(framework, session.stepIndex + 1, answers, earlier);
  if (next < framework.steps.length) {
    if (outcome.suggested) answers[`${step.key}.coach`] = 'yes';
    const acknowledgement = step.gather && step.reflect
      ? step.reflect(outcome.answer, answers)
      : outcome.defaulted
      ? outcome.suggested
        ? `Let's not get stuck on this one: I'll pencil in my suggestion, ${quoteAnswer(outcome.answer)}, for now. It is the coach's idea, not yours, so change it at the end if it does not fit.`
        : outcome.answer
          ? `Let's not get stuck on this one: I'll note ${quoteAnswer(outcome.answer)} as it is for now.`
          : "Let's not get stuck on this one: we can leave it open for now."
      : outcome.suggested
        ? `I'll pencil in my suggestion, ${quoteAnswer(outcome.answer)}: it is the coach's idea, so make it your own if it does not quite fit.`
        : (step.reflect?.(outcome.answer, answers) ?? reflect(outcome.answer));
    // Moving on past a question the user could not answer: what they have said so far, played back.
    const playback = outcome.defaulted ? saidSoFar(framework, session.stepIndex, answers) : null;
    return `${[acknowledgement, ...notes].join(' ')}${playback ? `\n\n${playback}` : ''}\n\n${question(framework, next, answers, scope)}`;
  }
  return framework.finish(answers, scope);
}

/**
 * The answers up to and including `through`, in the user's own words (quoted as said), any of the
 * coach's marked as its suggestion; null while there is nothing to play back. When the user is
 * unsure, hearing their own words back helps them find the next answer, and no choice is made for them.
 */
function saidSoFar(framework: Framework, through: number, answers: Answers): string | null {
  const lines = framework.steps.slice(0, through + 1).flatMap((step) => {
    const answer = answers[step.key]?.trim();
    if (!answer || defersToCoach(answer)) return [];
    const mark = answers[`${step.key}.coach`] ? ' (my suggestion)' : '';
    return [`- **${step.title}:** ${quoteAnswer(clause(answer))}${mark}`];
  });
  return lines.length ? ['Here is what you said so far, in your words:', ...lines].join('\n') : null;
}

/** The step's outcome; after the question was asked twice, a default instead of a third time. */
function resolve(step: Step, replies: string[], answers: Answers, scope: CoachScope): Settled & { defaulted: boolean } {
  const outcome = settle(step, replies, answers, scope);
  if (!outcome.askAgain || replies.length < (step.gather ? maxRepliesToGather : maxRepliesPerStep)) return { ...outcome, defaulted: false };
  if (step.gather && outcome.answer) return { ...outcome, askAgain: null, issue: false, defaulted: false };
  if (step.suggest) return { answer: step.suggest(answers, scope), suggested: true, askAgain: null, issue: false, defaulted: true };
  return { ...outcome, askAgain: null, issue: false, defaulted: true };
}

// "start over" while on the first question leaves both questions in one session: what was
// said before the restart does not count.
function sinceRestart(replies: string[], framework: Framework): string[] {
  const restart = replies.findLastIndex((reply) => sessionIntent(reply, framework.id)?.kind === 'restart');
  return restart < 0 ? replies : replies.slice(restart + 1);
}

function quoteAnswer(text: string): string {
  return `“${text}”`;
}

type Settled = { answer: string; suggested: boolean; askAgain: string | null; issue: boolean };

/**
 * The answer a step ends up with, given every reply to its question so far. Requests for help
 * and "I don't know" add nothing (or take the coach's suggestion); an answer that misses a
 * piece is completed by the next reply ('add'), or replaced by it ('replace').
 */
function settle(step: Step, replies: string[], answers: Answers, scope: CoachScope): Settled {
  let answer = '';
  let suggested = false;
  let issue: Issue | null = null;
  let last: 'help' | 'unsure' | 'answer' | 'permission' = 'answer';
  let permissionAsked = false;
  let ranOut = false;
  for (const raw of replies) {
    const reply = raw.trim();
    ranOut = false;
    if (asksForHelp(reply)) {
      last = 'help';
      continue;
    }
    // A list gathered with "what else?" ends when the user has nothing more to add.
    if (step.gather && answer && (runsOut(reply) || defersToCoach(reply))) {
      ranOut = true;
      last = 'answer';
      continue;
    }
    // "That's it" before any item is no item: the user has nothing yet, as with "not sure".
    if (defersToCoach(reply) || (step.gather && !answer && runsOut(reply))) {
      if (step.suggest && step.askFirst && !permissionAsked) {
        // Permission before an idea of the coach's.
        permissionAsked = true;
        last = 'permission';
      } else if (step.suggest) {
        answer = step.suggest(answers, scope);
        suggested = true;
        issue = null;
        last = 'answer';
      } else {
        last = 'unsure';
      }
      continue;
    }
    answer = !answer ? reply : step.gather ? `${answer}, ${reply}` : issue?.mode === 'add' ? `${answer} — ${reply}` : reply;
    if (!step.gather) suggested = false;
    issue = step.check?.(answer, answers, scope) ?? null;
    last = 'answer';
  }
  if (last === 'help') return { answer, suggested, askAgain: `Here is an example of an answer: ${step.example}`, issue: false };
  if (last === 'permission') return { answer, suggested, askAgain: step.askFirst!, issue: true };
  if (!answer) return { answer, suggested, askAgain: `No problem. Here is an example to get you going: ${step.example}`, issue: false };
  if (step.gather && !ranOut && !issue) return { answer, suggested, askAgain: step.gather(answer, { ...answers, ...(suggested ? { [`${step.key}.coach`]: 'yes' } : {}) }), issue: true };
  return { answer, suggested, askAgain: issue?.message ?? null, issue: issue !== null };
}

/** "no", "that's all", "nothing else": the user has run out of things to add. */
function runsOut(text: string): boolean {
  return /^(?:no|nope|nah|none|nothing(?: (?:else|more))?|no more|not really|that'?s (?:all|it|everything|enough)|that is (?:all|it)|i think that'?s (?:all|it)|i'?m done|done|enough|no,? that'?s (?:all|it)|no(?:thing)? else|nothing (?:else |more )?comes? to mind|i can'?t think of anything (?:else|more))(?:[\s,.!]+(?:thanks|thank you|i think|really|for now))*[\s.!]*$/i.test(text.trim());
}
