import { capitalize, clause, lengthPhrase, listItems, lowerCommonFirst, minutesIn, onlyTime, wordCount } from '../language.js';
import { byName } from '../scope.js';
import type { Framework } from '../types.js';

// Meeting plans. The chat page shows agenda buttons under any reply containing the word
// "agenda" (the product spec's screens), so only the finished result uses that word; the questions and the
// step markers say "meeting plan". The result is a numbered list, at most seven lines (the page
// indents lines "1." to "7.").

const maxLines = 7;

export const agenda: Framework = {
  id: 'agenda',
  label: 'Meeting plan',
  title: 'a meeting plan',
  startPhrase: 'plan a meeting',
  explanation:
    'A good meeting plan states the outcome you need, gives each topic a time box with the most important first, and ' +
    'ends with decisions, owners and dates.',
  intro: (scope) => `Let's plan your meeting${byName(scope)}. Four quick questions and you will have a timed running order.`,
  steps: [
    {
      key: 'purpose',
      title: 'Purpose',
      ask: () => 'What is the meeting for, and what outcome do you need by the end of it?',
      example: '“Quarterly planning with my team: agree the top three priorities.”',
      check: (answer) =>
        onlyTime(answer)
          ? { mode: 'replace', message: 'Thanks, that tells me when or how long. What is the meeting for: what outcome do you need by the end of it?' }
          : wordCount(answer) < 2
            ? { mode: 'replace', message: 'What should the meeting achieve? One sentence about the outcome you need is enough.' }
            : null,
    },
    {
      key: 'duration',
      title: 'Length',
      ask: () => 'How long is the meeting? For example “30 minutes” or “1 hour”.',
      example: '“45 minutes”',
      suggest: () => '30 minutes',
      takeFrom: (earlier) => {
        const minutes = minutesIn(earlier);
        return minutes ? lengthPhrase(minutes) : null;
      },
      check: (answer) =>
        minutesIn(answer) ? null : { mode: 'replace', message: 'How many minutes is that? For example “45 minutes” or “1 hour”.' },
    },
    {
      key: 'attendees',
      title: 'Attendees',
      ask: () => 'Who is attending? Names or roles are fine.',
      example: '“My four direct reports and Sam from Finance.”',
      check: (answer) =>
        onlyTime(answer) ? { mode: 'replace', message: 'That sounds like a time rather than people. Who is attending? Names or roles are fine.' } : null,
    },
    {
      key: 'topics',
      title: 'Topics',
      ask: () => 'Which topics must it cover? List them separated by commas or on separate lines, most important first.',
      example: '“Last quarter’s results, hiring plan, budget, team offsite.”',
      check: (answer) =>
        onlyTime(answer)
          ? { mode: 'replace', message: 'That sounds like a time rather than a topic. Which topics must the meeting cover? List them separated by commas.' }
          : listItems(answer).length ? null : { mode: 'replace', message: 'Which topics? List them separated by commas, most important first.' },
    },
  ],
  finish: (answers, scope) => {
    const minutes = minutesIn(answers.duration ?? '') ?? 30;
    const plan = timedAgenda(listItems(answers.topics ?? ''), minutes);
    const attendees = lowerCommonFirst(clause(answers.attendees ?? ''));
    const purpose = clause(answers.purpose ?? '');
    return [
      `Here is your meeting agenda${byName(scope)}: **${capitalize(purpose) || 'Meeting'}** (${minutes} minutes${attendees ? `, with ${attendees}` : ''}).`,
      '',
      ...plan.map((item, i) => `${i + 1}. ${item.title} (${item.minutes} min)`),
      '',
      `Send the agenda${attendees ? ` to ${attendees}` : ''} before the meeting so that everyone comes prepared, and note the owner and date of each decision.`,
    ].join('\n');
  },
};

/**
 * Time boxes for the topics, most important first: a short opening, the topics, and a closing
 * for decisions and next steps. Extra topics beyond what fits in seven lines are merged.
 */
export function timedAgenda(topics: string[], totalMinutes: number): Array<{ title: string; minutes: number }> {
  const withOpening = totalMinutes >= 15;
  const opening = withOpening ? Math.min(5, Math.max(2, Math.round(totalMinutes * 0.07))) : 0;
  const closing = Math.min(10, Math.max(2, Math.round(totalMinutes * 0.12)));
  const room = maxLines - 1 - (withOpening ? 1 : 0);
  const items = (topics.length ? topics : ['Main discussion']).map((t) => capitalize(t));
  const fitted = items.length > room ? [...items.slice(0, room - 1), `Other topics: ${items.slice(room - 1).join(', ')}`] : items;

  const forTopics = Math.max(fitted.length, totalMinutes - opening - closing);
  const base = Math.floor(forTopics / fitted.length);
  const extra = forTopics - base * fitted.length;
  const topicItems = fitted.map((title, i) => ({ title, minutes: base + (i < extra ? 1 : 0) }));

  return [
    ...(withOpening ? [{ title: 'Welcome and the outcome we need today', minutes: opening }] : []),
    ...topicItems,
    { title: 'Decisions, owners and next steps', minutes: closing },
  ];
}
