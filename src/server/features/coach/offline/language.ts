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
  return text.trim().replace(/\s+/g, ' ').replace(/[\s.!?,;:]+$/u, '');
}

export function capitalize(text: string): string {
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
    .flatMap((item) => (separated ? [item] : item.split(/\s+and\s+|\s+or\s+/i)))
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
  return /^(?:help|\?+|hint|example|examples|an example|give me an example|can you give (?:me )?an example|for example\?|what do you mean|i don'?t understand|what\?|huh|sorry\?|like what)[\s.!?]*$/i.test(
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

/** Minutes in "45 minutes", "1 hour", "1h30", "an hour and a half"; null when not understood. */
export function minutesIn(text: string): number | null {
  const t = text.toLowerCase();
  let minutes: number | null = null;
  const hoursAndMinutes = t.match(/(\d+(?:[.,]\d+)?)\s*(?:h|hr|hrs|hour|hours)\b(?:\s*(?:and\s*)?(\d+)\s*(?:m|min|mins|minutes)?\b)?/);
  const justMinutes = t.match(/(\d+)\s*(?:m|min|mins|minute|minutes)\b/);
  if (/\bhalf an hour\b/.test(t)) minutes = 30;
  else if (/\b(?:an|one) hour and a half\b|\bhour and a half\b/.test(t)) minutes = 90;
  else if (/\b(?:1h30|1:30)\b/.test(t)) minutes = 90;
  else if (hoursAndMinutes) minutes = Math.round(parseFloat(hoursAndMinutes[1]!.replace(',', '.')) * 60) + Number(hoursAndMinutes[2] ?? 0);
  else if (justMinutes) minutes = Number(justMinutes[1]);
  else if (/\b(?:an|one) hour\b/.test(t)) minutes = 60;
  else if (/\btwo hours\b/.test(t)) minutes = 120;
  else if (/^\s*\d+\s*$/.test(t)) minutes = Number(t.trim());
  if (minutes === null || !Number.isFinite(minutes) || minutes < 5 || minutes > 8 * 60) return null;
  return minutes;
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
