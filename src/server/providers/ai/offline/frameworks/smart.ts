import { capitalize, clause, defersToCoach, figureIn, lowerCommonFirst, lowerFirst, quote, timeframeIn, wordCount } from '../language.js';
import { byName, yourRole } from '../scope.js';
import { isActivity, takeawayQuestion } from '../listen.js';
import type { Answers, Framework } from '../types.js';

// SMART: five questions, then the goal is checked against each criterion with a verdict and
// the reason for it, taken from the user's own answers.
export const smart: Framework = {
  id: 'smart',
  label: 'SMART goal',
  title: 'a SMART goal',
  startPhrase: 'set a SMART goal',
  explanation:
    'A SMART goal is **Specific** (clear about what changes), **Measurable** (has a number you can track), ' +
    '**Achievable** (realistic with the means you have), **Relevant** (matters for your role and priorities) and ' +
    '**Time-bound** (has a deadline).',
  intro: (scope) =>
    `Let's shape a SMART goal${byName(scope)}: Specific, Measurable, Achievable, Relevant and Time-bound. Five short questions, then I'll check your goal against each criterion.`,
  steps: [
    {
      key: 'goal',
      title: 'Specific',
      ask: () => 'What do you want to achieve? Say what exactly will be different, and for whom.',
      example: '“Cut the time it takes a new engineer on my team to ship their first change.”',
      check: (answer) =>
        wordCount(answer) < 4
          ? { mode: 'replace', message: 'Can you make that more specific? Say what exactly will change, and for whom, in one sentence.' }
          : null,
    },
    {
      key: 'measure',
      title: 'Measurable',
      ask: (answers) =>
        `How will you measure progress on ${quote(answers.goal ?? 'your goal')}? Name a number, a percentage or a count you can track.`,
      example: '“From 6 weeks to 3 weeks”, “an NPS from 25 to 40”, or “a first-call resolution rate from 60% to 75%”.',
      check: (answer, answers) =>
        isActivity(answer)
          ? { mode: 'replace', message: `${quote(answer)} sounds like an activity: what result would that produce? Name the change you could measure, for example “from 6 to 3 weeks”.` }
          : figureIn(answer) || figureIn(answers.goal ?? '', { ignoreDurations: true })
          ? null
          : { mode: 'add', message: 'What is the number? A measure needs a figure: a target, a percentage or a count (for example “from 6 to 3 weeks”).' },
    },
    {
      key: 'achievable',
      title: 'Achievable',
      ask: (_answers, scope) =>
        `What makes this achievable in ${yourRole(scope)}? Name the time, skills, budget or support you can draw on, and the biggest obstacle.`,
      example: '“I can spend two hours a week on it and my manager supports it; the risk is the hiring freeze.”',
      check: (answer) =>
        wordCount(answer) < 3
          ? { mode: 'add', message: 'Say a little more: what time, skills or support will you draw on?' }
          : null,
    },
    {
      key: 'relevant',
      title: 'Relevant',
      ask: (_answers, scope) => {
        const company = scope.user?.company?.trim();
        const job = scope.user?.jobTitle?.trim();
        const link = company ? `${company}'s priorities or your role${job ? ` as ${job}` : ''}` : yourRole(scope);
        return `Why does this goal matter now, and how does it connect to ${link}?`;
      },
      example: '“Faster onboarding lets the team take on the new product line this year.”',
    },
    {
      key: 'deadline',
      title: 'Time-bound',
      ask: () => 'By when will you achieve it? Name a date, a month or a quarter.',
      example: '“By 30 June”, “by the end of Q3”, or “within 8 weeks”.',
      suggest: () => 'by the end of next quarter',
      check: (answer) =>
        timeframeIn(answer)
          ? null
          : { mode: 'replace', message: 'When exactly? Name a date, a month or a quarter, for example “by the end of Q3”.' },
    },
  ],
  finish: (answers, scope) => {
    const verdicts = checkSmartGoal(answers);
    const met = verdicts.filter((v) => v.met).length;
    const lines = [
      `Here is your SMART goal${byName(scope)}:`,
      '',
      `> **${smartGoalStatement(answers)}**`,
      '',
      'How it checks out:',
      ...verdicts.map((v) => `- ${v.met ? '✓' : '✗'} **${v.criterion}**: ${v.reason}`),
      '',
      met === verdicts.length
        ? 'All five criteria are met. Write it down where you will see it, and share it with someone who will hold you to it.'
        : `${met} of 5 criteria are met. Tighten the ones marked ✗ and it is ready; tell me your changes and I'll check it again.`,
      // The close asks what the user takes away, once there is nothing left to fix.
      ...(met === verdicts.length ? ['', takeawayQuestion] : []),
    ];
    return lines.join('\n');
  },
};

