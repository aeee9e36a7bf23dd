import type { CoachContext, CoachGoal } from '../contract.js';
import { clause } from './language.js';
import { committedQuestion, goalCheckInIn, reflect } from './listen.js';

export { committedQuestion };
import { actFirstQuestion, outcomeQuestion, outcomeReply, weekAnswerReply, weekQuestion } from './meetingReplies.js';
import {
  closingReply,
  firstStepQuestion,
  firstStepReply,
  focusAnswerReply,
  focusQuestion,
  protectQuestion,
  takeawayQuestion,
  wantedOutcomeQuestion,
  takeawayReply,
} from './replies.js';
import { byName } from './scope.js';
import { frameworks } from './frameworks/index.js';
import type { CoachScope } from './types.js';

// Every question the coach asks outside a framework knows what it waits for. The conversation is
// all that is stored, so the question is found again in the coach's last reply, and the user's
// answer continues that thread instead of falling back.

/** Asked when a check-in could be about several goals. */
export const whichGoalQuestion = 'Which goal is this for?';
/** Asked once the goal is known. */
export const helpedQuestion = 'What helped you get there?';

type Thread = { asks: string; answer(message: string, context: CoachContext | null, scope: CoachScope, lastReply: string): string };

const threads: Thread[] = [
  { asks: outcomeQuestion, answer: (message, context, scope) => outcomeReply(context?.meetingPrep ?? null, message, scope) },
  { asks: weekQuestion, answer: (message, context, scope, lastReply) => weekAnswerReply(context?.week ?? null, message, scope, lastReply) },
  { asks: actFirstQuestion, answer: (message) => firstStepReply(message) },
  { asks: protectQuestion, answer: (message) => firstStepReply(message) },
  { asks: firstStepQuestion, answer: (message) => closingReply(message) },
  { asks: 'what is the one thing that meeting must settle?', answer: (message) => `${reflect(message)} Put that as the first line of the invite, so everyone comes ready to settle it.` },
  { asks: focusQuestion, answer: (message) => focusAnswerReply(message, frameworks.grow) },
  { asks: wantedOutcomeQuestion, answer: (message) => firstStepReply(message) },
  { asks: takeawayQuestion, answer: (message, _context, scope) => takeawayReply(message, scope) },
  { asks: committedQuestion, answer: (message, _context, scope) => committedReply(message, scope) },
  { asks: whichGoalQuestion, answer: (message, context, scope) => whichGoalReply(message, context, scope) },
  { asks: helpedQuestion, answer: (message, _context, scope) => `${reflect(message)} That is worth doing again on purpose${byName(scope)}. Keep going, and tell me where you are next time.` },
];

/** The thread the coach's last reply opened, if its last question is one it knows. */
export function threadOf(lastReply: string): Thread | null {
  let found: { thread: Thread; at: number } | null = null;
  for (const thread of threads) {
    const at = lastReply.lastIndexOf(thread.asks);
    if (at >= 0 && (!found || at > found.at)) found = { thread, at };
  }
  return found?.thread ?? null;
}

function committedReply(message: string, _scope: CoachScope): string {
  const aspirational = /\b(?:aspiration\w*|stretch|moonshot|ambitious|0\.7)\b/i.test(message);
  const committed = /\b(?:committed|commit|must|hundred|100|all of them|in full)\b/i.test(message);
  const scoring = aspirational && !committed
    ? 'Aspirational, then: a score of 0.7 is a good result, and missing the full target is expected, not a failure.'
    : committed && !aspirational
      ? 'Committed, then: plan to reach every key result in full, and if one slips, say so early and adjust what gets done.'
      : `“${clause(message)}”: decide it per key result, so that everyone reads the scores the same way (committed: 1.0 expected; aspirational: 0.7 is good).`;
  return `${scoring}\n\n${takeawayQuestion}`;
}

function whichGoalReply(message: string, context: CoachContext | null, scope: CoachScope): string {
  const goals = context?.goals ?? [];
  const said = message.toLowerCase();
  const index = /^\s*(\d)\b/.exec(message)?.[1];
  const named =
    (index ? goals[Number(index) - 1] : undefined) ??
    goals.find((g) => said.includes(g.title.toLowerCase())) ??
    goals.find((g) => g.title.toLowerCase().split(/\s+/).some((w) => w.length > 3 && said.includes(w)));
  if (!named) return `${reflect(message)} ${whichGoalQuestion} ${goalChoices(goals)}.`;
  return progressOn(named, scope);
}

function goalChoices(goals: CoachGoal[]): string {
  return goals.slice(0, 5).map((g, i) => `${i + 1}. “${g.title}”`).join(', ');
}

function progressOn(goal: CoachGoal, scope: CoachScope): string {
  return (
    `Then that is progress on “${goal.title}”${byName(scope)}. To log it, open that goal on the Goals page (/goals) and add a check-in with the new number. ` +
    helpedQuestion
  );
}

/**
 * A check-in told in a chat about no goal in particular: the progress said back, and the goal it
 * fits named, or the question of which goal it is for.
 */
export function checkInReply(message: string, context: CoachContext | null, scope: CoachScope): string | null {
  const goals = context?.goals ?? [];
  const mention = goalCheckInIn(message, goals);
  if (!mention) return null;
  const lead = `${reflect(message)} That sounds like progress.`;
  // In a chat about a goal the server has already logged it (the context then shows the number).
  const logged = mention.goals.flatMap((goal) => goal.keyResults.filter((kr) => kr.current === mention.value && kr.lastCheckIn).map((kr) => ({ goal, kr })));
  if (logged.length === 1) {
    const { goal, kr } = logged[0]!;
    return `${lead} It is logged on “${goal.title}”: ${kr.title} is at ${kr.current} of ${kr.target}${kr.unit ? ` ${kr.unit}` : ''}. ${helpedQuestion}`;
  }
  if (mention.goals.length === 1) return `${lead} ${progressOn(mention.goals[0]!, scope).replace(/^Then that/, 'That')}`;
  return `${lead} ${whichGoalQuestion} ${goalChoices(mention.goals)}.`;
}
