import { firstNameOf } from '../../providers/ai/offline/language.js';
import type { Audience, WritingStyle } from '../../../shared/schemas/writingStyle.js';
import type { CoachUser } from '../../providers/ai/contract.js';
import { trimEndChars } from '../../../shared/trimText.js';

// Without a model, the email is composed from the profile: the user's greeting, a body built
// from the topic and the audience in the profile's structure and length, and their sign-off.

type StyleForWriting = Pick<WritingStyle, 'greeting' | 'signOff' | 'structure' | 'length' | 'tone' | 'commonPhrases'>;


function sentenceCase(text: string): string {
  const trimmed = trimEndChars(text.trim(), '.!?');
  return trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
}

function topicPhrase(topic: string): string {
  const trimmed = trimEndChars(topic.trim(), '.!?');
  // "Moving the review to Thursday" reads as the topic itself; lower-case its first word.
  return /^[A-Z][a-z]/.test(trimmed) ? trimmed.charAt(0).toLowerCase() + trimmed.slice(1) : trimmed;
}

function greetingFor(style: StyleForWriting, audience: Audience): string {
  const greeting = style.greeting ?? (audience === 'external' ? 'Dear [Name],' : 'Hi [Name],');
  // An internal group greeting ("Hi team,") does not fit one outside reader.
  if (audience === 'external' && /\b(?:team|all|everyone|folks|guys)\b/i.test(greeting)) return greeting.replace(/\b(?:team|all|everyone|folks|guys)\b/i, '[Name]');
  return greeting;
}

export function writeOffline(style: StyleForWriting, input: { topic: string; audience: Audience }, user: CoachUser): string {
  const topic = topicPhrase(input.topic);
  const formal = /\bformal\b/i.test(style.tone ?? '') || input.audience === 'external';
  const bullets = /^Bullet points/i.test(style.structure ?? '');
  const terse = /^(?:Very short|One-liners)/i.test(style.length ?? '') || /^One-liners/i.test(style.structure ?? '');
  const asks = /\blet me know\b/i.test(style.commonPhrases.join(' '));

  const opening = formal ? `I am writing regarding ${topic}.` : `Quick note about ${topic}.`;
  const closing = asks
    ? 'Let me know if you have any questions.'
    : formal
      ? 'Please let me know if you have any questions.'
      : 'Happy to talk it through if that helps.';

  let body: string[];
  if (terse) {
    body = [`${sentenceCase(topic)}. ${asks ? 'Let me know.' : 'Thoughts?'}`];
  } else if (bullets) {
    body = [
      opening,
      '',
      '- Where things stand: [current status]',
      '- What happens next: [next step and date]',
      `- What I need from ${input.audience === 'internal' ? 'you' : 'your side'}: [request]`,
      '',
      closing,
    ];
  } else {
    const detail =
      input.audience === 'internal'
        ? 'Here is where things stand and what I need from the team: [details].'
        : 'Please find the relevant details below: [details].';
    body = [opening, '', detail, '', closing];
  }

  const signOff = style.signOff ?? (formal ? 'Kind regards,' : 'Best,');
  return [`Subject: ${sentenceCase(topic)}`, '', ...(terse && !style.greeting ? [] : [greetingFor(style, input.audience), '']), ...body, '', signOff, firstNameOf(user.fullName) ?? ''].join('\n');
}
