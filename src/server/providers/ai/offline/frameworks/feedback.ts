import { addressedToThem, capitalize, clause, lowerCommonFirst, lowerFirst, nameIn, onlyTime, sentence, wordCount } from '../language.js';
import { byName } from '../scope.js';
import type { Answers, Framework } from '../types.js';

// Preparing feedback or a hard conversation with Situation–Behaviour–Impact, plus the request
// for what should happen next. Ends with the plan and a draft of how to say it.

// Words that judge a person rather than describe what they did.
const judgements =
  /\b(?:lazy|rude|careless|sloppy|unprofessional|incompetent|arrogant|useless|terrible|awful|bad attitude|attitude|always|never|selfish|aggressive|disrespectful|stupid|hopeless)\b/i;

export const feedback: Framework = {
  id: 'feedback',
  label: 'Feedback prep',
  title: 'feedback or a hard conversation',
  startPhrase: 'prepare feedback',
  explanation:
    'Situation–Behaviour–Impact (SBI) keeps feedback specific and fair: name the **situation** (when and where), the ' +
    '**behaviour** (what the person actually said or did) and its **impact**, then ask for what you would like to happen next.',
  intro: (scope, request) =>
    /\b(?:conversation|talk|discussion)\b/i.test(request)
      ? `Let's prepare that conversation${byName(scope)}. We'll use Situation–Behaviour–Impact, so that it stays specific and fair.`
      : `Let's prepare your feedback${byName(scope)}, using Situation–Behaviour–Impact, so that it is specific and fair.`,
  steps: [
    {
      key: 'person',
      title: 'Who',
      ask: () => 'Who is it for, and what is your working relationship (for example a direct report, a peer or your manager)?',
      example: '“Alex, one of my direct reports.”',
      check: (answer) =>
        onlyTime(answer) ? { mode: 'replace', message: 'That sounds like a time rather than a person. Who is the feedback for?' } : null,
    },
    {
      key: 'situation',
      title: 'Situation',
      ask: () => 'Pick one specific, recent example. When and where did it happen?',
      example: '“In Tuesday’s client call.”',
    },
    {
      key: 'behaviour',
      title: 'Behaviour',
      ask: () => 'What exactly did they say or do? Describe it the way a camera would have recorded it: facts, no labels.',
      example: '“Interrupted the client three times while they were explaining their problem.”',
      check: (answer) => {
        if (onlyTime(answer)) {
          return { mode: 'replace', message: 'That tells me when it happened, which helps. Now the behaviour: what exactly did they say or do at that moment?' };
        }
        const label = answer.match(judgements)?.[0];
        return label
          ? { mode: 'replace', message: `“${label}” is a judgement, and it tends to put people on the defensive. What did you actually see or hear them do?` }
          : null;
      },
    },
    {
      key: 'impact',
      title: 'Impact',
      ask: () => 'What was the impact: on you, the team, the work or the customer?',
      example: '“The client felt unheard and asked for a different contact.”',
      check: (answer) =>
        onlyTime(answer)
          ? { mode: 'replace', message: 'That sounds like a time rather than an impact. What happened as a result, and who was affected?' }
          : wordCount(answer) < 3 ? { mode: 'add', message: 'Say a bit more about the impact: what happened as a result, and who was affected?' } : null,
    },
    {
      key: 'request',
      title: 'Request',
      ask: () => 'What would you like them to do differently from now on?',
      example: '“Let clients finish, then summarise what they said before answering.”',
    },
  ],
  finish: (answers, scope) => {
    const name = nameIn(answers.person ?? '');
    const lines = [
      `Here is your feedback plan${name ? ` for ${name}` : ''}${byName(scope)}:`,
      '',
      `- **Situation:** ${sentence(answers.situation ?? '') || '(not answered)'}`,
      `- **Behaviour:** ${sentence(answers.behaviour ?? '') || '(not answered)'}`,
      `- **Impact:** ${sentence(answers.impact ?? '') || '(not answered)'}`,
      `- **Request:** ${sentence(answers.request ?? '') || '(not answered)'}`,
      '',
      'A way to say it (adapt the words so that they sound like you):',
      '',
      `> ${feedbackScript(answers, name)}`,
      '',
      'Before the conversation:',
      '- Have it soon and in private, and open with why it matters to you.',
      '- After you have said it, pause and listen to their side.',
      '- Agree one next step and a date to check in.',
    ];
    return lines.join('\n');
  },
};

/** The SBI feedback as something to say, addressed to the person. */
export function feedbackScript(answers: Answers, name: string | null): string {
  const situation = clause(answers.situation ?? '');
  // "Alex interrupted..." said to Alex becomes "you interrupted...".
  let behaviour = clause(addressedToThem(answers.behaviour ?? '', name));
  const impact = clause(answers.impact ?? '');
  const request = clause(addressedToThem(answers.request ?? '', name));
  if (behaviour && !/^(?:you|i|we)\b/i.test(behaviour)) behaviour = `you ${lowerFirst(behaviour)}`;

  // One question only, at the end: the script asks for their view, not for permission and their view.
  const parts = [`${name ? `${name}, I'd` : "I'd"} like a few minutes to share some feedback.`];
  if (situation && behaviour) {
    parts.push(
      /^(?:in|on|at|during|yesterday|today|last|this|earlier|when|while|after|before)\b/i.test(situation)
        ? `${capitalize(situation)}, ${lowerFirst(behaviour)}.`
        : `I'm thinking of ${lowerCommonFirst(situation)}: ${lowerFirst(behaviour)}.`,
    );
  } else if (behaviour) {
    parts.push(`${capitalize(behaviour)}.`);
  }
  if (impact) {
    parts.push(
      /^(?:it|the|we|i|they|our|my|this|that|there|a|an|customers?|clients?|people|everyone|nobody)\b/i.test(impact)
        ? `The impact was that ${lowerCommonFirst(impact)}.`
        : `The impact: ${lowerCommonFirst(impact)}.`,
    );
  }
  if (request) parts.push(`Going forward, ${lowerFirst(request)}.`);
  parts.push('How do you see it?');
  return parts.join(' ');
}
