import { cleanEmail, type CleanedEmail } from './cleanEmail.js';
import type { SentEmail } from './sentMail.js';
import { trimEndSpaceAnd } from '../../../shared/trimText.js';

// The deterministic analysis of the six profile sections of the product spec's screens. It reads only what the
// user wrote (cleanEmail drops quoted replies, forwards and signatures) and needs no model; the
// model may describe the tone afterwards (describeTone.ts).

export type LengthBand = 'Very short' | 'Short' | 'Medium' | 'Long';

export type ToneMarkers = {
  /** Share of emails with a formal greeting or sign-off ("Dear", "Kind regards"). */
  formalOpenings: number;
  /** Contractions per 100 words ("I'm", "don't"). */
  contractionsPer100: number;
  /** Hedges per 100 words ("I think", "maybe", "just"). */
  hedgesPer100: number;
  /** Share of emails with at least one exclamation mark. */
  exclamations: number;
};

export type StyleAnalysis = {
  greeting: string | null;
  signOff: string | null;
  commonPhrases: string[];
  structure: string | null;
  length: string | null;
  lengthBand: LengthBand | null;
  medianWords: number | null;
  markers: ToneMarkers;
  /** The tone described from the markers alone. */
  markerTone: string | null;
  emailsAnalyzed: number;
  /** The cleaned text of the emails, for the model's tone description. */
  cleaned: CleanedEmail[];
};

// ---------- greeting and sign-off: the most frequent form ----------

// Words after "Hi" that are not someone's name: "Hi team," stays "Hi team,".
const groupWords = new Set(['team', 'all', 'everyone', 'folks', 'guys', 'there', 'both', 'y\'all', 'everybody', 'again', 'sir', 'madam', 'sir or madam', 'all of you']);

const openerPattern = /^(dear|hi|hello|hey|hiya|greetings|good morning|good afternoon|good evening|morning|afternoon|evening|howdy|yo)\b/i;

/** "Dear Ms. Patel," and "Dear Sam," are one form, "Dear [Name],"; "Hi team," stays itself. */
export function greetingForm(greeting: string): string {
  // The opener, then the addressee and one closing mark, read by hand: the pattern that did it
  // (`\s*(.*?)([,!:]?)\s*$`) backtracked quadratically over trailing spaces.
  const line = greeting.trim();
  const match = openerPattern.exec(line);
  if (!match || /[\n\r\u2028\u2029]/.test(line)) return line;
  const opener = match[1]!;
  let rest = line.slice(match[0].length).trim();
  const last = rest.at(-1) ?? '';
  const punctuation = last && ',!:'.includes(last) ? last : '';
  if (punctuation) rest = rest.slice(0, -1);
  const addressee = rest.trim();
  if (!addressee) return `${opener}${punctuation}`;
  if (groupWords.has(addressee.toLowerCase())) return `${opener} ${addressee}${punctuation}`;
  return `${opener} [Name]${punctuation}`;
}

function mostFrequent(values: string[]): string | null {
  const counts = new Map<string, number>();
  let best: string | null = null;
  let bestCount = 0;
  for (const value of values) {
    const count = (counts.get(value) ?? 0) + 1;
    counts.set(value, count);
    // Ties go to the form seen first (the most recent email).
    if (count > bestCount) {
      best = value;
      bestCount = count;
    }
  }
  return best;
}

// A sign-off is written the same way each time; "Cheers" and "Cheers," are one form, shown as
// written most often.
function signOffForm(values: string[]): string | null {
  const byKey = new Map<string, string[]>();
  for (const value of values) {
    const key = trimEndSpaceAnd(value.toLowerCase(), ',.!-');
    byKey.set(key, [...(byKey.get(key) ?? []), value]);
  }
  const key = mostFrequent(values.map((value) => trimEndSpaceAnd(value.toLowerCase(), ',.!-')));
  return key === null ? null : mostFrequent(byKey.get(key)!);
}

// ---------- common phrases ----------

const stopWords = new Set(
  ('a an the and or but if so of to in on at by for with from as into onto about over after before than then ' +
    'is are was were be been being am do does did have has had will would can could shall should may might must ' +
    'i me my we us our you your he him his she her it its they them their this that these those there here ' +
    'not no yes just very also too up out what which who when where how all any some more most such own same')
    .split(' '),
);

// Words at the edge of a phrase that make it a fragment ("the report", "report on").
const edgeWords = new Set('a an the and or but of to in on at by for with from as is are was were be than then so if'.split(' '));

const maxPhraseWords = 7;

