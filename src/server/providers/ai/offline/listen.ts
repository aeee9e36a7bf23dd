import type { CoachGoal } from '../contract.js';
import { capitalize, clause, lowerCommonFirst, wordCount } from './language.js';

// How the offline coach listens: it gives the user's own words back (turned to "you"), names
// the feeling when one was named, and only then asks. Deterministic, like the rest of the coach.

/** The question a framework's result ends with; the answer closes the session. */
export const takeawayQuestion = 'What do you take away from this conversation?';

/** OKRs end by asking how they will be scored. */
export const committedQuestion =
  'Which kind of OKRs are these, committed (you plan to reach every key result in full) or aspirational (a stretch, where 0.7 is a good score)?';

// Doing something is not a result: "run 6 sessions" says what happens, not what changes.
const activityStart =
  /^(?:to\s+)?(?:run|running|hold|holding|complete|completing|deliver|delivering|launch|launching|host|hosting|organi[sz]e|conduct|do|doing|attend|publish|write|create|build|ship|implement|roll out|send|train|start|set up|introduce|perform|read|finish|hire|call|schedule|present)\b/i;

/** True when the text names an activity rather than an outcome ("Run 6 knowledge-sharing sessions"). */
export function isActivity(text: string): boolean {
  return activityStart.test(text.trim());
}

/** True when a measure says where things start ("from 40% to 60%", "today", "baseline"). */
export function hasBaseline(text: string): boolean {
  return /\bfrom\b[^.;]{0,60}\bto\b|→|->|\b(?:baseline|today|currently|now|instead of|up from|down from)\b/i.test(text);
}