/** One sentence from the answers: "Cut onboarding time (from 6 to 3 weeks) by the end of Q3." */
export function smartGoalStatement(answers: Answers): string {
  const goal = capitalize(clause(answers.goal ?? 'My goal'));
  const measure = clause(answers.measure ?? '');
  const deadline = clause(answers.deadline ?? '');
  const measured = measure && !goal.toLowerCase().includes(measure.toLowerCase()) ? ` (${lowerFirst(measure)})` : '';
  const when = deadline && !goal.toLowerCase().includes(deadline.toLowerCase()) ? ` ${deadlinePhrase(deadline)}` : '';
  return `${goal}${measured}${when}.`;
}

function deadlinePhrase(deadline: string): string {
  const phrase = lowerCommonFirst(deadline);
  return /^(?:by|before|until|in|within|on|at|no later than|during|over|this|next|end of|the end)\b/i.test(phrase) ? phrase : `by ${phrase}`;
}

export type SmartVerdict = { criterion: 'Specific' | 'Measurable' | 'Achievable' | 'Relevant' | 'Time-bound'; met: boolean; reason: string };

/** The five checks, each with the reason taken from the answers. */
export function checkSmartGoal(answers: Answers): SmartVerdict[] {
  const goal = clause(answers.goal ?? '');
  const measure = clause(answers.measure ?? '');
  const achievable = clause(answers.achievable ?? '');
  const relevant = clause(answers.relevant ?? '');
  const deadline = clause(answers.deadline ?? '');
  const given = (text: string) => text.length > 0 && !defersToCoach(text);

  const figure = figureIn(measure) ?? figureIn(goal, { ignoreDurations: true });
  const bigPercent = [...`${goal} ${measure}`.matchAll(/(\d{1,15}(?:\.\d{1,15})?)[ \t]{0,3}(?:%|percent)/gi)].some((m) => Number(m[1]) > 100);
  const timeframe = timeframeIn(deadline) ?? timeframeIn(goal);

  return [
    wordCount(goal) >= 5
      ? { criterion: 'Specific', met: true, reason: `it says what will change: ${quote(goal)}.` }
      : { criterion: 'Specific', met: false, reason: goal ? `${quote(goal)} is still broad: say exactly what changes, and for whom.` : 'there is no goal statement yet.' },
    figure
      ? { criterion: 'Measurable', met: true, reason: `it has a figure to track: “${figure}”.` }
      : { criterion: 'Measurable', met: false, reason: 'there is no number, percentage or count to track yet.' },
    !given(achievable) || wordCount(achievable) < 3
      ? { criterion: 'Achievable', met: false, reason: 'you have not named the time, skills or support that make it doable.' }
      : bigPercent
        ? { criterion: 'Achievable', met: false, reason: `a change of more than 100% is a big stretch: check it against what you can draw on (${quote(achievable)}).` }
        : { criterion: 'Achievable', met: true, reason: `you named what you will draw on: ${quote(achievable)}.` },
    given(relevant) && wordCount(relevant) >= 3
      ? { criterion: 'Relevant', met: true, reason: `it matters because ${lowerCommonFirst(withoutReasonLead(relevant))}.` }
      : { criterion: 'Relevant', met: false, reason: 'the link to your role or your priorities is missing.' },
    timeframe && answers['deadline.coach']
      ? { criterion: 'Time-bound', met: true, reason: `it has a deadline: ${quote(deadline)}, the coach's placeholder: choose your own date.` }
      : timeframe
      ? { criterion: 'Time-bound', met: true, reason: `it has a deadline: ${quote(deadline || goal)}.` }
      : { criterion: 'Time-bound', met: false, reason: 'there is no date, month or quarter to finish by.' },
  ];
}

// "It matters because X" / "Because X" answers already say "because": keep only X.
function withoutReasonLead(answer: string): string {
  return answer.trim().replace(/^(it (matters|is important)|this (matters|is important))?\s*(because|since)\s+/i, '');
}