const wordPattern = /[a-z]+(?:['’][a-z]+)*/g;

function phrasesOf(text: string): Set<string> {
  const found = new Set<string>();
  // Phrases do not cross sentence or line boundaries.
  for (const sentence of text.toLowerCase().split(/[.!?;:,\n()"]+/)) {
    const tokens = sentence.replace(/’/g, "'").match(wordPattern);
    if (!tokens || tokens.length < 2) continue;
    for (let size = 2; size <= maxPhraseWords; size += 1) {
      for (let i = 0; i + size <= tokens.length; i += 1) {
        const first = tokens[i]!;
        const last = tokens[i + size - 1]!;
        if (edgeWords.has(first) || edgeWords.has(last)) continue;
        let content = false;
        for (let j = i; j < i + size; j += 1) if (!stopWords.has(tokens[j]!)) content = true;
        if (!content) continue;
        found.add(tokens.slice(i, i + size).join(' '));
      }
    }
  }
  return found;
}

const maxPhrases = 8;

/** Multi-word phrases used in several emails, longest first among equals, without overlaps. */
export function commonPhrasesOf(bodies: string[]): string[] {
  const documentFrequency = new Map<string, number>();
  for (const body of bodies) {
    for (const phrase of phrasesOf(body)) documentFrequency.set(phrase, (documentFrequency.get(phrase) ?? 0) + 1);
  }
  // Used in at least two emails and in at least a fifth of them.
  const minEmails = Math.max(2, Math.ceil(bodies.length * 0.2));
  const candidates = [...documentFrequency].filter(([, count]) => count >= minEmails);
  candidates.sort((a, b) => b[1] - a[1] || b[0].split(' ').length - a[0].split(' ').length || a[0].localeCompare(b[0]));
  // The sliding windows of one recurring sentence overlap: keep the longest, skip any phrase
  // sharing a word pair with one already kept.
  const chosen: string[] = [];
  const takenPairs = new Set<string>();
  const edges = new Set<string>();
  for (const [phrase] of candidates) {
    const tokens = phrase.split(' ');
    const pairs = tokens.slice(1).map((token, i) => `${tokens[i]} ${token}`);
    if (pairs.some((pair) => takenPairs.has(pair))) continue;
    // "please do" + "do not hesitate ...": the tail of a longer phrase already kept.
    if (edges.has(`end:${tokens[0]}`) || edges.has(`start:${tokens[tokens.length - 1]}`)) continue;
    chosen.push(phrase);
    edges.add(`start:${tokens[0]}`);
    edges.add(`end:${tokens[tokens.length - 1]}`);
    for (const pair of pairs) takenPairs.add(pair);
    if (chosen.length === maxPhrases) break;
  }
  return chosen;
}

// ---------- structure and length ----------

const bulletLine = /^\s*(?:[-*•–]|\d{1,2}[.)])\s+\S/;

function wordCount(text: string): number {
  return text.match(/\S+/g)?.length ?? 0;
}

type Shape = { paragraphs: number; bullets: boolean; question: boolean; oneLiner: boolean };

function shapeOf(body: string): Shape {
  const paragraphs = body.split(/\n\s*\n/).filter((block) => block.trim()).length;
  const lines = body.split('\n').filter((line) => line.trim());
  return {
    paragraphs,
    bullets: lines.filter((line) => bulletLine.test(line)).length >= 2,
    question: /\?/.test(body),
    oneLiner: lines.length <= 1 && wordCount(body) <= 25,
  };
}

const share = (count: number, total: number) => `${count} of ${total}`;

function describeStructure(shapes: Shape[]): string | null {
  const total = shapes.length;
  if (!total) return null;
  const bullets = shapes.filter((shape) => shape.bullets).length;
  const oneLiners = shapes.filter((shape) => shape.oneLiner).length;
  const questions = shapes.filter((shape) => shape.question).length;
  const multi = shapes.filter((shape) => !shape.oneLiner);
  const paragraphs = multi.length ? median(multi.map((shape) => shape.paragraphs)) : 1;

  let main: string;
  if (bullets * 2 >= total) main = `Bullet points: lists in ${share(bullets, total)} emails`;
  else if (oneLiners * 2 >= total) main = `One-liners: ${share(oneLiners, total)} emails are a single short line`;
  else main = `Paragraphs: usually ${paragraphs} short ${paragraphs === 1 ? 'paragraph' : 'paragraphs'}`;

  const extras: string[] = [];
  if (bullets && bullets * 2 < total) extras.push(`lists in ${share(bullets, total)}`);
  if (questions) extras.push(`questions in ${share(questions, total)}`);
  if (oneLiners && oneLiners * 2 < total) extras.push(`${share(oneLiners, total)} are one-liners`);
  return extras.length ? `${main}; ${extras.join(', ')}.` : `${main}.`;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : Math.round((sorted[mid - 1]! + sorted[mid]!) / 2);
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))]!;
}

