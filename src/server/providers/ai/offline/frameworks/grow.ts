import { capitalize, clause, listItems, quote, sentence, timeframeIn, wordCount } from '../language.js';
import { byName, yourRole } from '../scope.js';
import type { Framework } from '../types.js';

// GROW: Goal, Reality, Options, Will. Ends with a summary and one dated next action.
export const grow: Framework = {
  id: 'grow',
  label: 'GROW',
  title: 'a GROW session',
  startPhrase: 'start a GROW session',
  explanation:
    'GROW is a coaching model in four steps: **Goal** (what you want), **Reality** (where things stand today), ' +
    '**Options** (what you could do) and **Will** (what you will do, and by when). It turns a knotty problem into one ' +
    'committed next action.',
  intro: (scope) =>
    `Let's work through it with the GROW model${byName(scope)}: Goal, Reality, Options and Will. I'll ask one question at a time.`,
  steps: [
    {
      key: 'goal',
      title: 'Goal',
      ask: () => 'What do you want to achieve? Describe the outcome you are after as concretely as you can.',
      example: '“Get my team shipping a release every two weeks instead of once a month.”',
      check: (answer) =>
        wordCount(answer) < 3
          ? { mode: 'replace', message: 'Could you say a little more? One full sentence about the outcome you want works best.' }
          : null,
    },
    {
      key: 'reality',
      title: 'Reality',
      ask: (answers) =>
        `Where do things stand today with ${quote(answers.goal ?? 'your goal')}? What have you tried so far, and what is getting in the way?`,
      example: '“Releases slip because testing is manual and takes a week; we tried a freeze day but it did not stick.”',
      check: (answer) =>
        wordCount(answer) < 3
          ? { mode: 'add', message: 'Tell me a bit more about the current situation: what has happened so far, and what is in the way?' }
          : null,
    },
    {
      key: 'options',
      title: 'Options',
      ask: (_answers, scope) =>
        `What options do you have? List as many as you can, separated by commas, even ones that seem unrealistic. Think about what you can do in ${yourRole(scope)}, and who could help.`,
      example: '“Automate the smoke tests, ask QA to pair with us, cut the scope of each release.”',
      suggest: () =>
        'ask someone who has solved this before, shrink the problem to a first small step, change how I spend one hour a week on it',
    },
    {
      key: 'will',
      title: 'Will',
      ask: (answers) => {
        const options = listItems(answers.options ?? '');
        const recap = options.length > 1 ? `\n\nYour options:\n${options.map((o) => `- ${capitalize(o)}`).join('\n')}\n\n` : ' ';
        return `${options.length > 1 ? 'Good list.' : 'Good.'}${recap}Which option will you commit to, what is your first step, and by when?`;
      },
      example: '“Automate the smoke tests: I will book a session with QA by Friday.”',
      check: (answer) =>
        timeframeIn(answer)
          ? null
          : { mode: 'add', message: 'When exactly will you take that first step? Give it a day or a date, so that it happens.' },
    },
  ],
  finish: (answers, scope) => {
    const options = listItems(answers.options ?? '');
    const optionLines = options.length ? options.map((o) => `  - ${capitalize(o)}`).join('\n') : '  - (none named)';
    const will = answers.will ? clause(answers.will) : '';
    const lines = [
      `Here is your GROW summary${byName(scope)}:`,
      '',
      `- **Goal:** ${sentence(answers.goal ?? '') || '(not answered)'}`,
      `- **Reality:** ${sentence(answers.reality ?? '') || '(not answered)'}`,
      `- **Options:**\n${optionLines}`,
      `- **Will:** ${will ? sentence(will) : '(not answered)'}`,
      '',
      `**Next action:** ${will ? `${capitalize(will)}.` : 'Pick one option and give it a date.'}`,
    ];
    if (options.length === 1) lines.push('', 'Only one option was on the table: before you commit, it is worth naming at least one alternative.');
    if (will && !timeframeIn(will)) lines.push('', 'Put a date on that next action, so that it happens.');
    lines.push('', 'Put the next action in your calendar now. When it is done, come back and we can review how it went.');
    return lines.join('\n');
  },
};
