import { capitalize, clause, listItems, quote, sentence, timeframeIn, wordCount } from '../language.js';
import { byName, yourRole } from '../scope.js';
import { feelingIn, reflect, takeawayQuestion } from '../listen.js';
import type { Framework } from '../types.js';

// GROW as Whitmore teaches it: the goal of this conversation (and how the user will know it
// helped), the end goal; Reality with the user's own part in it; Options with "what else?" until
// the user runs out; Will with the first step and its date, what could get in the way, who can
// support, and commitment on 1 to 10 ("what would make it a 9?"). Ends with the user's summary,
// in their words (the coach's ideas marked as such), and the question of what they take away.
export const grow: Framework = {
  id: 'grow',
  label: 'GROW',
  title: 'a GROW session',
  startPhrase: 'start a GROW session',
  explanation:
    'GROW is a coaching model in four steps: **Goal** (what you want), **Reality** (where things stand today), ' +
    '**Options** (what you could do) and **Will** (what you will do, and by when). It turns a knotty problem into one ' +
    'committed next action.',
  // A request that names a feeling ("I feel stuck in my role") is reflected before the session starts.
  intro: (scope, request) =>
    `${feelingIn(request) ? `${reflect(request)} ` : ''}Let's work through it with the GROW model${byName(scope)}: Goal, Reality, Options and Will. I'll ask one question at a time, and the answers are yours.`,
  steps: [
    {
      // Contracting: what this conversation is for, and how the user will know it helped.
      key: 'session',
      title: 'Goal',
      ask: () => 'First, what would you like to get from this conversation, and how will you know it helped?',
      example: '“A clear first step on my release problem; I’ll know it helped if I leave with something I can do this week.”',
      reflect: (answer) => `${reflect(answer)} That is what we will work towards in this conversation.`,
      check: (answer) =>
        wordCount(answer) < 3
          ? { mode: 'replace', message: 'Could you say a little more? What would make this conversation worth your time?' }
          : null,
    },
    {
      key: 'goal',
      title: 'End goal',
      ask: () => 'And beyond today: what is the end goal you are working towards? Describe the outcome as concretely as you can.',
      example: '“Get my team shipping a release every two weeks instead of once a month.”',
      check: (answer) =>
        wordCount(answer) < 3
          ? { mode: 'replace', message: 'Could you say a little more? One full sentence about the outcome you want works best.' }
          : null,
    },
    {
      key: 'reality',
      title: 'Reality',
      ask: (answers) => `Where do things stand today with ${quote(answers.goal ?? 'your goal')}, and what have you tried so far?`,
      example: '“Releases slip because testing is manual and takes a week; we tried a freeze day but it did not stick.”',
      check: (answer) =>
        wordCount(answer) < 3
          ? { mode: 'add', message: 'Tell me a bit more about the current situation: what has happened so far, and what is in the way?' }
          : null,
    },
    {
      key: 'part',
      title: 'Your part',
      ask: () => 'What’s your part in this: what are you doing, or not doing, that keeps things as they are?',
      example: '“I say yes to every request, so testing time is the first thing to go.”',
    },
    {
      key: 'options',
      title: 'Options',
      ask: (_answers, scope) =>
        `What could you do? List every option you can think of, even ones that seem unrealistic, separated by commas. Think about what you can do in ${yourRole(scope)}, and who could help.`,
      example: '“Automate the smoke tests, ask QA to pair with us, cut the scope of each release.”',
      askFirst:
        'That’s fine: options are often hard to see from inside a situation. If a colleague were in your place, what would you suggest they try? Or, if it would help, I can offer an idea of mine: just say “yes”.',
      suggest: () => coachIdeas,
      gather: (answer, answers) => {
        const items = listItems(answer);
        if (answers['options.coach'] && items.every((item) => coachIdeaItems.includes(item))) {
          return `Here are some ideas of mine, to take or leave: ${items.join('; ')}. Which of them, if any, would you make your own, or what else comes to mind?`;
        }
        return `${items.length === 1 ? 'That is one option' : `That is ${items.length} options so far`}: ${quote(items.at(-1) ?? answer)}. What else could you do? (Say “that’s all” when you run out.)`;
      },
      reflect: (answer, answers) => {
        const items = listItems(answer);
        const theirs = items.filter((item) => !(answers['options.coach'] && coachIdeaItems.includes(item)));
        return theirs.length ? `${theirs.length === 1 ? 'One option' : `${theirs.length} options`} of your own: that is a good spread to choose from.` : 'The only ideas on the table are mine, so choose with care.';
      },
    },
    {
      key: 'will',
      title: 'Will',
      ask: (answers) => {
        const lines = optionLines(answers, '- ');
        const heading = answers['options.coach'] ? 'The options on the table (those marked are the coach’s ideas, not yours until you choose them):' : 'Your options, in your words:';
        const recap = lines.length > 1 ? `${heading}\n${lines.join('\n')}\n\n` : '';
        return `${recap}Which option will you act on, what is your first step, and by when?`;
      },
      example: '“Automate the smoke tests: I will book a session with QA by Friday.”',
      check: (answer) =>
        timeframeIn(answer)
          ? null
          : { mode: 'add', message: 'When exactly will you take that first step? Give it a day or a date, so that it happens.' },
    },
    {
      key: 'obstacles',
      title: 'Obstacles',
      ask: () => 'What could get in the way, and how will you handle it if it does?',
      example: '“The release crunch could swallow the session; I will book it for Monday morning before stand-up.”',
    },
    {
      key: 'support',
      title: 'Support',
      ask: () => 'Who can support you with this, and what will you ask of them?',
      example: '“Priya from QA: I will ask her for one hour to pair on the first tests.”',
    },
    {
      key: 'commitment',
      title: 'Commitment',
      ask: () => 'On a scale of 1 to 10, how committed are you to taking that first step?',
      example: '“8: I want it, but the crunch week worries me.”',
      check: (answer) => {
        const score = commitmentOf(answer);
        if (score === null) return { mode: 'replace', message: 'As a number from 1 to 10: how committed are you to that first step?' };
        if (score < 9 && !answer.includes(' — ')) return { mode: 'add', message: `${score} out of 10. What would make it a 9?` };
        return null;
      },
    },
  ],
  finish: (answers, scope) => {
    const options = listItems(answers.options ?? '');
    const lines = optionLines(answers, '  - ');
    const will = answers.will ? clause(answers.will) : '';
    const score = commitmentOf(answers.commitment ?? '');
    const commitment = answers.commitment ? `${score !== null ? `${score} out of 10` : ''}${answers.commitment.includes(' — ') ? `; what would make it a 9: ${clause(answers.commitment.split(' — ').slice(1).join(' — '))}` : ''}` : '';
    const summary = [
      `Here is your GROW summary${byName(scope)}, in your words:`,
      '',
      `- **This conversation:** ${sentence(answers.session ?? '') || '(not answered)'}`,
      `- **Goal:** ${sentence(answers.goal ?? '') || '(not answered)'}`,
      `- **Reality:** ${sentence(answers.reality ?? '') || '(not answered)'}`,
      `- **Your part:** ${sentence(answers.part ?? '') || '(not answered)'}`,
      `- **Options${answers['options.coach'] ? ' (those marked are the coach’s ideas)' : ''}:**\n${lines.length ? lines.join('\n') : '  - (none named)'}`,
      `- **Will:** ${will ? sentence(will) : '(not answered)'}`,
      `- **What could get in the way:** ${sentence(answers.obstacles ?? '') || '(not answered)'}`,
      `- **Support:** ${sentence(answers.support ?? '') || '(not answered)'}`,
      `- **Commitment:** ${commitment || '(not answered)'}`,
      '',
      `**Next action:** ${will ? `${capitalize(will)}.` : 'Pick one option and give it a date.'}`,
    ];
    if (options.length === 1) summary.push('', 'Only one option was on the table: before you commit, it is worth naming at least one alternative.');
    if (will && !timeframeIn(will)) summary.push('', 'Put a date on that next action, so that it happens.');
    summary.push('', takeawayQuestion);
    return summary.join('\n');
  },
};

const coachIdeas = 'ask someone who has solved this before, shrink the problem to a first small step, change how you spend one hour a week on it';
const coachIdeaItems = listItems(coachIdeas);

/** The options as listed, each of the coach's marked as such. */
function optionLines(answers: Record<string, string>, bullet: string): string[] {
  return listItems(answers.options ?? '').map(
    (o) => `${bullet}${capitalize(o)}${answers['options.coach'] && coachIdeaItems.includes(o) ? ' (the coach’s idea)' : ''}`,
  );
}

/** The first whole number from 1 to 10 in the answer ("8", "a solid 7", "8/10"), or null. */
function commitmentOf(answer: string): number | null {
  const spelled: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10 };
  const match = /\b(10|[1-9]|one|two|three|four|five|six|seven|eight|nine|ten)\b/i.exec(answer);
  if (!match) return null;
  return Number(match[1]) || spelled[match[1]!.toLowerCase()]!;
}
