import type { Logger } from 'pino';
import { contentWords, countWords, findFillers, type TranscriptTurn } from '../../../shared/rehearsalReport.js';
import { judgedReportSchema, maxJudgedItems, type ComputedReport, type JudgedReport } from '../../../shared/schemas/rehearsals.js';
import { rehearsalTexts } from '../../../shared/texts/rehearsals.js';
import type { Config } from '../../config.js';
import { createOpenAiRehearsalJudge, type JudgeInput, type RehearsalJudge } from '../../providers/ai/rehearsalJudge.js';

// The judged part of a rehearsal's report: by the model when one is configured (checked here, and
// only what is usable kept: an improvement must quote the user's own words), else by simple rules.
// Either way a judgement that cannot be made leaves the computed part standing (null here).

const judges = new WeakMap<Config, RehearsalJudge>();
function modelJudge(config: Config): RehearsalJudge | null {
  const { apiKey, baseUrl, model } = config.openai;
  if (!apiKey) return null;
  let judge = judges.get(config);
  if (!judge) {
    judge = createOpenAiRehearsalJudge({ apiKey, baseUrl, model });
    judges.set(config, judge);
  }
  return judge;
}

const normalise = (text: string) => text.replace(/[\s“”"]+/g, ' ').trim().toLowerCase();

/** Keeps a model's judgement only in the report's shape, and only improvements that quote the user. */
export function usableJudgement(answer: unknown, userTurns: string[]): JudgedReport | null {
  const parsed = judgedReportSchema.safeParse(answer);
  if (!parsed.success) return null;
  const said = userTurns.map(normalise);
  return {
    ...parsed.data,
    strengths: parsed.data.strengths.slice(0, maxJudgedItems),
    improvements: parsed.data.improvements.filter((item) => said.some((turn) => turn.includes(normalise(item.quote)))).slice(0, maxJudgedItems),
  };
}

export async function judgeRehearsal(
  deps: { config: Config; log: Logger },
  input: JudgeInput,
  computed: ComputedReport,
  useModel: boolean,
): Promise<JudgedReport | null> {
  const userTurns = input.transcript.filter((turn) => turn.role === 'user').map((turn) => turn.content);
  const judge = useModel ? modelJudge(deps.config) : null;
  if (!judge) return offlineJudgement(input, computed);
  try {
    const judged = usableJudgement(await judge.judge(input), userTurns);
    if (!judged) deps.log.warn('the rehearsal judgement was not in the report shape; the computed part stands alone');
    return judged;
  } catch (cause) {
    deps.log.warn({ err: cause }, 'the rehearsal could not be judged; the computed part stands alone');
    return null;
  }
}

const longTurnWords = 60;
const sentences = (text: string) => text.split(/(?<=[.!?])\s+/).map((s) => s.trim()).filter(Boolean);

/** The offline coach's judgement: the goal's words in the user's turns, and the computed numbers read plainly. */
export function offlineJudgement(input: JudgeInput, computed: ComputedReport): JudgedReport {
  const userTurns = input.transcript.filter((turn): turn is TranscriptTurn & { role: 'user' } => turn.role === 'user').map((turn) => turn.content);
  const said = userTurns.join(' ').toLowerCase();
  const goalWords = contentWords(input.goal, 8, [input.counterpart.name]);
  const covered = goalWords.filter((word) => said.includes(word.toLowerCase())).length;
  const askedForAgreement = /\b(agree|agreed|next step|can we|could we|shall we|will you|deal)\b/i.test(said);
  const goalMet = goalWords.length && covered / goalWords.length >= 0.5 ? (askedForAgreement ? 'yes' : 'partly') : covered > 0 ? 'partly' : 'no';

  const strengths: string[] = [];
  if (covered > 0) strengths.push(rehearsalTexts.offlineStrengths.goal);
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
    goalReason: rehearsalTexts.offlineGoalReason[goalMet],
    strengths: strengths.slice(0, maxJudgedItems),
    improvements: improvements.slice(0, maxJudgedItems),
  };
}
