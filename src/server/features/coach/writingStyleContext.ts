import type { WritingStyle } from '../../../shared/schemas/writingStyle.js';
import type { ChatTurn } from '../../providers/ai/types.js';
import { describeStyleForModel } from '../writingStyle/generateEmail.js';
import type { CoachContextInput } from './coachContext.js';

// When the user asks the coach to draft a mail, the coach writes it in their style (SPEC
// section 2, Writing Style Analysis, 'How It's Used'): the profile goes into the context.

export type CoachWritingStyle = Pick<WritingStyle, 'tone' | 'greeting' | 'signOff' | 'commonPhrases' | 'structure' | 'length'>;

export const writingStyleHeader = "The user's own writing style, learned from their sent email";

// "write/draft/compose ... email/mail/message/reply", "reply to ...", or 'generate' with 'email'.
// A verb, then an object word starting at most `gap` characters later in the same sentence. Read
// as a verb found, then a short window after it: one pattern `verb[^.?!]{0,80}object` was
// polynomial (issue 22, recheck), this looks at each character a bounded number of times.
const draftVerb = /\b(?:write|draft|compose|rewrite|prepare|help me (?:with|write))\b/gi;
const draftObject = /\b(?:e-?mails?|mails?|message|reply|note)\b/i;
const templateNoun = /\b(?:e-?mail|message)\b/gi;
const templateWord = /\b(?:draft|template)\b/i;

function followedWithin(sentence: string, first: RegExp, second: RegExp, gap: number): boolean {
  for (const found of sentence.matchAll(first)) {
    const end = found.index + found[0].length;
    const next = second.exec(sentence.slice(end, end + gap + 20));
    if (next && next.index <= gap) return true;
  }
  return false;
}

export function asksForDraft(text: string): boolean {
  if (/\breply to\b/i.test(text) || (/generate/i.test(text) && /email/i.test(text))) return true;
  return text.split(/[.?!]/).some((sentence) => followedWithin(sentence, draftVerb, draftObject, 80) || followedWithin(sentence, templateNoun, templateWord, 40));
}

// A drafting session spans a few turns (recipient, purpose, details, tone): the request may be
// among the user's last few messages.
const draftTurnsScanned = 5;

export function writingStyleContext({ latestUserMessage, history, writingStyle }: Pick<CoachContextInput, 'latestUserMessage' | 'history' | 'writingStyle'>): ChatTurn[] {
  if (!writingStyle) return [];
  const recent = [latestUserMessage, ...history.filter((turn) => turn.role === 'user').slice(-draftTurnsScanned).map((turn) => turn.content)];
  if (!recent.some(asksForDraft)) return [];
  const facts = describeStyleForModel(writingStyle);
  if (!facts) return [];
  return [
    {
      role: 'system',
      content:
        `${writingStyleHeader}:\n${facts}\n` +
        'When you draft an email or message for the user, write it in this style: their greeting, tone, structure, typical ' +
        'length and sign-off, signed with their first name.',
    },
  ];
}

/** The greeting and sign-off carried by a system text written by writingStyleContext, or null. */
export function writingStyleIn(text: string): { greeting: string | null; signOff: string | null } | null {
  if (!text.startsWith(writingStyleHeader)) return null;
  const field = (name: string) => text.match(new RegExp(`^${name}: (.*?)(?: \\(replace \\[Name\\].*\\))?$`, 'm'))?.[1] ?? null;
  return { greeting: field('Greeting'), signOff: field('Sign-off') };
}
