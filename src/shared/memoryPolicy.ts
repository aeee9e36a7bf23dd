// What the coach may keep of a person, decided here and only here (the offline rules, the model's
// extraction, an explicit 'remember', the Memory page and the nudges all ask this module):
//
// - Sensitive topics are never kept unless the user asks in so many words ('Remember that …', or
//   writing it on the Memory page): health, emotions, family, beliefs, pay, discrimination or
//   harassment, legal matters, identity (sexuality, ethnicity), and other people's personal details
//   (contact details, addresses, birthdays, their private lives).
// - What the user asks to keep that touches one of them is kept, marked sensitive, and never leaves
//   the app: no email, no push notification, no phone call reads it out (mayLeaveTheApp).
// - An 'if' is not a commitment: a plan under a condition ('I'll quit by Friday if nothing changes')
//   is never kept as one, so the coach never asks how it went.
//
// Pure and deterministic; the patterns are fixed word lists over a bounded input (2,000 characters).

const inputMax = 2000;

export const sensitiveTopics = ['health', 'emotions', 'family', 'beliefs', 'pay', 'discrimination', 'legal', 'identity', 'personal_details'] as const;
export type SensitiveTopic = (typeof sensitiveTopics)[number];

const topicPatterns: Record<SensitiveTopic, RegExp> = {
  health:
    /\b(?:antidepressants?|anti-depressants?|medications?|medicated|meds|pills?|prescriptions?|therap(?:y|ist|ists)|counsell?(?:ing|or)|psychiatrist|psychologist|diagnos(?:is|ed)|illness|ill\b|sick(?:ness| leave| note)?|disease|cancer|chemo(?:therapy)?|tumou?r|surgery|operation on|hospital(?:ised|ized)?|doctor|gp\b|clinic|pregnan(?:t|cy)|miscarriage|ivf|fertility|depress(?:ed|ion)|anxiety|panic attacks?|adhd|autis(?:m|tic)|bipolar|ptsd|ocd|burn(?:t|ed)[- ]?out|burnout|insomnia|can(?:no|['’])t sleep|mental health|disabilit(?:y|ies)|disabled|chronic|injur(?:y|ed)|rehab|addict(?:ion|ed)|alcoholi(?:c|sm)|sober|diabet(?:es|ic)|migraines?|eating disorder|suicid(?:e|al)|self[- ]harm)\b/i,
  emotions:
    /\b(?:i(?:['’]m| am)(?: so| really| feeling| just)? (?:a wreck|a mess|broken|devastated|heartbroken|miserable|depressed|hopeless|worthless|lonely|terrified|scared|afraid|ashamed|anxious|overwhelmed|exhausted|stressed(?: out)?|upset|angry|furious|crushed|falling apart|struggling|not ok(?:ay)?)|i feel(?: so| really| like)? (?:sad|lonely|anxious|scared|afraid|ashamed|hopeless|worthless|a failure|useless|empty|numb|overwhelmed|awful|terrible|miserable|depressed|guilty|trapped|alone|unsafe)|(?:i|i've been|i keep) (?:cry|crying|cried)|breakdown|grie(?:f|ving)|heartbreak|my feelings|emotionally)\b/i,
  family:
    /\b(?:divorc(?:e|ed|ing)|separat(?:ed|ion) from|custody|my (?:ex|wife|husband|spouse|partner|fianc[eé]e?|girlfriend|boyfriend|kids?|children|child|son|daughter|baby|mother|mom|mum|father|dad|parents?|sister|brother|siblings?|family|grand(?:mother|father|ma|pa|parents?)|aunt|uncle|cousin|in-laws?)\b|(?:maternity|paternity|parental) leave|childcare|wedding|marriage|married|funeral|passed away|died|bereave(?:d|ment))/i,
  beliefs:
    /\b(?:i(?:['’]m| am)(?: a| an)? (?:christian|muslim|jewish|hindu|buddhist|atheist|agnostic|sikh|catholic|mormon|religious|conservative|liberal|democrat|republican|socialist)|my (?:faith|religion|church|mosque|synagogue|temple|beliefs?|politics|political views)|religio(?:n|us)|pray(?:er|ers|ing)|ramadan|political views|vot(?:e|ed|ing) for|trade union|union member)\b/i,
  pay:
    /\b(?:salary|salaries|my pay\b|pay rise|pay cut|pay grade|a raise|compensation|bonus(?:es)?|stock options|wages?|i (?:earn|make|get paid) \S*\d|paid (?:me|us|him|her) \S*\d|\d+k (?:a|per) year|(?<!tech |technical |design |code )debts?|mortgage|loans?|bankrupt(?:cy)?|can(?:no|['’])t afford)\b/i,
  discrimination:
    /\b(?:discriminat(?:e|ed|ion|ing)|harass(?:ed|ment|ing)?|racis[mt]|sexis[mt]|ageis[mt]|homophob(?:ia|ic)|transphob(?:ia|ic)|bull(?:ied|ying)|hostile work environment|inappropriate (?:comments?|touching|behaviou?r)|touched (?:me|my)|sexual(?:ly)?|because i(?:['’]m| am) (?:a woman|black|gay|old|pregnant|disabled|muslim|jewish)|because of my (?:race|age|gender|religion|disability|accent|skin))\b/i,
  legal:
    /\b(?:lawyers?|attorneys?|solicitors?|lawsuit|sue (?:them|him|her|the|my|us|me|you)|su(?:ed|ing)|tribunal|court|arrest(?:ed)?|police|criminal|convict(?:ed|ion)|settlement|legal action|grievance|disciplinary|whistle-?blow(?:er|ing)?|visa|immigration|deport(?:ed|ation)?|nda\b)\b/i,
  identity: /\b(?:gay|lesbian|bisexual|transgender|trans (?:man|woman)|queer|non-binary|coming out as|came out as|sexual orientation|ethnicity|my race)\b/i,
  personal_details:
    /(?:[\w.+-]+@[\w-]+\.[\w.]+|\+\d[\d ().-]{8,}\d|\(?\b\d{3}\)?[ .-]\d{3}[ .-]\d{4}\b|\b(?:home address|(?:he|she|they)(?:['’]s| is| are)? (?:lives?|living) (?:in|at|with|on)|(?:his|her|their) (?:address|phone|phone number|birthday|age|health|personal life|private life|family|kids|children|wife|husband|partner|girlfriend|boyfriend)|birthday|date of birth|born on|years old)\b)/i,
};

/** The sensitive topics a text touches (none: an empty list). */
export function sensitiveTopicsOf(text: string): SensitiveTopic[] {
  const bounded = text.slice(0, inputMax);
  return sensitiveTopics.filter((topic) => topicPatterns[topic].test(bounded));
}

/** Whether a text touches a topic the coach keeps only when asked in so many words. */
export function isSensitive(text: string): boolean {
  return sensitiveTopicsOf(text).length > 0;
}

// A condition, a hedge or a maybe: 'if', 'unless', 'in case', 'assuming', 'depending on'.
// ('check if', 'find out whether' ask a question; they set no condition.)
const condition =
  /(?<!\b(?:check|see|find out|ask|know|decide|confirm|verify|test|wonder|sure|whether or not) )\bif\b|\b(?:unless|in case|provided(?: that)?|assuming|as long as|depending on|maybe|perhaps|probably|(?:i|we)(?: may| might| could)|might|thinking (?:about|of)|considering)\b/i;

/** Whether a plan is said under a condition or hedged ('I'll quit by Friday if nothing changes'): no commitment. */
export function isConditional(text: string): boolean {
  return condition.test(text.slice(0, inputMax));
}

/** Whether a kept memory may be written into what leaves the app (an email, a push, a call). */
export function mayLeaveTheApp(memory: { sensitive: boolean | null | undefined }): boolean {
  // Not decided yet (kept before the mark): it stays in the app.
  return memory.sensitive === false;
}

const contentWord = (w: string) => w.length >= 3 && !/^(?:the|and|that|this|with|for|from|are|was|will|have|has|you|your|our|not|but|i['’]?m|i['’]?ll)$/.test(w);
const wordsOf = (text: string) => new Set((text.toLowerCase().match(/[\p{L}\p{N}'’]+/gu) ?? []).filter(contentWord));
const sentencesOf = (text: string) =>
  text
    .slice(0, inputMax)
    .split(/(?<=[.!?;])\s+|\n+/)
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * The sentences of the user's message a candidate memory was taken from: the one holding it as
 * written, else those sharing the most words with it (a model's rewording); a candidate that shares
 * no word at all (a paraphrase) is traced to the whole message.
 */
function sourcesOf(message: string, candidate: string): string[] {
  const sentences = sentencesOf(message);
  const flat = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
  const holding = sentences.filter((sentence) => flat(sentence).includes(flat(candidate)));
  if (holding.length && flat(candidate)) return holding;
  const words = wordsOf(candidate);
  const shared = sentences.map((sentence) => [...wordsOf(sentence)].filter((w) => words.has(w)).length);
  const most = Math.max(0, ...shared);
  return most ? sentences.filter((_, i) => shared[i] === most) : sentences;
}

export type Candidate = { text: string; kind: string };
export type Verdict = { keep: false; why: 'sensitive' | 'conditional' } | { keep: true; sensitive: boolean };

/**
 * Whether a memory found in a message may be kept.
 * - `explicit`: the user asked for it in so many words. Kept whatever it touches, marked sensitive
 *   when it touches a sensitive topic.
 * - Otherwise (the offline rules or the model picked it): dropped when the candidate, or the
 *   sentence of the user's message it comes from, touches a sensitive topic, or when the model said
 *   so (`flaggedSensitive`); a commitment is dropped when said under a condition.
 */
export function judgeMemory(candidate: Candidate, source: { explicit: true } | { explicit: false; message: string; flaggedSensitive?: boolean }): Verdict {
  if (source.explicit) return { keep: true, sensitive: isSensitive(candidate.text) };
  const sources = sourcesOf(source.message, candidate.text);
  if (source.flaggedSensitive || isSensitive(candidate.text) || sources.some(isSensitive)) return { keep: false, why: 'sensitive' };
  if (candidate.kind === 'commitment' && (isConditional(candidate.text) || sources.some(isConditional))) return { keep: false, why: 'conditional' };
  return { keep: true, sensitive: false };
}
