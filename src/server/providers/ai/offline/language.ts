import { trimEndSpaceAnd } from '../../../../shared/trimText.js';
// Small, deterministic text tools the offline coach uses to read answers and reuse them in its
// replies. No randomness and no clock: the same conversation always gets the same reply.

const wordPattern = /[\p{L}\p{N}][\p{L}\p{N}'’%-]*/gu;

export function words(text: string): string[] {
  return text.match(wordPattern) ?? [];
}

export function wordCount(text: string): number {
  return words(text).length;
}

/** Trimmed, single-spaced, without trailing punctuation: ready to be placed inside a sentence. */
export function clause(text: string): string {
  return trimEndSpaceAnd(text.trim().replace(/\s+/g, ' '), '.!?,;:');
}

/** The first letter made a capital; a word with capitals of its own ("iOS", "eBay") is kept as written. */
export function capitalize(text: string): string {
  if (/^\p{Ll}\S*\p{Lu}/u.test(text)) return text;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Lower-cases the first letter, except for "I" and acronyms ("NPS", "Q3"): for phrases that start with a verb or a preposition. */
export function lowerFirst(text: string): string {
  const first = text.split(' ')[0] ?? '';
  if (first === 'I' || first.startsWith("I'") || /^[A-Z0-9]{2,}/.test(first)) return text;
  return text.charAt(0).toLowerCase() + text.slice(1);
}

// Words that start a phrase without being a name: safe to lower-case inside a sentence.
const commonLeadingWords =
  /^(?:My|Our|Their|His|Her|Your|The|A|An|All|Every|Everyone|Each|Both|Some|Most|Two|Three|Four|Five|Six|Seven|Eight|Nine|Ten|It|It's|We|They|He|She|This|That|These|Those|There|Last|Next|Yesterday|Today|Earlier|In|On|At|During|When|While|After|Before|About|For|With|From|By)\b/;

/** Lower-cases the first letter only when the first word is a common word, never a name. */
export function lowerCommonFirst(text: string): string {
  return commonLeadingWords.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text;
}

/** A user's answer as a sentence of its own: capitalised, ending in one full stop. */
export function sentence(text: string): string {
  const body = clause(text);
  if (!body) return '';
  const ending = /[?!]$/.test(text.trim()) ? text.trim().slice(-1) : '.';
  return capitalize(body) + ending;
}

export function quote(text: string): string {
  return `“${clause(text)}”`;
}

export function firstNameOf(fullName: string | undefined | null): string | null {
  const first = fullName?.trim().split(/\s+/)[0];
  return first ? first : null;
}

/** Splits a list the way people type one: commas, semicolons, new lines, bullets or "and". */
export function listItems(text: string): string[] {
  // "and"/"or" only separate items when nothing else does ("cut scope, pair with QA and Dev").
  const separated = /[,;\n]/.test(text);
  return text
    .split(/\r?\n|;|,(?![^()]*\))/)
    .map((item) => item.replace(/^\s*(?:[-*•]|\d+[.)])\s*/, ''))
    .flatMap((item) => (separated ? [item] : item.replace(/\s+/g, ' ').split(/ (?:and|or) /i)))
    .map(clause)
    .filter((item) => item.length > 0);
}

/** "I don't know", "you choose", "yes, use that": the user leaves this answer to the coach. */
export function defersToCoach(text: string): boolean {
  return /^(?:i\s+)?(?:really\s+)?(?:don'?t know|do not know|dunno|idk|not sure|no idea|unsure|no clue|pass|skip|skip it|you (?:choose|decide|pick)|suggest(?: one| something| some)?|any ideas|you tell me|what do you (?:suggest|think|recommend)|use (?:that|this|it|yours|your suggestion|the suggestion|the example)|go with (?:that|it|yours|the example)|yes|yep|yeah|sure|ok(?:ay)?|sounds good|that works|fine|good idea)(?:\s+(?:please|thanks|thank you))?[\s.!?]*$/i.test(
    text.trim(),
  );
}

/** "help", "example?", "what do you mean?": the user wants the question explained. */
export function asksForHelp(text: string): boolean {
  return /^(?:help|\?|hint|example|examples|an example|give me an example|can you give (?:me )?an example|for example\?|what do you mean|i don'?t understand|what\?|huh|sorry\?|like what)[\s.!?]*$/i.test(
    text.trim(),
  );
}

const numberWords =
  /\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|hundred|thousand|million|double|triple|half|twice|percent)\b/i;