export function lengthBandOf(medianWords: number): LengthBand {
  if (medianWords < 25) return 'Very short';
  if (medianWords < 75) return 'Short';
  if (medianWords <= 150) return 'Medium';
  return 'Long';
}

function describeLength(counts: number[]): { text: string; band: LengthBand; medianWords: number } | null {
  if (!counts.length) return null;
  const sorted = [...counts].sort((a, b) => a - b);
  const mid = median(sorted);
  const band = lengthBandOf(mid);
  const low = quantile(sorted, 0.25);
  const high = quantile(sorted, 0.75);
  const range = low === high ? `about ${mid} words` : `about ${mid} words (most between ${low} and ${high})`;
  return { text: `${band}: ${range}`, band, medianWords: mid };
}

// ---------- tone from measurable markers ----------

const formalOpeners = /^(?:dear|good (?:morning|afternoon|evening)|greetings)\b/i;
const formalClosings = /^(?:kind regards|best regards|regards|sincerely|yours|respectfully|warm regards|with (?:kind|best) regards)\b/i;
const contraction = /\b[a-z]+['’](?:m|re|s|ve|ll|d|t)\b/gi;
const hedges = /\b(?:i think|i guess|maybe|perhaps|possibly|might|just|sort of|kind of|i wonder|i feel|probably|if possible|hopefully)\b/gi;

function markersOf(cleaned: CleanedEmail[]): ToneMarkers {
  const total = cleaned.length || 1;
  let words = 0;
  let contractions = 0;
  let hedgeCount = 0;
  let formal = 0;
  let exclaiming = 0;
  for (const email of cleaned) {
    words += wordCount(email.body);
    contractions += email.body.match(contraction)?.length ?? 0;
    hedgeCount += email.body.match(hedges)?.length ?? 0;
    if ((email.greeting && formalOpeners.test(email.greeting)) || (email.signOff && formalClosings.test(email.signOff))) formal += 1;
    if (/!/.test(email.body) || /!/.test(email.greeting ?? '') || /!/.test(email.signOff ?? '')) exclaiming += 1;
  }
  const per100 = (count: number) => (words ? Math.round((count / words) * 1000) / 10 : 0);
  return {
    formalOpenings: formal / total,
    contractionsPer100: per100(contractions),
    hedgesPer100: per100(hedgeCount),
    exclamations: exclaiming / total,
  };
}

export function toneFromMarkers(markers: ToneMarkers, emails: number): string | null {
  if (!emails) return null;
  const formal = markers.formalOpenings >= 0.5 && markers.contractionsPer100 < 1;
  const warm = markers.exclamations >= 0.3;
  const casual = markers.contractionsPer100 >= 1.5 || markers.formalOpenings < 0.2;
  const hedging = markers.hedgesPer100 >= 1.5;

  const register = formal ? 'Formal and professional' : warm && casual ? 'Friendly and informal' : casual ? 'Direct and informal' : 'Professional and neutral';
  const notes: string[] = [];
  notes.push(formal ? 'formal greetings and sign-offs' : markers.formalOpenings >= 0.2 ? 'some formal openings' : 'casual openings');
  notes.push(markers.contractionsPer100 >= 1.5 ? 'frequent contractions' : markers.contractionsPer100 >= 0.5 ? 'some contractions' : 'few contractions');
  notes.push(warm ? `exclamation marks in ${Math.round(markers.exclamations * 100)}% of emails` : 'rare exclamation marks');
  notes.push(hedging ? 'often softens requests (maybe, I think, just)' : 'states things plainly with little hedging');
  return `${register}: ${notes.join(', ')}.`;
}

// ---------- the analysis ----------

export function analyzeStyle(emails: SentEmail[]): StyleAnalysis {
  const cleaned = emails.map((email) => cleanEmail(email.body)).filter((email) => email.body.trim() || email.greeting || email.signOff);
  const greetings = cleaned.flatMap((email) => (email.greeting ? [greetingForm(email.greeting)] : []));
  const signOffs = cleaned.flatMap((email) => (email.signOff ? [email.signOff] : []));
  const bodies = cleaned.map((email) => email.body).filter((body) => body.trim());
  const length = describeLength(bodies.map(wordCount));
  const markers = markersOf(cleaned);
  return {
    greeting: mostFrequent(greetings),
    signOff: signOffForm(signOffs),
    commonPhrases: commonPhrasesOf(bodies),
    structure: describeStructure(bodies.map(shapeOf)),
    length: length?.text ?? null,
    lengthBand: length?.band ?? null,
    medianWords: length?.medianWords ?? null,
    markers,
    markerTone: toneFromMarkers(markers, cleaned.length),
    emailsAnalyzed: emails.length,
    cleaned,
  };
}
