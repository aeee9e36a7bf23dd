import { findFillers } from './rehearsalReport.js';

// What a user's turn in a rehearsal does, read from its words: the offline counterpart answers it
// (src/server/providers/ai/offline/counterpart.ts) and the report checks it (rehearsalChecks.ts).
// Pure, deterministic word lists: the same turn is always read the same way.

export type UserMove = 'paused' | 'distressed' | 'blamed' | 'requested' | 'hedged' | 'acknowledged' | 'asked' | 'stated';

/** 'pause' typed on its own (or 'time out', 'let's pause'): the user wants out of the role for a moment. */
const pausePattern = /^\W*(?:pause|time ?out|let'?s pause|can we pause|pause (?:please|for a (?:moment|second|minute))|stop the (?:role|rehearsal)|step out)\W*$/i;
/** Mild distress about the rehearsal itself; a crisis is the safety screen's, before any reply. */
const distressPattern =
  /\b(?:i can'?t do this|i cannot do this|this is too much|it'?s too much|too much for me|i'?m (?:so |really )?(?:overwhelmed|panicking|freaking out)|i feel (?:so |really )?(?:overwhelmed|sick about this|awful about this)|i need a (?:break|minute|moment)|i want to stop|i'?m shaking|i'?m going to cry)\b/i;

/** Words that judge the person instead of describing what they did. */
export const judgementWords = [
  'lazy',
  'unreliable',
  'careless',
  'sloppy',
  'incompetent',
  'useless',
  'hopeless',
  'rude',
  'unprofessional',
  'disrespectful',
  'selfish',
  'ridiculous',
  'pathetic',
  'stupid',
  'terrible',
  'awful',
  'difficult',
  'negative',
  'defensive',
  'arrogant',
  'always',
  'never',
  'obviously',
] as const;
const judgementPattern =
  /\b(?:lazy|unreliable|careless|sloppy|incompetent|useless|hopeless|rude|unprofessional|disrespectful|selfish|ridiculous|pathetic|stupid|terrible|awful|difficult|negative|defensive|arrogant|always|never|obviously)\b/gi;
const blamePattern = /\b(?:your fault|because of you|you messed|you screwed|you failed|you let (?:me|us|the team) down|you don'?t care|you keep|you'?re (?:always|never|being)|you always|you never|you ruined|blame)\b/i;

/** Hedges: words that soften a point until it is no longer a point. Fillers count too. */
const hedgePattern =
  /\b(?:maybe|perhaps|possibly|i guess|i suppose|hopefully|sort of|kind of|a bit|a little|if possible|if that'?s ok(?:ay)?|if you don'?t mind|no pressure|only if|try to|i was wondering|would it be possible|might|not sure|i think maybe|or something)\b/gi;

/** A sentence that asks someone to do something, or to agree on it. */
const requestPattern =
  /\b(?:can we agree|could we agree|shall we agree|let'?s agree|can you|could you|will you|would you|are you (?:ok|okay|happy|willing) (?:with|to)|can i ask you to|i'?d like you to|i would like you to|i need you to|i want you to|i'?m asking you to|i am asking you to|please|can we|could we|shall we|let'?s|would it be possible|are you able to|do you agree)\b/i;
/** Who does it: a person named by a pronoun, a team, or a name after the request's verb. */
const ownerPattern = /\b(?:you|we|i|i'?ll|your team|our team|the team|us|me)\b/i;
/** When: a day, a date, a time of day, a deadline or a cadence. */
const datePattern =
  /\b(?:today|tonight|tomorrow|this (?:week|afternoon|evening|month|sprint|quarter|friday|monday|tuesday|wednesday|thursday)|next (?:week|month|sprint|quarter|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|end of (?:the )?(?:day|week|month|sprint|quarter)|eod|eow|monday|tuesday|wednesday|thursday|friday|saturday|sunday|mondays|tuesdays|wednesdays|thursdays|fridays|january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|each (?:sprint|week|month|day|morning)|every (?:sprint|week|month|day|morning)|weekly|daily|in (?:two|three|four|five|\d{1,2}) (?:days|weeks)|within (?:a|one|two|three|\d{1,2}) (?:days?|weeks?)|\d{1,2}(?:st|nd|rd|th)|\d{4}-\d{2}-\d{2}|\d{1,2}\/\d{1,2}|(?:before|by|at|until) (?:noon|midday|\d{1,2}(?::\d{2})?(?: ?[ap]m)?))\b/i;

/** Acknowledging what the other person said: naming it, granting it, or thanking them for it. */
const acknowledgePattern =
  /\b(?:i hear (?:you|that|what)|i understand|i get (?:that|it|why|where)|i see (?:that|why|what|your)|i know (?:that|this|it)|that'?s fair|that is fair|fair point|fair enough|good point|you'?re right|you are right|that makes sense|makes sense|i appreciate|thank(?:s| you) for|it sounds like|sounds like you|that must (?:be|have)|i can see (?:that|why|how)|i should have|i'?m sorry|i am sorry|you have a point|i realise|i realize|understandable|that'?s on me)\b/i;

/** An open question: asks what, why, how, or what the other person thinks, needs or sees. */
const openQuestionPattern = /\b(?:what|why|how|which|where|when|who)\b/i;
/** A question too vague to answer: no subject of its own. */
const vagueQuestionPattern = /^\W*(?:(?:so,? )?(?:any )?thoughts|what do you think|what now|so|well|and|ok(?:ay)?|right|hm+|any ideas|is that ok(?:ay)?|you know\??)\W*$/i;

const sentencesOf = (text: string) =>
  text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter(Boolean);

export const isPause = (text: string) => pausePattern.test(text.trim().slice(0, 200));
export const isDistress = (text: string) => distressPattern.test(text.slice(0, 2_000));
/** Whether the user asks to step out of the role: 'pause', or mild distress. */
export const wantsStepOut = (text: string) => isPause(text) || isDistress(text);

/** The judgement words in a text, lower-cased, in order. */
export function judgementsIn(text: string): string[] {
  return [...text.slice(0, 4_000).matchAll(judgementPattern)].map((m) => m[0].toLowerCase());
}

/** The hedges in a text (hedge words and filler words), lower-cased, without repeats. */
export function hedgesIn(text: string): string[] {
  const found = [...text.slice(0, 4_000).matchAll(hedgePattern)].map((m) => m[0].toLowerCase());
  for (const filler of findFillers(text)) found.push(filler.text.toLowerCase());
  return [...new Set(found)];
}

export const blames = (text: string) => blamePattern.test(text.slice(0, 4_000)) || judgementsIn(text).some((w) => w !== 'always' && w !== 'never' && w !== 'obviously');
export const acknowledges = (text: string) => acknowledgePattern.test(text.slice(0, 4_000));

export type Request = { sentence: string; owner: string | null; date: string | null; hedges: string[] };

/** The requests in a turn, sentence by sentence: who is to do it and by when, and the hedges around it. */
export function requestsIn(text: string): Request[] {
  const out: Request[] = [];
  for (const sentence of sentencesOf(text.slice(0, 4_000))) {
    const asked = requestPattern.exec(sentence);
    if (!asked) continue;
    const after = sentence.slice(asked.index);
    const rest = sentence.slice(asked.index + asked[0].length);
    // 'can we agree you flag risks' names its owner after the verb; 'can you' names it in the verb.
    const inVerb = ownerPattern.exec(asked[0])?.[0];
    const afterVerb = ownerPattern.exec(rest)?.[0];
    const owner = (/agree/i.test(asked[0]) ? (afterVerb ?? inVerb) : (inVerb ?? afterVerb)) ?? null;
    const date = datePattern.exec(after)?.[0] ?? null;
    out.push({ sentence, owner: owner ? owner.toLowerCase() : null, date, hedges: hedgesIn(sentence) });
  }
  return out;
}

/** The request of a turn that says the most: owner and date first, then the fewest hedges. */
export function bestRequest(requests: Request[]): Request | null {
  const score = (r: Request) => (r.owner ? 2 : 0) + (r.date ? 2 : 0) - (r.hedges.length ? 1 : 0);
  return requests.reduce<Request | null>((best, r) => (!best || score(r) > score(best) ? r : best), null);
}

export const asks = (text: string) => text.includes('?') || /^(?:what|why|how|when|where|who|which|could you|can you|would you|do you|is there|are you)\b/i.test(text.trim());
export const isVagueQuestion = (text: string) => vagueQuestionPattern.test(text.trim().slice(0, 200)) || (asks(text) && !openQuestionPattern.test(text) && text.trim().split(/\s+/).length <= 4);

/** What the user's turn does, the strongest move first: out of the role, blame, a request, a hedge, an acknowledgement, a question. */
export function readMove(text: string): UserMove {
  const turn = text.trim();
  if (isPause(turn)) return 'paused';
  if (isDistress(turn)) return 'distressed';
  if (blames(turn)) return 'blamed';
  const request = bestRequest(requestsIn(turn));
  if (request) return request.hedges.length ? 'hedged' : 'requested';
  if (acknowledges(turn)) return 'acknowledged';
  if (asks(turn)) return isVagueQuestion(turn) || hedgesIn(turn).length ? 'hedged' : 'asked';
  if (hedgesIn(turn).length >= 2 || /\b(?:maybe|perhaps|i guess|i suppose|sort of|kind of)\b/i.test(turn)) return 'hedged';
  return 'stated';
}
