import { trimEndChars } from '../../../shared/trimText.js';
import { memoryLimits, type MemoryKind } from '../../../shared/schemas/memories.js';
import { isConditional, judgeMemory } from '../../../shared/memoryPolicy.js';

// The rules the coach remembers by without a model: the explicit 'Remember that …'
// (always, on either coach, stored as written without a model call), and the offline coach's
// extraction of durable facts from what the user said ('my manager is …', 'I will … by Friday').
// Pure functions: the same text always gives the same memories.

const ruleInputMax = 2000;

export type MemoryCandidate = { text: string; kind: MemoryKind; dueAt: Date | null };

const explicit = /^\s*(?:(?:please|pls|hey|ok|okay)[\s,]+)?(?:remember|don['’]?t forget|do not forget|never forget)(?:\s+that)?[\s,:]+(\S[\s\S]*)$/i;

/** What a message asks the coach to remember ('Remember that …', 'Please remember …', 'Don't forget that …'), or null. */
export function explicitRemember(message: string): string | null {
  const match = explicit.exec(message);
  if (!match) return null;
  const text = match[1]!.trim().replace(/\s+/g, ' ');
  if (!text || /^(?:this|that|it)[.!?]*$/i.test(text)) return null;
  return (text.charAt(0).toUpperCase() + text.slice(1)).slice(0, memoryLimits.maxText);
}

const weekdays = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const dueWords = `(?:${weekdays.join('|')}|tomorrow|today|tonight|next week|the end of (?:the )?(?:day|week|month)|end of (?:the )?(?:day|week|month)|\\d{4}-\\d{2}-\\d{2})`;
const commitment = new RegExp(`\\bI(?:\\s+will|['’]ll|\\s+am going to|['’]m going to|\\s+plan to|\\s+promised to)\\s+(.+?)\\s+by\\s+(${dueWords})\\b`, 'i');
const person = /\bmy\s+((?:skip[- ]level\s+)?(?:manager|boss|team lead|lead|mentor|director|ceo|cto|cfo|vp|direct report|report|colleague|co-?worker|coach|partner|wife|husband|assistant))(?:['’]s name)?\s+is\s+([A-Z][\p{L}'’-]+(?:\s+[A-Z][\p{L}'’-]+)?)/u;
const personInsensitive = new RegExp(person.source.replace('\\bmy\\s+', '\\b[Mm]y\\s+'), 'u');
const preference = /\bI\s+(?:really\s+)?(?:prefer|like|love|hate|dislike|don['’]t like|do not like|would rather|work best)\b[^.!?\n]{3,}/i;
const fact = /\bI(?:\s+am|['’]m)\s+(?:a|an|the)\s+[^.!?\n]{3,}|\bI\s+(?:work|worked)\s+(?:at|for|as|in|on)\s+[^.!?\n]{2,}|\bI\s+(?:manage|lead|run)\s+(?:a|an|the|my|\d+)\s+[^.!?\n]{2,}|\bI\s+have\s+\d+\s+(?:direct\s+)?reports\b[^.!?\n]*/i;

/** The date a 'by Friday' means, from `now`: that weekday's end of working day (today if it is today). */
export function dueDateOf(words: string, now: Date): Date | null {
  const lower = words.toLowerCase();
  const at = (days: number) => {
    const due = new Date(now);
    due.setUTCDate(due.getUTCDate() + days);
    due.setUTCHours(17, 0, 0, 0);
    return due;
  };
  if (/^\d{4}-\d{2}-\d{2}$/.test(lower)) {
    const due = new Date(`${lower}T17:00:00Z`);
    return Number.isNaN(due.getTime()) ? null : due;
  }
  if (lower === 'today' || lower === 'tonight' || /end of (?:the )?day/.test(lower)) return at(0);
  if (lower === 'tomorrow') return at(1);
  if (lower === 'next week') return at(7);
  if (/end of (?:the )?week/.test(lower)) return at((5 - now.getUTCDay() + 7) % 7);
  if (/end of (?:the )?month/.test(lower)) {
    const due = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0, 17));
    return due;
  }
  const day = weekdays.indexOf(lower);
  return day < 0 ? null : at((day - now.getUTCDay() + 7) % 7);
}

/** The sentence of `text` around a match, as the user wrote it. */
function sentenceAround(text: string, index: number, length: number): string {
  const start = Math.max(text.lastIndexOf('.', index), text.lastIndexOf('!', index), text.lastIndexOf('?', index), text.lastIndexOf('\n', index)) + 1;
  const endMatch = /[.!?\n]/.exec(text.slice(index + length));
  const end = endMatch ? index + length + endMatch.index : text.length;
  const sentence = text.slice(start, end).trim().replace(/\s+/g, ' ');
  return (sentence.charAt(0).toUpperCase() + sentence.slice(1)).slice(0, memoryLimits.maxText);
}

/**
 * The offline coach's extraction: durable facts the user stated about themselves, at most 3, and
 * only what the coach may keep unasked (memoryPolicy.ts: nothing sensitive, no plan under an 'if').
 */
export function extractByRules(fullMessage: string, now = new Date()): MemoryCandidate[] {
  const message = fullMessage.slice(0, ruleInputMax);
  return candidatesOf(message, now, (candidate) => judgeMemory(candidate, { explicit: false, message }).keep);
}

// Each pattern's matches in turn (a copy with the global flag), so that one the policy refuses
// leaves room for the next of its kind.
const everyMatch = (pattern: RegExp) => new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`);
const commitments = everyMatch(commitment);
const people = [everyMatch(person), everyMatch(personInsensitive)];
const preferences = everyMatch(preference);
const facts = everyMatch(fact);

/** What the rules find in a text that `accept` takes, at most 3: a plan under a condition is no commitment. */
function candidatesOf(fullMessage: string, now: Date, accept: (candidate: MemoryCandidate) => boolean = () => true): MemoryCandidate[] {
  // The rules read the message's first 2,000 characters: their patterns are built from fixed word
  // lists, and bounding the input bounds their work whatever is pasted in.
  const message = fullMessage.slice(0, ruleInputMax);
  const found: MemoryCandidate[] = [];
  const first = (patterns: readonly RegExp[], make: (m: RegExpExecArray) => MemoryCandidate | null) => {
    for (const pattern of patterns) {
      for (const m of message.matchAll(pattern)) {
        const candidate = make(m as RegExpExecArray);
        if (candidate && accept(candidate)) return void found.push(candidate);
      }
    }
  };
  first([commitments], (c) => {
    const text = sentenceAround(message, c.index, c[0].length);
    return isConditional(text) ? null : { text, kind: 'commitment', dueAt: dueDateOf(c[2]!, now) };
  });
  first(people, (p) => ({ text: `My ${p[1]!.toLowerCase()} is ${p[2]}`, kind: 'person', dueAt: null }));
  for (const [patterns, kind] of [[[preferences], 'preference'], [[facts], 'fact']] as const) {
    first(patterns, (m) => (found.some((f) => f.text.includes(m[0].trim())) ? null : { text: sentenceAround(message, m.index, m[0].length), kind, dueAt: null }));
  }
  return dedupe(found).slice(0, memoryLimits.maxPerExchange);
}

/** The kind of an explicitly remembered text, by the same rules. */
export function kindOf(text: string): { kind: MemoryKind; dueAt: Date | null } {
  const [first] = candidatesOf(text.slice(0, ruleInputMax), new Date());
  return first ? { kind: first.kind, dueAt: first.dueAt } : { kind: 'fact', dueAt: null };
}

/** What a commitment was: 'I will send the report by Friday' -> 'send the report'. */
export function planOf(text: string): string {
  const c = commitment.exec(text.slice(0, ruleInputMax));
  if (c) return trimEndChars(c[1]!, '.!?');
  const trimmed = trimEndChars(text, '.!?');
  return `“${trimmed}”`;
}

const stop = new Set(['the', 'and', 'that', 'this', 'with', 'for', 'from', 'are', 'was', 'were', 'have', 'has', 'will', 'you', 'your', 'our', 'not', 'but', 'his', 'her', 'its', 'they', 'them', 'their', 'she', 'him']);
const words = (text: string) => new Set((text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length >= 2 && !stop.has(w)));

/** Near-duplicates: most of their words shared (Jaccard similarity at least 0.6). */
export function nearDuplicate(a: string, b: string): boolean {
  const x = words(a);
  const y = words(b);
  if (!x.size || !y.size) return a.trim().toLowerCase() === b.trim().toLowerCase();
  let shared = 0;
  for (const w of x) if (y.has(w)) shared += 1;
  const union = x.size + y.size - shared;
  return shared / union >= 0.6;
}

function dedupe(candidates: MemoryCandidate[]): MemoryCandidate[] {
  const kept: MemoryCandidate[] = [];
  for (const candidate of candidates) if (!kept.some((k) => nearDuplicate(k.text, candidate.text))) kept.push(candidate);
  return kept;
}

// An answer to 'how did it go?' that says it was done closes the commitment; a 'not yet' does not.
const doneWords = /\b(?:done|did it|i did|finished|completed|sent it|shipped|delivered|went (?:well|fine|great|ok|okay)|all good|nailed it|yes)\b/i;
const notDone = /\b(?:not|didn['’]t|did not|haven['’]t|have not|no|yet|postponed|missed|couldn['’]t)\b/i;
export function saysDone(answer: string): boolean {
  return doneWords.test(answer) && !notDone.test(answer);
}

// Someone saying something about themselves: 'I am / I have / I will / we are ...', 'my manager',
// 'our team'. Questions and requests ('how do I ...', 'help me write ...') do not match.
const aboutThemselves =
  /\b(?:i|we)(?:'m|'re|'ve|'ll|'d|’m|’re|’ve|’ll|’d| am| have| had| will| was| were| are| need| want| plan| prefer| like| love| hate| work| lead| manage| report| joined| started| usually| always| never| just| recently| promised| agreed| should| must)\b|\b(?:my|our)\s+[\p{L}]/iu;

// A plan with a date: 'deadline', 'due', 'by Friday', 'next week'.
const dated = /\b(?:deadline|due|by (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|the end of|end of|next)|next (?:week|month|quarter))\b/i;

/**
 * Whether a message may hold a fact worth remembering, before a model is asked (a call that costs):
 * it says something about the user, their people or their plans. Cheap and deterministic; a false
 * 'yes' costs one model call, a false 'no' one lost memory.
 */
export function mayHoldMemory(message: string): boolean {
  const text = message.slice(0, 2_000);
  if (text.trim().split(/\s+/).length < 3) return false;
  return aboutThemselves.test(text) || dated.test(text);
}