const timeUnits = /^(?:h|hrs?|hours?|days?|weeks?|months?|quarters?|years?|minutes?|mins?)$/i;

/**
 * The first figure in the text that measures something: "15%", "from 6 to 3", "twice". Years,
 * dates and quarters ("2026", "12/06", "Q3") are not figures. With `ignoreDurations`, neither is
 * a period such as "8 weeks": that makes a goal time-bound, not measurable.
 */
export function figureIn(text: string, options: { ignoreDurations?: boolean } = {}): string | null {
  const withoutDates = text.replace(/\b\d{1,2}[/.-]\d{1,2}(?:[/.-]\d{2,4})?\b/g, ' ');
  for (const match of withoutDates.matchAll(/(?<![\p{L}\d])[$€£]?(\d[\d,.]*)(?:\s*(%|percent\b|k\b|x\b|[a-z]+))?/giu)) {
    const figure = match[0].trim();
    const unit = match[2] ?? '';
    if (/^(?:19|20)\d\d$/.test(match[1]!) && !/^(?:%|percent)$/i.test(unit)) continue;
    if (options.ignoreDurations && timeUnits.test(unit)) continue;
    return figure;
  }
  return withoutDates.match(numberWords)?.[0] ?? null;
}

const months =
  'jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|jun(?:e)?|jul(?:y)?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?';
const timeframePattern = new RegExp(
  [
    `\\b(?:${months})\\b`,
    '\\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\\b',
    '\\bq[1-4]\\b',
    '\\bh[12]\\b',
    '\\b(?:quarter|semester|week|weeks|month|months|year|years|days?|fortnight)\\b',
    '\\b(?:deadline|end of|by the end|before|until|within|eod|eow|eom|eoq|eoy|tomorrow|today|tonight|next sprint)\\b',
    '\\b\\d{1,2}[/.-]\\d{1,2}(?:[/.-]\\d{2,4})?\\b',
    '\\b20\\d\\d\\b',
  ].join('|'),
  'i',
);

/** A date, deadline, month, quarter or period: what makes a goal time-bound. */
export function timeframeIn(text: string): string | null {
  return text.match(timeframePattern)?.[0] ?? null;
}

const smallNumbers: Record<string, number> = {
  a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18,
  nineteen: 19, twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90,
};
const numberWordPattern = `(?:${Object.keys(smallNumbers).filter((w) => w.length > 2).join('|')})(?:[\\s-](?:one|two|three|four|five|six|seven|eight|nine))?`;

/** "forty-five" → 45, "twenty five" → 25, "three" → 3; figures pass through. */
function numberValue(text: string): number {
  const parts = text.toLowerCase().split(/[\s-]+/);
  if (parts.length === 1 && /^\d+(?:[.,]\d+)?$/.test(parts[0]!)) return parseFloat(parts[0]!.replace(',', '.'));
  return parts.reduce((sum, part) => sum + (smallNumbers[part] ?? NaN), 0);
}

const amount = `(\\d+(?:[.,]\\d+)?|${numberWordPattern})`;
const hourUnit = '(?:h|hr|hrs|hour|hours)';
const minuteUnit = '(?:m|min|mins|minute|minutes)';

/**
 * Minutes in a length as people write it: "45 minutes", "a 45-minute meeting", "1h30", "1:30",
 * "half an hour", "an hour and a half", "1.5 hours", "forty-five minutes", "two hours"; null when
 * not understood (or not a plausible meeting length).
 */
