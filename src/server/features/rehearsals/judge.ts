import type { Logger } from 'pino';
import { computeChecks } from '../../../shared/rehearsalChecks.js';
import { contentWords, countWords, findFillers, type TranscriptTurn } from '../../../shared/rehearsalReport.js';
import { judgedReportSchema, maxJudgedItems, type ComputedReport, type JudgedReport, type ReportChecks } from '../../../shared/schemas/rehearsals.js';
import { rehearsalTexts } from '../../../shared/texts/rehearsals.js';
import type { JudgeInput } from '../../providers/ai/rehearsalJudge.js';
import type { Providers } from '../../providers/providers.js';

// The judged part of a rehearsal's report: by the model when one is configured (checked here, and
// only what is usable kept: a citation must quote the transcript line it names, an improvement the
// user's own words, and a judgement without a citation is not kept), else by the rubric's checks.
// Either way a judgement that cannot be made leaves the computed part standing (null here).

const normalise = (text: string) => text.replace(/[\s“”"]+/g, ' ').trim().toLowerCase();

/**
 * Keeps a model's judgement only in the report's shape, with its citations of the transcript (each
 * quoting the line it names; none left: not kept), and only improvements that quote the user.
 */
export function usableJudgement(answer: unknown, transcript: JudgeInput['transcript']): JudgedReport | null {
  const parsed = judgedReportSchema.safeParse(answer);
  if (!parsed.success) return null;
  const lines = transcript.map((turn) => normalise(turn.content));
  const citations = (parsed.data.citations ?? []).filter((c) => lines[c.turn - 1]?.includes(normalise(c.quote)));
  if (!citations.length) return null;
  const said = transcript.filter((turn) => turn.role === 'user').map((turn) => normalise(turn.content));
  return {
    ...parsed.data,
    citations,
    strengths: parsed.data.strengths.slice(0, maxJudgedItems),
    improvements: parsed.data.improvements.filter((item) => said.some((turn) => turn.includes(normalise(item.quote)))).slice(0, maxJudgedItems),
  };
}

/**
 * `model`: the model's judgement, asked in the model region of the user's organisation (null:
 * OPENAI_BASE_URL); null: the rubric's checks (no model configured, or the day's model turns spent).
 */
export async function judgeRehearsal(
  deps: { log: Logger; providers: Pick<Providers, 'judge'> },
  input: JudgeInput,
  computed: ComputedReport,
  model: { region: string | null } | null,
  checks: ReportChecks = computeChecks(input.transcript, input.goal).checks,
): Promise<JudgedReport | null> {
  const judge = model ? deps.providers.judge : null;
  if (!judge || !model) return offlineJudgement(input, computed, checks);
  try {
    const judged = usableJudgement(await judge.judge(input, model.region), input.transcript);
    if (!judged) deps.log.warn('the rehearsal judgement was not in the report shape or cited nothing of the transcript; the computed part stands alone');
    return judged;
  } catch (cause) {
    deps.log.warn({ err: cause }, 'the rehearsal could not be judged; the computed part stands alone');
    return null;
  }
}

const longTurnWords = 60;
const sentences = (text: string) => text.split(/(?<=[.!?])\s+/).map((s) => s.trim()).filter(Boolean);

/**
 * The goal's verdict from the rubric's checks, with the reason naming the check that failed: met
 * when a request with an owner and a date was made without hedges; partly when it was hedged or
 * incomplete, or when the user raised what they wanted without asking; not met otherwise. (The
 * goal's own words are a topic, not a test: 'Can we agree you flag risks by Wednesday each sprint?'
 * asks for an agreement whichever of the goal's words it uses.)
 */
export function goalFromChecks(checks: ReportChecks, raisedGoal: boolean): Pick<JudgedReport, 'goalMet' | 'goalReason'> {
  const t = rehearsalTexts.offlineGoalReason;
  const { request, hedges, purpose } = checks;
  if (request.status === 'passed' && hedges.status !== 'failed') return { goalMet: 'yes', goalReason: t.yes(request.quote ?? '') };
  if (request.status === 'passed') return { goalMet: 'partly', goalReason: t.hedged(request.quote ?? '', hedges.words ?? []) };
  if (request.quote && (request.owner || request.date)) return { goalMet: 'partly', goalReason: t.incomplete(request.quote, request.owner ? 'date' : 'owner') };
  if (raisedGoal || purpose.status === 'passed') return { goalMet: 'partly', goalReason: t.noRequest };
  return { goalMet: 'no', goalReason: t.no };
}

/** The offline coach's judgement: the rubric's checks read plainly, and the computed numbers. */
export function offlineJudgement(input: JudgeInput, computed: ComputedReport, checks: ReportChecks = computeChecks(input.transcript, input.goal).checks): JudgedReport {
  const userTurns = input.transcript.filter((turn): turn is TranscriptTurn & { role: 'user' } => turn.role === 'user').map((turn) => turn.content);
  const said = userTurns.join(' ').toLowerCase();
  const goalWords = contentWords(input.goal, 8, [input.counterpart.name]);
  const covered = goalWords.filter((word) => said.includes(word.toLowerCase())).length;
  const { goalMet, goalReason } = goalFromChecks(checks, covered > 0);

  const strengths: string[] = [];
  if (checks.request.status === 'passed' && checks.hedges.status !== 'failed') strengths.push(rehearsalTexts.offlineStrengths.request);
  if (checks.pushbacks.status === 'passed') strengths.push(rehearsalTexts.offlineStrengths.pushbacks);
  if (checks.purpose.status === 'passed') strengths.push(rehearsalTexts.offlineStrengths.purpose);
  else if (covered > 0) strengths.push(rehearsalTexts.offlineStrengths.goal);
  if (computed.questionsAsked > 0) strengths.push(rehearsalTexts.offlineStrengths.questions);
  if (computed.longestTurnWords > 0 && computed.longestTurnWords <= longTurnWords) strengths.push(rehearsalTexts.offlineStrengths.concise);
  if (computed.fillerWords.count === 0 && userTurns.length) strengths.push(rehearsalTexts.offlineStrengths.noFillers);

  const improvements: JudgedReport['improvements'] = [];
  for (const turn of userTurns) {
    for (const sentence of sentences(turn)) {
      if (improvements.length >= maxJudgedItems) break;
      const fillers = findFillers(sentence);
      if (!fillers.length) continue;
      let better = sentence;
      for (const filler of [...fillers].reverse()) better = better.slice(0, filler.start) + better.slice(filler.end);
      better = better.replace(/\s+/g, ' ').replace(/ ([,.!?])/g, '$1').replace(/^[ ,]+/, '').replace(/, ?,/g, ',').trim();
      if (better) better = better[0]!.toUpperCase() + better.slice(1);
      improvements.push({ quote: sentence, better: better || rehearsalTexts.offlineBetter.hedge });
    }
  }
  const longest = userTurns.find((turn) => countWords(turn) === computed.longestTurnWords);
  if (longest && computed.longestTurnWords > longTurnWords && improvements.length < maxJudgedItems) {
    improvements.push({ quote: sentences(longest)[0] ?? longest, better: rehearsalTexts.offlineBetter.long });
  }
  return {
    goalMet,
    goalReason,
    strengths: strengths.slice(0, maxJudgedItems),
    improvements: improvements.slice(0, maxJudgedItems),
  };
}
