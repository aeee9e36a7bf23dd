import { contentWords } from './rehearsalReport.js';
import { stepsOutOfRole } from './texts/rehearsalChat.js';
import { acknowledges, bestRequest, judgementsIn, requestsIn, type Request } from './rehearsalMoves.js';
import type { CheckName, RehearsalCheck, ReportChecks, Verdict, WentWrong } from './schemas/rehearsals.js';

// The checks of a rehearsal's report, a coach's rubric read exactly from the transcript: the
// purpose stated early, each pushback acknowledged in the next turn, no judgement words, a request
// with an owner and a date, no hedges inside that request; the turn where it went wrong; and the
// verdict naming the check that failed. The model judge is given the same rubric (rehearsalJudge.ts).

export type CheckedTurn = { role: 'user' | 'counterpart'; content: string; id?: number };

/** The rubric's checks, in the order a conversation meets them. */
export const checkNames = ['purpose', 'pushbacks', 'judgement', 'request', 'hedges'] as const satisfies readonly CheckName[];

/** The purpose counts as stated early when it is in one of the user's first two turns. */
export const purposeTurns = 2;

const purposePattern =
  /\b(?:i (?:want|wanted|need|needed|would like|'d like|'?d like) to (?:talk|discuss|raise|agree|ask|sort|go over|cover|decide|review|come to|get|find|settle|look at|check in)|i(?: am|'m) here (?:to|because)|the reason i|why i (?:asked|wanted)|(?:can|could) we (?:talk|discuss|agree|look at|go over)|let'?s (?:talk|discuss|agree)|my goal|the purpose|what i(?:'d| would) like (?:is|from|to)|i(?:'d| would) like us to|i(?:'d| would) like to agree|i want us to|i asked (?:for|to) (?:this|the) (?:meeting|chat|time))\b/i;

const pushbackPattern =
  /\b(?:no[,.!]|not sure|hold on|hang on|why would|why should|i don'?t (?:see|think|agree|buy|accept)|i disagree|that'?s not (?:fair|true|right|what|how)|that is not|nothing changed|we'?ll see|not convinced|frustrat|i can'?t|i cannot|i won'?t|i'?m not (?:sure|convinced|happy|comfortable|going)|what about|before i (?:say yes|agree|commit)|i(?:'d| would) still need|unfair|but\b)/i;

const isStepOut = stepsOutOfRole;

/** A counterpart turn that pushes back on the user: a refusal, an objection, a 'but'. */
export const pushesBack = (text: string) => !isStepOut(text) && pushbackPattern.test(text.slice(0, 4_000));

const quoteOf = (text: string, max = 200) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

type UserTurn = { index: number; userTurn: number; content: string; id?: number };

/** The checks, the turn where it went wrong and the verdict, from the transcript and the user's goal. */
export function computeChecks(turns: CheckedTurn[], goal: string): { checks: ReportChecks; wentWrong: WentWrong | null; verdict: Verdict } {
  const users: UserTurn[] = [];
  turns.forEach((turn, index) => {
    if (turn.role === 'user') users.push({ index, userTurn: users.length + 1, content: turn.content, id: turn.id });
  });
  const cite = (u: UserTurn | undefined, text?: string) => (u ? { userTurn: u.userTurn, messageId: u.id ?? null, quote: quoteOf(text ?? u.content) } : { userTurn: null, messageId: null, quote: null });

  // 1. The purpose, stated in the first two turns: a purpose phrase, or half the goal's own words.
  const goalWords = contentWords(goal, 8).map((w) => w.toLowerCase());
  const statesPurpose = (text: string) => {
    if (purposePattern.test(text)) return true;
    const lower = text.toLowerCase();
    return goalWords.length >= 2 && goalWords.filter((w) => lower.includes(w)).length * 2 >= goalWords.length;
  };
  const purposeAt = users.slice(0, purposeTurns).find((u) => statesPurpose(u.content));
  const purpose: RehearsalCheck = purposeAt
    ? { name: 'purpose', status: 'passed', ...cite(purposeAt) }
    : { name: 'purpose', status: users.length ? 'failed' : 'not_applicable', ...cite(users[0]) };

  // 2. Each pushback of the other person acknowledged in the user's next turn.
  const missed: UserTurn[] = [];
  let pushbackCount = 0;
  turns.forEach((turn, index) => {
    if (turn.role !== 'counterpart' || !pushesBack(turn.content)) return;
    const next = users.find((u) => u.index > index);
    if (!next) return; // the last word: nothing to answer it yet
    pushbackCount += 1;
    if (!acknowledges(next.content)) missed.push(next);
  });
  const pushbacks: RehearsalCheck = {
    name: 'pushbacks',
    status: pushbackCount === 0 ? 'not_applicable' : missed.length ? 'failed' : 'passed',
    ...cite(missed[0]),
    pushbacks: pushbackCount,
    acknowledged: pushbackCount - missed.length,
  };

  // 3. Judgement words: a label for the person, where a behaviour would do.
  const judged = users.map((u) => ({ u, words: judgementsIn(u.content) })).filter((x) => x.words.length);
  const judgement: RehearsalCheck = judged.length
    ? { name: 'judgement', status: 'failed', ...cite(judged[0]!.u), words: [...new Set(judged.flatMap((x) => x.words))] }
    : { name: 'judgement', status: users.length ? 'passed' : 'not_applicable', ...cite(undefined), words: [] };

  // 4. A request with an owner and a date (the best one said), and 5. hedges inside it.
  let best: { u: UserTurn; r: Request } | null = null;
  for (const u of users) {
    const r = bestRequest(requestsIn(u.content));
    if (!r) continue;
    const complete = (x: Request) => (x.owner ? 1 : 0) + (x.date ? 1 : 0);
    if (!best || complete(r) > complete(best.r) || (complete(r) === complete(best.r) && r.hedges.length <= best.r.hedges.length)) best = { u, r };
  }
  const request: RehearsalCheck = best
    ? { name: 'request', status: best.r.owner && best.r.date ? 'passed' : 'failed', ...cite(best.u, best.r.sentence), owner: best.r.owner, date: best.r.date }
    : { name: 'request', status: users.length ? 'failed' : 'not_applicable', ...cite(users.at(-1)), owner: null, date: null };
  const hedges: RehearsalCheck = best
    ? { name: 'hedges', status: best.r.hedges.length ? 'failed' : 'passed', ...cite(best.u, best.r.sentence), words: best.r.hedges }
    : { name: 'hedges', status: 'not_applicable', ...cite(undefined), words: [] };

  const checks: ReportChecks = { purpose, pushbacks, judgement, request, hedges };
  const failed = checkNames.filter((name) => checks[name].status === 'failed');

  // Where it went wrong: the earliest of the user's turns a failed check points at.
  let wentWrong: WentWrong | null = null;
  for (const name of failed) {
    const check = checks[name];
    if (check.userTurn === null) continue;
    if (!wentWrong || check.userTurn < wentWrong.userTurn) wentWrong = { check: name, userTurn: check.userTurn, messageId: check.messageId, quote: check.quote ?? '' };
  }
  const verdict: Verdict = { passed: users.length > 0 && failed.length === 0, failedCheck: failed[0] ?? null, failedChecks: failed };
  return { checks, wentWrong, verdict };
}
