import { trimChars } from './trimText.js';
import type { ComputedReport } from './schemas/rehearsals.js';

// What a rehearsal's report computes from the transcript, exactly and without a model: the user's
// share of the words, their filler words, their longest turn and the turns that ask a question.
// Shared with the client, which highlights the same filler words in the quoted turns.

export type TranscriptTurn = { role: 'user' | 'counterpart'; content: string };
export type FillerMatch = { start: number; end: number; text: string };

/** Words as a person would count them: runs of letters or digits (with inner apostrophes or hyphens). */
export function countWords(text: string): number {
  return text.match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu)?.length ?? 0;
}

// Each filler with the context that makes it one. 'like' only where it is not a verb or a
// comparison (after a comma or at the start of a sentence, or before a comma); 'kind of' and
// 'sort of' not after a word that makes them a noun ('what kind of'); 'just' as a hedge (after 'I'
// or 'we', or before 'wanted', 'wondering', 'checking', 'a quick', 'to say').
const fillerPatterns: RegExp[] = [
  /\b(?:um+|uh+|erm)\b/giu,
  /\byou know\b/giu,
  /\bi mean\b/giu,
  /\bbasically\b/giu,
  /\bactually\b/giu,
  /(?<!\b(?:what|which|this|that|the|a|any|some|no|one|every|same|other|different)\s+)\b(?:kind|sort) of\b/giu,
  /(?<=(?:^|[,.!?;:]\s*))like\b|\blike(?=,)/giu,
  /(?<=\b(?:i|we)\s+)just\b|\bjust(?=\s+(?:wanted|want|wondering|checking|thought|think|a quick|a little|to say|to check|to let)\b)/giu,
];

/** The filler words in a text, in order, without overlaps. */
export function findFillers(text: string): FillerMatch[] {
  const found: FillerMatch[] = [];
  for (const pattern of fillerPatterns) {
    for (const match of text.matchAll(pattern)) {
      const start = match.index ?? 0;
      const end = start + match[0].length;
      if (found.some((f) => start < f.end && end > f.start)) continue;
      found.push({ start, end, text: match[0] });
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

const questionOpeners =
  /(?:^|[.!]\s+)(?:what|why|how|when|where|who|which|could you|can you|would you|will you|do you|does it|does that|is there|is it|are you|are we|should we|shall we|can we|could we)\b/iu;

/** A turn asks a question when it has a question mark, or a sentence opens like one (a spoken turn has no punctuation). */
export function asksQuestion(text: string): boolean {
  return text.includes('?') || questionOpeners.test(text.trim());
}

export const maxFillerExamples = 5;

export function computeReport(turns: TranscriptTurn[]): ComputedReport {
  let userWords = 0;
  let counterpartWords = 0;
  let longestTurnWords = 0;
  let questionsAsked = 0;
  let fillerCount = 0;
  const examples: string[] = [];
  for (const turn of turns) {
    const words = countWords(turn.content);
    if (turn.role === 'counterpart') {
      counterpartWords += words;
      continue;
    }
    userWords += words;
    longestTurnWords = Math.max(longestTurnWords, words);
    if (asksQuestion(turn.content)) questionsAsked += 1;
    const fillers = findFillers(turn.content);
    fillerCount += fillers.length;
    for (const filler of fillers) {
      const word = filler.text.toLowerCase();
      if (!examples.includes(word) && examples.length < maxFillerExamples) examples.push(word);
    }
  }
  const spoken = userWords + counterpartWords;
  return {
    talkRatio: spoken ? Math.round((userWords / spoken) * 1000) / 1000 : 0,
    fillerWords: { count: fillerCount, examples },
    longestTurnWords,
    questionsAsked,
    userWords,
    counterpartWords,
  };
}

const stopWords = new Set(
  'a an and are as at be been but by can could do does for from had has have he her him his how i if in into is it its just me my need needs not of on or our she so that the their them they this to too us was we were what when which who will with would you your want wants going about after before then than there these those also very more some tell talk'.split(
    ' ',
  ),
);

/** The words of a text that carry its subject: up to `max`, in the order written, without stop words or the given names. */
export function contentWords(text: string, max: number, leaveOut: string[] = []): string[] {
  const own = new Set(leaveOut.flatMap((name) => name.toLowerCase().split(/\s+/)));
  const words: string[] = [];
  for (const raw of text.split(/[^\p{L}\p{N}'-]+/u)) {
    const word = trimChars(raw, "'-");
    const lower = word.toLowerCase();
    if (lower.length < 4 || stopWords.has(lower) || own.has(lower) || words.some((w) => w.toLowerCase() === lower)) continue;
    words.push(word);
    if (words.length === max) break;
  }
  return words;
}