const mirrors: Array<[RegExp, string]> = [
  [/\bI am\b/g, 'you are'],
  [/\bI['’]m\b/g, 'you’re'],
  [/\bI['’]ve\b/g, 'you’ve'],
  [/\bI['’]ll\b/g, 'you’ll'],
  [/\bI['’]d\b/g, 'you’d'],
  [/\bI was\b/g, 'you were'],
  [/\bI\b/g, 'you'],
  [/\bmy\b/gi, 'your'],
  [/\bmine\b/gi, 'yours'],
  [/\bmyself\b/gi, 'yourself'],
  [/\bme\b/gi, 'you'],
  [/\bwe are\b/gi, 'you are'],
  [/\bwe['’]re\b/gi, 'you’re'],
  [/\bwe['’]ve\b/gi, 'you’ve'],
  [/\bwe\b/gi, 'you'],
  [/\bour\b/gi, 'your'],
  [/\bourselves\b/gi, 'yourselves'],
  [/\bus\b/g, 'you'],
  [/\byou keeps\b/g, 'you keep'],
];

/** The user's words said back to them: "my team ignores me" → "your team ignores you". */
export function mirror(text: string): string {
  let result = ` ${clause(text)} `;
  for (const [pattern, replacement] of mirrors) result = result.replace(pattern, replacement);
  result = result.trim();
  // "Your" at the start stays capitalised only at the start of a sentence, which the caller decides.
  return /^(?:You|Your|You’re|You’ve|You’ll|You’d|Yours|Yourself)\b/.test(result) ? result.charAt(0).toLowerCase() + result.slice(1) : result;
}

/** At most `max` words of the first sentence, so that a reflection stays short. */
export function gist(text: string, max = 18): string {
  const first = clause(text.split(/(?<=[.!?])\s+|\n+/)[0] ?? text);
  const all = first.split(/\s+/);
  return all.length <= max ? first : `${all.slice(0, max).join(' ')}…`;
}

const emotionWords =
  'frustrated|frustrating|overwhelmed|stressed|anxious|worried|nervous|scared|afraid|unsafe|angry|upset|sad|hurt|lonely|alone|exhausted|tired|drained|burnt out|burned out|stuck|lost|confused|demotivated|unmotivated|undervalued|unappreciated|invisible|ignored|disappointed|embarrassed|ashamed|guilty|helpless|hopeless|insecure|bored|excited|hopeful|proud|relieved|happy|confident|unsure|torn|annoyed|irritated|discouraged|defeated|like a failure|like an impostor|like an imposter|like a fraud|out of my depth|useless|inadequate|isolated|trapped|pressured|under pressure|on edge';
const feelingPattern = new RegExp(
  `\\b(?:I(?:\\s+(?:feel|am feeling|felt|am|get|have been|keep feeling)|['’]m(?:\\s+feeling)?|['’]ve been)|feeling|makes me(?: feel)?|left me(?: feeling)?)\\s+(?:so\\s+|really\\s+|very\\s+|quite\\s+|a bit\\s+|kind of\\s+|totally\\s+|completely\\s+)?(${emotionWords})(?:,?\\s+and\\s+(?:so\\s+|really\\s+|very\\s+)?(${emotionWords}))?\\b`,
  'i',
);

/** The feeling the user named ("I feel like a failure" → "like a failure"), or null. */
export function feelingIn(text: string): string | null {
  const match = feelingPattern.exec(text);
  if (!match) return null;
  return [match[1], match[2]].filter(Boolean).join(' and ').toLowerCase();
}

const painful = /^(?:frustrat|overwhelm|stress|anxious|worried|nervous|scared|afraid|unsafe|angry|upset|sad|hurt|lonely|alone|exhaust|tired|drained|burn|stuck|bored|lost|confused|demotiv|unmotiv|undervalued|unappreciated|invisible|ignored|disappoint|embarrass|asham|guilty|helpless|hopeless|insecure|annoyed|irritated|discouraged|defeated|like a|like an|out of|useless|inadequate|isolated|trapped|pressured|under pressure|on edge|unsure|torn)/;

/**
 * A reflection of what the user said: their own words turned to "you", and the feeling named
 * when there is one. Never a bare "Good.": always something the user said.
 */
export function reflect(text: string): string {
  const feeling = feelingIn(text);
  const clauses = clause(text)
    .split(/[,;.!?]| — |\band\b|\bbut\b|\bso\b/i)
    .map((c) => c.trim())
    .filter((c) => wordCount(c) > 1);
  if (feeling) {
    const named = feeling.split(' and ');
    // What the feeling is about, when the same clause says it ("nervous about presenting to the board").
    const match = feelingPattern.exec(text)!;
    // Without a preposition too: "disappointed I didn't get the promotion", "worried my new hire is going to quit".
    const tail = /^\s+((?:about|to|that|because|when|with|of|since|after|at|for|by|from|in|over|around|I|I['’]m|I['’]ve|my|our|we|the|he|she|they|it|this|none|nobody|no one)\b[^,;.!?]{1,80})/i.exec(text.slice(match.index + match[0].length))?.[1];
    const facts = clauses.filter((c) => !feelingPattern.test(c) && !named.some((f) => c.toLowerCase().includes(f)) && !(tail && tail.includes(c)));
    const fact = facts[0] ? mirror(gist(facts[0], 14)) : null;
    const feelingLine = `you’re feeling ${feeling}${tail ? ` ${mirror(gist(tail, 12))}` : ''}`;
    const weight = painful.test(feeling) ? ' That sounds hard.' : '';
    return fact ? `${capitalize(fact)}, and ${feelingLine}.${weight}` : `${capitalize(feelingLine)}.${weight}`;
  }
  const asked = askedAbout(text);
  if (asked) return asked;
  const words = lowerSentenceStart(mirror(gist(text)));
  if (wordCount(words) <= 4) return `“${clause(text)}”.`;
  return /^[a-z]/.test(words) ? `So ${words}.` : `In your words: “${gist(text)}”.`;
}

/** A question said back as what the user is asking ("How do I say no to my VP?" → "You're asking how to say no to your VP."). */
function askedAbout(text: string): string | null {
  if (!/\?\s*$/.test(text.trim())) return null;
  // The question itself, not what comes before it ("I'm sick of meetings. How do I get back…?").
  const sentences = text.trim().split(/(?<=[.!?])\s+|\n+/);
  const question = clause(gist(sentences.findLast((s) => /\?\s*$/.test(s)) ?? text, 24));
  const how = /^how (?:do|can|could|should|would) (?:I|we) (.+)$/i.exec(question);
  if (how) return `You’re asking how to ${mirror(how[1]!)}.`;
  const what = /^what (?:should|can|could|do) (?:I|we) (.+)$/i.exec(question);
  if (what) return `You’re asking what to ${mirror(what[1]!)}.`;
  const whether = /^(?:should|can|could|do) (?:I|we) (.+)$/i.exec(question);
  if (whether) return `You’re asking whether to ${mirror(whether[1]!)}.`;
  return `You’re asking: “${question}?”`;
}

/**
 * The first word lower-cased when it is a common word rather than a name: a known sentence
 * starter, or a word whose ending names are unlikely to have ("Releases", "Testing", "Weekly").
 */
function lowerSentenceStart(text: string): string {
  const lowered = lowerCommonFirst(text);
  if (lowered !== text) return lowered;
  const first = text.split(' ')[0] ?? '';
  if (/^\p{Lu}\p{Ll}+(?:es|ies|ed|ing|ly|tion|sion|ment|ness|ity|ers|ings|ships?)$/u.test(first) || /^(?:Nothing|Everything|Something|Nobody|Somebody|Being|Getting|Too|Not|No|Just|Only|Maybe|Probably|Mostly|Always|Never|Sometimes|People|Work|Time|Things|Meetings|Releases|Customers|Sales)$/.test(first)) {
    return text.charAt(0).toLowerCase() + text.slice(1);
  }
  return text;
}

// Someone whose meetings eat their focus time: a time problem to think through, not a list of times.
const focusProblem =
  /\b(?:deep work|focus(?:ed)? time|time to (?:focus|think)|(?:pulled|dragged|stuck) (?:in|into) (?:meetings|calls)|too many (?:meetings|calls)|back[- ]to[- ]back|meetings? (?:all day|eat|take up|fill)|never (?:get to|finish|have time)|no time (?:to|for))\b/i;

export function describesFocusProblem(text: string): boolean {
  return focusProblem.test(text);
}

/** A message that asks to see the calendar ("what's on my calendar this week?"), as opposed to describing a problem with it. */
export function asksForCalendar(text: string): boolean {
  return (
    /\b(?:what(?:'s|’s| is)? on|show(?: me)?|list|what (?:meetings|calls)|which meetings|read|check|look at|go through|my (?:calendar|schedule|agenda) (?:for|this|next|today|tomorrow))\b[^.?!]{0,40}\b(?:calendar|schedule|week|meetings?|day|today|tomorrow)\b/i.test(text) ||
    /^(?:my (?:week|calendar|schedule|meetings)|calendar|schedule|this week|next week)[\s?.!]*$/i.test(text.trim()) ||
    /\bwhat (?:do i have|have i got|is coming up|'s coming up|’s coming up)\b/i.test(text)
  );
}

// A progress report: a number with "now", "at", "so far", "done", "read", "reached"...
const progressWords =
  /\b(?:now|so far|already|reached|hit|up to|down to|done|finished|completed|read|ran|made|closed|signed|shipped|got to|we(?:'re|’re| are) at|i(?:'m|’m| am) at|at)\b/i;
const numberPattern = /(?<![\p{L}\d])(\d+(?:[.,]\d+)?)\s*(%|[\p{L}][\p{L} -]{0,40})?/gu;
const numberWordValues: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, twelve: 12, twenty: 20 };

const stem = (word: string) => word.toLowerCase().replace(/ies$/, 'y').replace(/(?:es|s)$/, '');
const ignoredWords = new Set(['the', 'and', 'now', 'are', 'our', 'per', 'with', 'for', 'from', 'that', 'this', 'was', 'were', 'have', 'has', 'got', 'read', 'all', 'into', 'out', 'one', 'two', 'three', 'raise', 'cut', 'grow', 'increase', 'reduce', 'get', 'make', 'more', 'less', 'than', 'per', 'week', 'month', 'year']);
const tokens = (text: string) => new Set((text.toLowerCase().match(/\p{L}+/gu) ?? []).filter((w) => w.length >= 3 && !ignoredWords.has(w)).map(stem));

export type GoalMention = { value: number; goals: CoachGoal[] };

/**
 * A check-in told in the chat ("I read 3 leadership books now"): the number, and the goals it may
 * be about (those whose title or key results share a word with it; all of them when none does).
 * Null when the message is not a progress report, or there are no goals.
 */
export function goalCheckInIn(text: string, goals: CoachGoal[]): GoalMention | null {
  if (!goals.length || !progressWords.test(text) || /\?\s*$/.test(text.trim())) return null;
  const spelled = text.replace(/\b(one|two|three|four|five|six|seven|eight|nine|ten|twelve|twenty)\b/gi, (w) => String(numberWordValues[w.toLowerCase()]));
  const match = [...spelled.matchAll(numberPattern)].find((m) => !/^(?:19|20)\d\d$/.test(m[1]!));
  if (!match) return null;
  const said = tokens(spelled);
  const scored = goals.map((goal) => {
    const words = tokens(`${goal.title} ${goal.keyResults.map((kr) => `${kr.title} ${kr.unit}`).join(' ')}`);
    let score = 0;
    for (const word of said) if (words.has(word)) score += 1;
    return { goal, score };
  });
  const best = Math.max(...scored.map((s) => s.score));
  if (best === 0) return wordCount(text) <= 14 ? { value: Number(match[1]!.replace(',', '.')), goals } : null;
  return { value: Number(match[1]!.replace(',', '.')), goals: scored.filter((s) => s.score === best).map((s) => s.goal) };
}
