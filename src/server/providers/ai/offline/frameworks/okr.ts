import { capitalize, clause, figureIn, onlyTime, periodIn, quote, timeframeIn, wordCount } from '../language.js';
import { byName } from '../scope.js';
import type { Answers, Framework, Step } from '../types.js';

// OKRs: one qualitative objective, the period, then three key results, each with a number.
// When the user has no key result in mind, the coach proposes one that fits the objective.

// Key results that fit common kinds of objective, picked by words in the objective.
const keyResultIdeas: Array<{ topic: RegExp; ideas: string[] }> = [
  {
    topic: /\b(?:customers?|clients?|users?|satisf\w*|nps|support|service|experience)\b/i,
    ideas: [
      'Raise customer satisfaction (CSAT) from 80% to 90%',
      'Cut the average first response time to customers from 24 hours to 8 hours',
      'Grow monthly active users by 20%',
    ],
  },
  {
    topic: /\b(?:revenue|sales|pipeline|deals?|profit\w*|market|grow\w*|income|bookings)\b/i,
    ideas: [
      'Grow quarterly revenue by 15%',
      'Increase the qualified pipeline from 40 to 60 opportunities',
      'Raise the win rate from 20% to 28%',
    ],
  },
  {
    topic: /\b(?:team|engag\w*|morale|culture|people|hir\w*|retention|wellbeing|collaborat\w*)\b/i,
    ideas: [
      'Raise the team engagement score from 65 to 75',
      'Hold a one-to-one every two weeks with 100% of direct reports',
      'Cut regretted attrition from 4 people to 1',
    ],
  },
  {
    topic: /\b(?:quality|bugs?|defects?|reliab\w*|stab\w*|uptime|incidents?|errors?)\b/i,
    ideas: [
      'Cut production incidents from 8 to 3 a month',
      'Raise automated test coverage from 55% to 75%',
      'Keep uptime at 99.9% or better every month',
    ],
  },
  {
    topic: /\b(?:speed|releases?|cycle|(?:fast|deliver|ship|efficien|process|productiv)\w*)\b/i,
    ideas: [
      'Cut lead time from idea to release from 6 weeks to 3 weeks',
      'Ship 2 releases a month instead of 1',
      'Reduce work in progress from 12 items to 6',
    ],
  },
  {
    topic: /\b(?:skills?|training|career|(?:onboard|learn|develop|coach|mentor|lead)\w*)\b/i,
    ideas: [
      'Complete 2 courses and apply each one on a live project',
      'Cut the time to a first contribution for new joiners from 4 weeks to 2 weeks',
      'Run 6 knowledge-sharing sessions with at least 10 attendees each',
    ],
  },
];

const generalIdeas = [
  'Move the main metric behind this objective 20% up from today’s baseline',
  'Deliver 3 milestones that prove progress, one a month',
  'Reach a score of 8 out of 10 from the people this objective serves',
];

/** A proposal for the key result at `index` that fits the objective and is not taken yet. */
export function suggestKeyResult(answers: Answers, index: number): string {
  const objective = answers.objective ?? '';
  const ideas = [...keyResultIdeas.filter((k) => k.topic.test(objective)).flatMap((k) => k.ideas), ...generalIdeas];
  const taken = new Set(['kr1', 'kr2', 'kr3'].map((key) => clause(answers[key] ?? '').toLowerCase()));
  const fresh = ideas.filter((idea) => !taken.has(idea.toLowerCase()));
  return fresh[0] ?? generalIdeas[index % generalIdeas.length]!;
}

function keyResultStep(index: number): Step {
  const ordinal = ['first', 'second', 'third'][index]!;
  const key = `kr${index + 1}`;
  return {
    key,
    title: `Key result ${index + 1}`,
    ask: (answers) => {
      const idea = suggestKeyResult(answers, index);
      const lead =
        index === 0
          ? `What is the first key result: a number that would show real progress on ${quote(answers.objective ?? 'your objective')}?`
          : index === 1
            ? 'What is a second key result? A different angle helps: quality, speed, adoption or satisfaction.'
            : 'And the third key result?';
      return `${lead} Use “from X to Y” or a target figure. For example: “${idea}”. Write your own, or say “use that”.`;
    },
    example: '“Raise the onboarding satisfaction score from 6 to 8 out of 10.”',
    suggest: (answers) => suggestKeyResult(answers, index),
    check: (answer) =>
      figureIn(answer)
        ? null
        : { mode: 'add', message: `Make the ${ordinal} key result measurable: what is the number? For example “from 40 to 60”, “+15%” or “3 a month”.` },
  };
}

export const okr: Framework = {
  id: 'okr',
  label: 'OKRs',
  title: 'OKRs',
  startPhrase: 'draft my OKRs',
  explanation:
    'OKRs (Objectives and Key Results) pair one inspiring, qualitative **objective** with a few measurable **key results** ' +
    'that show whether you got there. Key results have numbers; the objective does not. At the end of the period each ' +
    'key result is scored from 0.0 to 1.0.',
  intro: (scope) => {
    const company = scope.user?.company?.trim();
    return `Let's draft your OKRs${company ? ` for your work at ${company}` : ''}${byName(scope)}: one objective and three measurable key results.`;
  },
  steps: [
    {
      key: 'objective',
      title: 'Objective',
      ask: () => 'What is your objective? Describe the outcome you want in words, ambitious and inspiring, without numbers yet.',
      example: '“Make onboarding a standout experience for new customers.”',
      check: (answer) =>
        onlyTime(answer)
          ? { mode: 'replace', message: 'That sounds like the period, and we will come to it. First the objective: what outcome do you want, in words? For example “Make onboarding a standout experience for new customers”.' }
          : wordCount(answer) < 3
          ? { mode: 'replace', message: 'Can you put the objective in a short sentence? Say what outcome you want, for example “Make onboarding a standout experience for new customers”.' }
          : null,
    },
    {
      key: 'period',
      title: 'Period',
      ask: () => 'Which period do these OKRs cover? For example “Q3 2026” or “the next quarter”.',
      example: '“Q3 2026”',
      suggest: () => 'this quarter',
      takeFrom: periodIn,
      check: (answer) =>
        timeframeIn(answer) || periodIn(answer) ? null : { mode: 'replace', message: 'Which period exactly? A quarter works best, for example “Q3 2026”.' },
    },
    keyResultStep(0),
    keyResultStep(1),
    keyResultStep(2),
  ],
  finish: (answers, scope) => {
    const period = clause(answers.period ?? '');
    const keyResults = ['kr1', 'kr2', 'kr3'].map((key) => capitalize(clause(answers[key] ?? '')) || '(not answered)');
    const unmeasured = keyResults.map((kr, i) => (figureIn(kr) ? null : i + 1)).filter((n): n is number => n !== null);
    const lines = [
      `Here are your OKRs${period ? ` for ${period}` : ''}${byName(scope)}:`,
      '',
      `**Objective:** ${capitalize(clause(answers.objective ?? '')) || '(not answered)'}`,
      '',
      '**Key results:**',
      ...keyResults.map((kr, i) => `${i + 1}. ${kr}${figureIn(kr) ? '' : ' (add a target number)'}`),
      '',
      unmeasured.length
        ? `Key result ${unmeasured.join(' and ')} still needs a number, so that you can score it.`
        : 'Each key result has a number, so you can score it.',
      `Score each key result from 0.0 to 1.0 at the end of ${period || 'the period'}: 0.7 is a good result for an ambitious OKR. Review progress every week.`,
    ];
    return lines.join('\n');
  },
};
