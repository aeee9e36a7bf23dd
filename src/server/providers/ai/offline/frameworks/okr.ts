import { capitalize, clause, figureIn, onlyTime, periodIn, quote, timeframeIn, wordCount } from '../language.js';
import { byName } from '../scope.js';
import { committedQuestion, hasBaseline, isActivity } from '../listen.js';
import type { Answers, Framework, Step } from '../types.js';

// OKRs (Doerr): one qualitative objective, the period, then three key results, each an outcome
// with a baseline; an activity is met with "what result would that produce?". When the user has
// no key result in mind, the coach offers one, kept marked as the coach's suggestion until the
// user makes it their own. Ends by asking whether the OKRs are committed or aspirational.

// Key results that fit common kinds of objective, picked by words in the objective.
// Outcomes, each with a baseline ("from X to Y"), never activities: the user replaces the figures
// with their own.
const keyResultIdeas: Array<{ topic: RegExp; ideas: string[] }> = [
  {
    topic: /\b(?:customers?|clients?|users?|satisf\w*|nps|support|service|experience)\b/i,
    ideas: [
      'Raise customer satisfaction (CSAT) from 80% to 90%',
      'Cut the average first response time to customers from 24 hours to 8 hours',
      'Grow weekly active users from 2000 to 2400',
    ],
  },
  {
    topic: /\b(?:revenue|sales|pipeline|deals?|profit\w*|market|grow\w*|income|bookings)\b/i,
    ideas: [
      'Grow quarterly revenue from 1.0 to 1.15 million',
      'Increase the qualified pipeline from 40 to 60 opportunities',
      'Raise the win rate from 20% to 28%',
    ],
  },
  {
    topic: /\b(?:team|engag\w*|morale|culture|people|hir\w*|retention|wellbeing|collaborat\w*)\b/i,
    ideas: [
      'Raise the team engagement score from 65 to 75',
      'Raise the share of direct reports who say their one-to-ones help them from 50% to 80%',
      'Cut regretted attrition from 4 people to 1',
    ],
  },
  {
    topic: /\b(?:quality|bugs?|defects?|reliab\w*|stab\w*|uptime|incidents?|errors?)\b/i,
    ideas: [
      'Cut production incidents from 8 to 3 a month',
      'Raise automated test coverage from 55% to 75%',
      'Raise monthly uptime from 99.5% to 99.9%',
    ],
  },
  {
    topic: /\b(?:speed|releases?|cycle|(?:fast|deliver|ship|efficien|process|productiv)\w*)\b/i,
    ideas: [
      'Cut lead time from idea to release from 6 weeks to 3 weeks',
      'Raise releases from 1 to 2 a month with no rise in incidents',
      'Reduce work in progress from 12 items to 6',
    ],
  },
  {
    topic: /\b(?:skills?|training|career|(?:onboard|learn|develop|coach|mentor|lead)\w*)\b/i,
    ideas: [
      'Raise the share of the team rated proficient in the new stack from 30% to 70%',
      'Cut the time to a first contribution for new joiners from 4 weeks to 2 weeks',
      'Raise the internal fill rate for senior roles from 20% to 50%',
    ],
  },
];

const generalIdeas = [
  'Move the main metric behind this objective from today’s baseline to 20% above it',
  'Raise the satisfaction of the people this objective serves from 6 to 8 out of 10',
  'Cut the time the main process takes from today’s baseline by a third',
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
      return `${lead} A key result is an outcome with a baseline: “from X to Y”. Write your own; if you would like an idea of mine, here is one: “${idea}” (say “use that” to pencil it in).`;
    },
    example: '“Raise the onboarding satisfaction score from 6 to 8 out of 10.”',
    suggest: (answers) => suggestKeyResult(answers, index),
    check: (answer) =>
      isActivity(answer) && !answer.includes(' — ')
        ? { mode: 'replace', message: `${quote(answer)} sounds like an activity: what result would that produce? A key result says what changes, for example “raise week-1 activation from 40% to 60%”.` }
        : !figureIn(answer)
          ? { mode: 'add', message: `Make the ${ordinal} key result measurable: what is the number? For example “from 40 to 60”, “+15%” or “3 a month”.` }
          : !hasBaseline(answer)
            ? { mode: 'add', message: `Where is it today? A key result needs a baseline to score it against: say “from X to Y”.` }
            : null,
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
    const keys = ['kr1', 'kr2', 'kr3'];
    const keyResults = keys.map((key) => capitalize(clause(answers[key] ?? '')) || '(not answered)');
    const byCoach = keys.map((key, i) => (answers[`${key}.coach`] ? i + 1 : null)).filter((n): n is number => n !== null);
    const unmeasured = keyResults.map((kr, i) => (figureIn(kr) ? null : i + 1)).filter((n): n is number => n !== null);
    const numbers = (list: number[]) => (list.length > 1 ? `${list.slice(0, -1).join(', ')} and ${list.at(-1)}` : String(list[0]));
    const lines = [
      // A draft the coach helped write is never called "your OKRs": its suggestions are marked.
      byCoach.length ? `Here is an OKR draft${period ? ` for ${period}` : ''}${byName(scope)}:` : `Here are your OKRs${period ? ` for ${period}` : ''}${byName(scope)}:`,
      '',
      `**Objective:** ${capitalize(clause(answers.objective ?? '')) || '(not answered)'}`,
      '',
      // The user's own key results stand as they said them; the coach's are marked on their line.
      '**Your key results:**',
      ...keyResults.map((kr, i) => `${i + 1}. ${kr}${figureIn(kr) ? '' : ' (add a target number)'}${byCoach.includes(i + 1) ? " (the coach's suggestion)" : ''}`),
      '',
      ...(byCoach.length
        ? [
            `${answers.objective?.trim() ? 'The objective is yours; k' : 'The objective is still open, and k'}ey result${byCoach.length > 1 ? 's' : ''} ${numbers(byCoach)} ${byCoach.length > 1 ? 'are' : 'is'} the coach's suggestion${byCoach.length > 1 ? 's' : ''}. Make ${byCoach.length > 1 ? 'them' : 'it'} your own: put in your real baseline and the target you believe in.`,
          ]
        : []),
      unmeasured.length
        ? `Key result ${unmeasured.join(' and ')} still needs a number, so that you can score it.`
        : 'Each key result has a number, so you can score it.',
      `Score each key result from 0.0 to 1.0 at the end of ${period || 'the period'}, and review progress every week.`,
      '',
      committedQuestion,
    ];
    return lines.join('\n');
  },
};
