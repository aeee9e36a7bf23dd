import { addressedToThem, capitalize, clause, lowerCommonFirst, nameIn, sentence } from '../language.js';
import { byName } from '../scope.js';
import type { Answers, CoachScope, Framework } from '../types.js';
import { dropLastWord } from '../../../../../shared/trimText.js';

// Drafting an email: recipient, purpose, details and one of the knowledge base's tones
// (Formal, Friendly, Assertive, Humble; the product spec's entities). Ends with a complete draft.

export type EmailTone = 'Formal' | 'Friendly' | 'Assertive' | 'Humble';

const toneWords: Array<[EmailTone, RegExp]> = [
  ['Formal', /\b(?:formal|professional|polished|official|neutral)\b/i],
  ['Friendly', /\b(?:friendly|casual|warm|informal|relaxed|light)\b/i],
  ['Assertive', /\b(?:assertive|direct|firm|confident|clear|strong|urgent)\b/i],
  ['Humble', /\b(?:humble|polite|apologetic|soft|gentle|modest|grateful)\b/i],
];

export function toneOf(text: string): EmailTone | null {
  return toneWords.find(([, pattern]) => pattern.test(text))?.[0] ?? null;
}

const toneStyle: Record<EmailTone, { greeting: string; opening: string; closing: string; signOff: string }> = {
  Formal: {
    greeting: 'Dear',
    opening: 'I hope this message finds you well.',
    closing: 'Please let me know if you have any questions.',
    signOff: 'Kind regards',
  },
  Friendly: { greeting: 'Hi', opening: 'Hope you are doing well!', closing: 'Let me know what you think!', signOff: 'Best' },
  Assertive: { greeting: 'Hello', opening: '', closing: 'Please confirm by replying to this email.', signOff: 'Thanks' },
  Humble: {
    greeting: 'Hi',
    opening: 'I hope you are well, and thank you for taking a moment to read this.',
    closing: 'I would be grateful for your thoughts whenever you have a moment.',
    signOff: 'Many thanks',
  },
};

export const email: Framework = {
  id: 'email',
  label: 'Email draft',
  title: 'an email',
  startPhrase: 'help me write an email',
  explanation:
    'A good work email makes its point in the first lines: who it is for, the one thing you want them to know or do, ' +
    'the details they need, and a tone that fits the relationship.',
  intro: (scope) => `Let's write that email${byName(scope)}. Four questions and you will have a draft.`,
  steps: [
    {
      key: 'recipient',
      title: 'Recipient',
      ask: () => 'Who is it to, and what is your relationship with them?',
      example: '“Priya, my manager.”',
    },
    {
      key: 'purpose',
      title: 'Purpose',
      ask: () => 'What is the one thing you want them to know or do after reading it?',
      example: '“I want them to approve the budget for the team offsite.”',
    },
    {
      key: 'details',
      title: 'Details',
      ask: () => 'Which details should it include: context, dates, numbers, links? Say “none” if there are none.',
      example: '“The offsite is on 12 June, costs 4,000 euros, and needs approval by Friday.”',
    },
    {
      key: 'tone',
      title: 'Tone',
      ask: () => 'Which tone fits best: Formal, Friendly, Assertive or Humble?',
      example: '“Friendly”',
      suggest: () => 'Friendly',
      check: (answer) =>
        toneOf(answer) ? null : { mode: 'replace', message: 'Pick one of the four: Formal, Friendly, Assertive or Humble.' },
    },
  ],
  finish: (answers, scope) => {
    const tone = toneOf(answers.tone ?? '') ?? 'Friendly';
    return [`Here is a draft in a ${tone.toLowerCase()} tone${byName(scope)}:`, '', draftEmail(answers, scope, tone), '', 'Read it aloud once before sending, and change anything that does not sound like you. Tell me what to adjust and we can go again.'].join('\n');
  },
};

/** The draft itself: subject line, greeting, body and sign-off, in the chosen tone. */
export function draftEmail(answers: Answers, scope: CoachScope, tone: EmailTone): string {
  const style = toneStyle[tone];
  const name = nameIn(answers.recipient ?? '');
  const purpose = askInTone(clause(addressedToThem(answers.purpose ?? '', name)), tone);
  const details = clause(answers.details ?? '');
  const hasDetails = details.length > 0 && !/^(?:none|no|nothing|n\/a|na|-)$/i.test(details);
  const signature = [scope.firstName, scope.user?.jobTitle, scope.user?.company].filter(Boolean);

  const body = [
    `**Subject:** ${subjectFrom(answers.purpose ?? '')}`,
    '',
    greetingLine(scope, name, style.greeting, tone),
    '',
    ...(style.opening ? [style.opening, ''] : []),
    purpose ? (purpose.endsWith('?') ? capitalize(purpose) : sentence(purpose)) : '',
    ...(hasDetails ? ['', `A few details: ${lowerCommonFirst(details)}.`] : []),
    '',
    style.closing,
    '',
    signOffLine(scope, style.signOff),
    ...(signature.length ? [signature.join(', ')] : []),
  ];
  return body.join('\n');
}

// The user's own greeting and sign-off (from their writing style profile) win over the tone's.
function greetingLine(scope: CoachScope, name: string | null, toneGreeting: string, tone: EmailTone): string {
  const own = scope.writingStyle?.greeting;
  if (own) return own.replace('[Name]', name ?? 'there');
  return name ? `${toneGreeting} ${name},` : tone === 'Formal' ? 'Hello,' : 'Hi,';
}

function signOffLine(scope: CoachScope, toneSignOff: string): string {
  return scope.writingStyle?.signOff ?? `${toneSignOff},`;
}

/** "I want you to approve X" as a request in the chosen tone ("Could you please approve X?"). */
function askInTone(purpose: string, tone: EmailTone): string {
  const match = purpose.match(/^(?:i|we)\s+(?:want|need|would like|'d like|’d like)\s+you\s+to\s+(\S.*)$/i);
  if (!match) return purpose;
  const action = match[1]!;
  if (tone === 'Assertive') return `Please ${action}`;
  if (tone === 'Friendly') return `Could you ${action}?`;
  return `Could you please ${action}?`;
}

/** A subject line from the purpose: "I want them to approve the budget" → "Approve the budget". */
export function subjectFrom(purpose: string): string {
  let subject = clause(purpose)
    .replace(/^(?:i|we)\s+(?:want|need|would like|'d like|’d like|hope)\s+(?:them|him|her|you)\s+to\s+/i, '')
    .replace(/^(?:i|we)\s+(?:want|need|would like|'d like|’d like)\s+to\s+/i, '')
    .replace(/^(?:to\s+)?(?:let|make)\s+(?:them|him|her|you)\s+know\s+(?:that\s+)?/i, '')
    .replace(/^(?:that|to)\s+/i, '');
  if (subject.length > 60) subject = `${dropLastWord(subject.slice(0, 60))}...`;
  return capitalize(subject) || 'A quick note';
}