export function minutesIn(text: string): number | null {
  const t = text.toLowerCase().replace(/[’']/g, "'");
  let minutes: number | null = null;
  const hoursAndMinutes = t.match(new RegExp(`\\b${amount}[\\s-]*${hourUnit}\\b(?:\\s*(?:and\\s*)?(\\d+|${numberWordPattern})[\\s-]*${minuteUnit}?\\b)?`));
  const justMinutes = t.match(new RegExp(`\\b${amount}[\\s-]*${minuteUnit}\\b`));
  const clock = t.match(/\b(\d)[h:](\d\d)\b/);
  if (/\bhalf an? hour\b|\bhalf[\s-]hour\b|\b30-min/.test(t)) minutes = 30;
  else if (/\bthree[\s-]quarters? of an hour\b/.test(t)) minutes = 45;
  else if (/\bquarter of an hour\b|\bquarter-hour\b/.test(t)) minutes = 15;
  else if (/\b(?:an?|one) hour and a half\b|\bhour and a half\b|\bone and a half hours?\b|\b(?:an?|one) and a half hours?\b/.test(t)) minutes = 90;
  else if (/\b(?:an?|one) hour and a quarter\b/.test(t)) minutes = 75;
  else if (/\b(\w+) and a half hours\b/.test(t)) minutes = Math.round((numberValue(t.match(/\b(\w+) and a half hours\b/)![1]!) + 0.5) * 60);
  else if (clock && !/\b(?:at|from|until|till|by)\s+\d[h:]\d\d\b/.test(t)) minutes = Number(clock[1]) * 60 + Number(clock[2]);
  else if (hoursAndMinutes) minutes = Math.round(numberValue(hoursAndMinutes[1]!) * 60) + (hoursAndMinutes[2] ? numberValue(hoursAndMinutes[2]) : 0);
  else if (justMinutes) minutes = numberValue(justMinutes[1]!);
  else if (/\b(?:an|one) hour\b|\bhour-long\b|\bhour long\b/.test(t)) minutes = 60;
  else if (/^\s*\d+\s*$/.test(t)) minutes = Number(t.trim());
  if (minutes === null || !Number.isFinite(minutes) || minutes < 5 || minutes > 8 * 60) return null;
  return minutes;
}

/** The length as the coach says it back: "45 minutes", "1 hour", "1 hour 30 minutes". */
export function lengthPhrase(minutes: number): string {
  if (minutes < 60 || minutes % 60 === 0 && minutes > 180) return `${minutes} minutes`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return `${hours} hour${hours > 1 ? 's' : ''}${rest ? ` ${rest} minutes` : ''}`;
}

const periodPattern = new RegExp(
  [
    '\\b(?:q[1-4]|h[12])(?:\\s*(?:fy)?\\s*(?:20)?\\d\\d)?\\b',
    '\\b(?:the\\s+)?(?:first|second|third|fourth|last)\\s+(?:quarter|half)(?:\\s+of\\s+(?:20\\d\\d|the year|next year|this year))?\\b',
    '\\b(?:this|next|the next|the coming|coming)\\s+(?:quarter|half|half-year|semester|year)\\b',
    `\\b(?:${months})\\w*\\s+(?:to|-|–|through|until)\\s+(?:${months})\\w*(?:\\s+20\\d\\d)?\\b`,
    '\\b(?:fy|financial year|fiscal year)\\s*(?:20)?\\d\\d\\b',
    '\\b20\\d\\d\\b',
  ].join('|'),
  'i',
);

/** A period that OKRs can cover ("Q1", "Q3 2026", "next quarter", "H2"), as written; null when none. */
export function periodIn(text: string): string | null {
  return text.match(periodPattern)?.[0]?.trim() ?? null;
}

// Words that only say when or how long: a reply made of nothing else answers "when", not "what".
const timeWords = new RegExp(
  [
    `(?:${months})\\w*`,
    '(?:mon|tues|wednes|thurs|fri|satur|sun)days?',
    'today|tomorrow|yesterday|tonight|morning|afternoon|evening|night|noon|midday|midnight|week|weeks|month|months|year|years|day|days',
    'weekend|quarter|sprint|standup|stand-up',
    'q[1-4]|h[12]|am|pm|a\\.m\\.|p\\.m\\.|o\'?clock|ish|around|about|at|on|in|by|the|this|that|next|last|early|late|later|soon|every|each|of|before|after|until|for|from|to|and|a|an|ago|half|past|quarter|hours?|hrs?|minutes?|mins?',
    numberWordPattern,
    `(?:\\d+|${numberWordPattern})-(?:minutes?|hours?|mins?|days?|weeks?|months?)`,
    '\\d+(?:[:.h]\\d\\d)?(?:st|nd|rd|th|am|pm|h|m|min)?',
  ].join('|'),
  'i',
);

/** True when the text says only when something happens or how long it lasts ("tomorrow at 10", "30 minutes"). */
export function onlyTime(text: string): boolean {
  const all = words(text.replace(/[’]/g, "'"));
  return all.length > 0 && all.every((word) => new RegExp(`^(?:${timeWords.source})$`, 'i').test(word));
}

/**
 * Rewrites a sentence about someone so that it can be said to them: the leading "he/she/they"
 * and "I'd like him to" become "you". Pronouns elsewhere are left alone, since they may well
 * mean someone else ("he interrupted the client while they spoke").
 */
export function addressedToThem(text: string, name?: string | null): string {
  let result = text.trim();
  if (name && result.startsWith(`${name} `)) result = `you ${result.slice(name.length + 1)}`;
  return result
    .replace(/^(?:they|he|she)\b/i, (w) => matchCase(w, 'you'))
    .replace(/\b(want|wants|need|needs|like|ask|expect|would like|'d like|’d like)\s+(?:him|her|them)\s+to\b/gi, '$1 you to')
    .replace(/^(you)\s+([\w']+)/i, (w, you: string, verb: string) => {
      const plain = secondPersonVerbs[verb.toLowerCase()];
      return plain ? `${you} ${plain}` : w;
    });
}

// Third-person verb forms that follow "he/she" and must change after "you".
const secondPersonVerbs: Record<string, string> = {
  is: 'are', was: 'were', has: 'have', does: 'do', "doesn't": "don't", "isn't": "aren't", "wasn't": "weren't",
  "hasn't": "haven't", needs: 'need', wants: 'want', keeps: 'keep', misses: 'miss', interrupts: 'interrupt',
  makes: 'make', takes: 'take', gets: 'get', says: 'say', comes: 'come', goes: 'go', tries: 'try', talks: 'talk',
  shows: 'show', arrives: 'arrive', sends: 'send', ignores: 'ignore', forgets: 'forget', leaves: 'leave',
  works: 'work', speaks: 'speak', writes: 'write', delivers: 'deliver', finishes: 'finish', starts: 'start',
};

function matchCase(original: string, replacement: string): string {
  return original.charAt(0) === original.charAt(0).toUpperCase() ? capitalize(replacement) : replacement;
}

/** A capitalised word that is probably a person's name ("my manager Priya" → "Priya"). */
export function nameIn(text: string): string | null {
  const notNames = new Set([
    'I', 'My', 'The', 'A', 'An', 'Our', 'Their', 'His', 'Her', 'He', 'She', 'They', 'We', 'It', 'To', 'For', 'With',
    'Direct', 'Peer', 'Manager', 'Boss', 'Team', 'Lead', 'Head', 'Senior', 'Junior', 'CEO', 'CTO', 'CFO', 'VP', 'HR',
    'Mr', 'Mrs', 'Ms', 'Dr', 'Dear', 'Hi', 'Hello', 'Client', 'Customer', 'Colleague', 'Report', 'Everyone', 'All',
    'One', 'Someone', 'Somebody', 'This', 'That', 'Person', 'New', 'Another', 'Two', 'Three', 'Your', 'Me', 'Myself',
    'Teammate', 'Engineer', 'Designer', 'Developer', 'Analyst', 'Intern', 'Stakeholder', 'Vendor', 'Supplier',
    'Partner', 'Director', 'Executive', 'Finance', 'Sales', 'Marketing', 'Product', 'Engineering', 'Support',
    'Operations', 'Legal', 'About', 'Regarding', 'From', 'At', 'In', 'On',
  ]);
  for (const word of words(text)) {
    if (/^\p{Lu}\p{Ll}+$/u.test(word) && !notNames.has(word)) return word;
  }
  return null;
}
