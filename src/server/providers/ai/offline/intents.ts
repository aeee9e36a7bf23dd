import { folderTrigger, mailTrigger } from '../helpTriggers.js';
import { wordCount } from './language.js';
import type { FrameworkId } from './types.js';

// What a message asks for. Frameworks are recognised by the words people use for them; the
// order matters where one message names several things ("email the meeting agenda").

const frameworkPatterns: Array<[FrameworkId, RegExp[]]> = [
  ['okr', [/\bokrs?\b/i, /\bobjectives? and key results?\b/i, /\bkey results?\b/i]],
  [
    'smart',
    [
      /\bSMART\b/,
      /\bsmart\s+(?:goals?|objectives?|targets?)\b/i,
      /\bgoal[- ]setting\b/i,
      /\b(?:set|setting|write|define|draft|create|make|shape|frame|formulate)\b[^.?!]{0,20}\bgoals?\b/i,
    ],
  ],
  [
    'agenda',
    [
      /\bagenda\b/i,
      /\b(?:plan|planning|prepare|prep|organi[sz]e|run|running|structure|facilitate|schedule)\b[^.?!]{0,30}\b(?:meeting|1:1|one[- ]on[- ]one|1-on-1|workshop|stand-?up|retro(?:spective)?|offsite|off-site|kick-?off|all[- ]hands|town ?hall|(?:roadmap|quarterly|business|project|design|sprint|budget|strategy|product|pipeline|monthly|weekly|annual) review)\b/i,
      /\bmeeting plan\b/i,
    ],
  ],
  [
    'email',
    [
      /\b(?:write|writing|draft|drafting|compose|reply|respond|answer|send|help(?: me)?(?: with)?|improve|rewrite|word)\b[^.?!]{0,30}\b(?:e-?mail|message|note|reply|response|letter)\b/i,
      /\b(?:e-?mail|message) to (?:my|the|a|an|our)\b/i,
      /\bemail draft\b/i,
    ],
  ],
  [
    'feedback',
    [
      /\bfeedback\b/i,
      /\b(?:difficult|hard|tough|awkward|crucial|uncomfortable|challenging|sensitive)\s+(?:conversation|talk|chat|discussion|message)s?\b/i,
      /\bperformance (?:review|conversation|issue|problem)s?\b/i,
      /\bsbi\b/i,
    ],
  ],
  [
    'grow',
    [
      /\bGROW\b/,
      /\bgrow (?:model|framework|session|coaching|method)\b/i,
      /\b(?:coach me|coaching session|i'?m stuck|i am stuck|i feel stuck|work through|think through|talk through|help me (?:decide|think|figure)|make a decision|career (?:move|decision|change|step))\b/i,
    ],
  ],
];

export function frameworkIn(text: string): FrameworkId | null {
  return frameworkPatterns.find(([, patterns]) => patterns.some((p) => p.test(text)))?.[0] ?? null;
}

/** Phrasing that starts something new, as opposed to answering the question asked. */
function soundsLikeARequest(text: string): boolean {
  return (
    wordCount(text) <= 4 ||
    /^(?:let'?s|let us|can we|could we|can you|could you|please|switch|instead|actually|start|begin|new|run|try|how about|what about|rather|now let'?s)\b/i.test(
      text.trim(),
    ) ||
    /\binstead\b/i.test(text)
  );
}

/** "What is GROW?", "explain OKRs": a question about a framework, not a request to run one. */
function asksWhatItIs(text: string): boolean {
  return /^(?:what(?:'s| is| are)|explain|tell me (?:more )?about|how do(?:es)?\b.*\bwork)\b/i.test(text.trim()) && !/\b(?:help me|let'?s)\b/i.test(text);
}

export type Intent =
  | { kind: 'start'; framework: FrameworkId }
  | { kind: 'explain'; framework: FrameworkId }
  | { kind: 'restart' }
  | { kind: 'cancel' }
  | { kind: 'folders' }
  | { kind: 'inbox' }
  | { kind: 'greeting' }
  | { kind: 'thanks' }
  | { kind: 'menu' }
  | { kind: 'challenge' }
  | { kind: 'unknown' };

const restartPattern = /\b(?:start over|start again|restart|from the (?:top|beginning|start)|begin again|reset)\b/i;
const cancelPattern =
  /^(?:(?:please|ok|okay|let'?s|actually)\s+)?(?:cancel|stop|quit|exit|abort|never ?mind|forget it|end|enough|no thanks|not now)(?:\s+(?:this|that|it|here|now|the session|please))*[\s.!]*$/i;

/** While a framework runs, only clear commands interrupt it; anything else is an answer. */
export function sessionIntent(text: string, current: FrameworkId): Intent | null {
  if (restartPattern.test(text) && wordCount(text) <= 8) return { kind: 'restart' };
  if (cancelPattern.test(text.trim())) return { kind: 'cancel' };
  const framework = frameworkIn(text);
  if (framework && soundsLikeARequest(text) && !asksWhatItIs(text)) {
    return framework === current ? { kind: 'restart' } : { kind: 'start', framework };
  }
  return null;
}

/** With no framework running: what the message asks for. */
export function idleIntent(text: string): Intent {
  const framework = frameworkIn(text);
  if (framework) return asksWhatItIs(text) ? { kind: 'explain', framework } : { kind: 'start', framework };
  if (restartPattern.test(text) && wordCount(text) <= 8) return { kind: 'restart' };
  if (cancelPattern.test(text.trim())) return { kind: 'cancel' };
  // The product spec's states and transitions keyword routing: folder words first ("organize my inbox"), then mail words.
  if (folderTrigger.test(text)) return { kind: 'folders' };
  if (mailTrigger.test(text)) return { kind: 'inbox' };
  const short = wordCount(text) <= 6;
  if (short && /^(?:hi|hello|hey|hiya|howdy|greetings|good (?:morning|afternoon|evening|day)|yo)\b/i.test(text.trim())) return { kind: 'greeting' };
  if (short && /^(?:thanks|thank you|thx|ty|cheers|great|awesome|perfect|nice|cool|brilliant|excellent|ok(?:ay)?|got it)\b/i.test(text.trim())) {
    return { kind: 'thanks' };
  }
  // Someone describing a difficulty is offered a GROW session rather than the fallback.
  if (
    /\b(?:stress(?:ed|ful)?|overwhelm(?:ed|ing)?|struggl\w*|stuck|problem|challenge|issue|conflict|difficult|frustrat\w*|worried|anxious|burn(?:ed|t)?[- ]?out|procrastinat\w*|workload|too much (?:work|on my plate)|priorit\w*|time management|promotion|promoted|career|motivat\w*|confidence|delegat\w*|my goal)\b/i.test(
      text,
    )
  ) {
    return { kind: 'challenge' };
  }
  if (
    /\b(?:help|what can you do|what do you do|what can i (?:ask|do)|how does this work|how do you work|options|menu|capabilities|who are you|what are you|frameworks?)\b/i.test(
      text,
    )
  ) {
    return { kind: 'menu' };
  }
  return { kind: 'unknown' };
}

/** "yes", "sure, let's do it": accepting what the coach just offered. */
export function accepts(text: string): boolean {
  return /^(?:yes|yeah|yep|sure|ok(?:ay)?|please|go|go ahead|let'?s (?:do it|go|start)|sounds good|why not|do it|start)(?:[\s,!.]+(?:please|let'?s do it|let'?s go|thanks|thank you|go ahead))*[\s.!]*$/i.test(text.trim());
}
