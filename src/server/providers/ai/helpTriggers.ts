// The product spec's states and transitions, Chat keyword routing (case-insensitive whole words): email, emails, inbox,
// message, unread trigger a mail lookup; folder, organize, categorize trigger folder guidance.
// Each word also counts in its plural and its British spelling and forms ('messages', 'inboxes',
// 'e-mail', 'folders', 'organise', 'organising', 'categorised'). Written without nested
// quantifiers, so matching is linear in the message's length.

/** Words that make the coach look at the user's mail. */
export const mailTrigger = /\b(?:e-?mails?|inbox(?:es)?|messages?|unread|mail)\b/i;

/** Words that make the coach give folder guidance. */
export const folderTrigger = /\b(?:(?:sub-?)?folders?|organi[sz](?:e|es|ed|ing)|categori[sz](?:e|es|ed|ing))\b/i;

// "write/draft/compose ... email/mail/message/reply", "reply to ...", or 'generate' with 'email'.
// A verb, then an object word starting at most `gap` characters later in the same sentence. Read
// as a verb found, then a short window after it: one pattern `verb[^.?!]{0,80}object` was
// polynomial (recheck), this looks at each character a bounded number of times.
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

/** The message asks the coach to draft a mail or message (then the user's writing style is used). */
export function asksForDraft(text: string): boolean {
  if (/\breply to\b/i.test(text) || (/generate/i.test(text) && /email/i.test(text))) return true;
  return text.split(/[.?!]/).some((sentence) => followedWithin(sentence, draftVerb, draftObject, 80) || followedWithin(sentence, templateNoun, templateWord, 40));
}

// 'What is on my plate today', 'my meetings', 'this week', 'my calendar', 'tomorrow'...
const weekWords = /\b(?:meetings?|calendar|schedule|today|tomorrow|this week|next week|my week|my day|on my plate|agenda for (?:the|my) (?:day|week))\b/i;
/** The message asks about the user's time (then the coming week is read from the calendar). */
export const asksAboutWeek = (message: string) => weekWords.test(message);
