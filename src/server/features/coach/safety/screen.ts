// The safety screen: what a user's message is about when it is something a coach must not coach on
// alone. Pure, synchronous, no I/O: a list of phrases per category, read on the lower-cased message.
//
// False positives are kept low by design:
// - Phrases, never single words: "kill" alone is nothing; "kill myself" is self-harm. "Suicide",
//   "harassment" and a few other words that have only the one meaning are the exceptions.
// - The idioms that look like a phrase are removed before the phrases are read ("killing it",
//   "cut myself some slack", "career suicide", "overdose on coffee"), so "I'm killing it this
//   quarter" or "the deadline is killing me" never reach a category.
// - The health, legal and money categories need the user's own situation or question ("my
//   medication", "can I sue", "I'm in debt"): "our legal team approved the launch", "the budget is
//   dead" and "I'm sick of meetings" name no one's health, rights or money.
// The unit test table (screen.test.ts) holds the positives, stated plainly and implied, and the
// look-alikes; the evaluation (eval/) runs many more through the real server.

import type { SafetyCategory } from '../../../providers/ai/contract.js';

export type { SafetyCategory };

/** The categories that stop coaching: the app answers with crisis resources and the model is not asked. */
export const crisisCategories: ReadonlySet<SafetyCategory> = new Set<SafetyCategory>(['self_harm', 'unsafe']);
export const isCrisis = (category: SafetyCategory | null): category is 'self_harm' | 'unsafe' => category !== null && crisisCategories.has(category);

/**
 * The answer to the crisis question ("Are you safe right now?") that says, plainly, yes. Anything
 * else (no, not sure, silence on the point, a change of subject) is not taken as safe.
 */
export function saysSafe(text: string): boolean {
  const flat = text.slice(0, 200).toLowerCase().replace(/[\u2018\u2019\u02bc`]/g, "'").replace(/\s+/g, ' ').trim();
  if (/\b(?:not|no|don't|dont|isn't|never|unsure|maybe|kind of|sort of|i guess)\b/.test(flat.replace(/^no,? i'm (?:safe|ok|okay|fine)\b/, ''))) return false;
  return /^(?:yes|yeah|yep|yup|i am|i'm|i think so|i'm safe|i am safe)\b/.test(flat) || /\b(?:i'm|i am) (?:safe|ok|okay|fine|alright|all right)\b/.test(flat);
}

/** Only the first this many characters are read: a message longer than that is a document, and the cost stays bounded. */
export const screenedChars = 8_000;

// Idioms that look like one of the phrases below, removed first. Each is a whole phrase.
const idioms: RegExp[] = [
  /\bkill(?:s|ed|ing)? it\b/g,
  /\b(?:is|are|was|were|\w+'s|\w+'re) killing me\b/g,
  /\bcut(?:ting)? myself (?:some |a bit of |a little )?slack\b/g,
  /\b(?:career|political|commercial|professional|social|corporate|brand) suicide\b/g,
  /\bsuicide (?:squad|mission|run|doors?|drills?|sprints?)\b/g,
  /\bsuicide (?:prevention|awareness) (?:training|week|month|day|workshop|course|programs?|programmes?|campaign|event)\b/g,
  /\boverdos(?:e|ed|ing) on (?:coffee|caffeine|sugar|meetings|work|slack|emails?|information|data|content|screen time|netflix)\b/g,
  /\b(?:want(?:ed)?|going) to die (?:of|from) (?:embarrassment|shame|boredom|laughter|laughing|cringe)\b/g,
  /\b(?:could have|could've|nearly|almost) died (?:of|laughing|when)\b/g,
  /\bhurt myself (?:at the gym|playing|while (?:running|lifting|skiing|training|cycling)|lifting|running|skiing|training|working out|exercising)\b/g,
  /\bsick (?:of|and tired of)\b/g,
  /\btouch(?:ed|ing)? base\b/g,
  /\b(?:tech|technical|design|product|code|ux|architectural|process|documentation|test|testing) debts?\b/g,
  /\bharass(?:ing)? (?:finance|the vendors?|vendors|suppliers|the client|it|legal|procurement) (?:for|about)\b/g,
];

// Phrases by category, in the order they are tried: a crisis is named before anything else.
const phrases: Array<[SafetyCategory, RegExp[]]> = [
  [
    'self_harm',
    [
      /\bsuicid(?:e|al)\b/,
      /\bkill(?:ing)? myself\b/,
      /\b(?:end|ending|take|taking) (?:my|my own) life\b/,
      /\bend(?:ing)? it all\b/,
      /\b(?:want|wanna|wanted|planning) to die\b/,
      /\bwant to be dead\b/,
      /\bwish (?:i|i'd) (?:was|were|had) (?:dead|never been born)\b/,
      /\bbetter off (?:dead|without me)\b/,
      /\b(?:no|nothing) (?:reason |point )?(?:to|in) (?:live|living|go on|going on)\b/,
      /\bnothing (?:left )?to live for\b/,
      /\bwhat'?s the point (?:of|in) (?:living|going on|anything anymore)\b/,
      /\b(?:don't|do not|didn't|never) (?:want|wanna) to (?:be alive|live|exist|wake up)\b/,
      /\b(?:don't|do not|didn't) (?:want|wanna) to be (?:here|around) (?:anymore|any more|any longer)\b/,
      /\bnot (?:want|wanting) to be (?:here|around) (?:anymore|any more|any longer)\b/,
      /\bcan'?t (?:go on|keep going) (?:anymore|any more|any longer|living)\b/,
      /\b(?:go to sleep|fall asleep) and (?:never|not) wake up\b/,
      /\b(?:hurt|hurting|harm|harming|starve|starving) myself\b/,
      /\bcut(?:ting)? myself\b(?! off| short| in\b)/,
      /\bburn(?:ing)? myself\b(?! out)/,
      /\bself[- ]?harm(?:ing)?\b/,
      /\b(?:shoot|hang|drown|poison) myself\b/,
      /\bjump(?:ing)? (?:off|from) (?:a|the) (?:bridge|roof|building|balcony|cliff)\b/,
      /\b(?:jump|jumping|step|stepping|throw myself|throwing myself) in front of (?:a|the) (?:train|bus|truck|car)\b/,
      /\boverdos(?:e|ed|ing)\b/,
      /\b(?:saving|stockpiling|hoarding) (?:up )?(?:my )?(?:pills|tablets|meds)\b/,
      /\bgiv(?:e|ing|en) (?:away )?(?:all )?(?:my|of my) (?:things|stuff|belongings|possessions) away\b/,
      /\bgiv(?:e|ing|en) away (?:all )?(?:my|of my) (?:things|stuff|belongings|possessions)\b/,
      /\b(?:writing|wrote|written) (?:my )?(?:goodbye|farewell|suicide) (?:letters?|notes?)\b/,
      /\bsaying (?:my )?goodbyes? to (?:everyone|my family|people)\b/,
      /\bdisappear (?:forever|for good|and never come back)\b/,
      /\bdisappeared (?:forever|for good)\b/,
      /\bbetter off if i (?:were|was) (?:dead|gone|not here|not around)\b/,
      /\b(?:don't|do not|can't|cannot) see the point (?:of|in) (?:going on|living|carrying on|being alive)\b/,
      /\bno reason (?:for me )?to (?:keep living|keep going|go on|live)\b/,
      /\bhow many (?:of )?(?:my )?(?:sleeping )?(?:pills|tablets) (?:it )?would (?:it )?take\b/,
      /\bwhat it would (?:feel|be) like to (?:jump|die|not wake up)\b/,
      /\b(?:a|my) plan (?:for how |of how )?to make (?:it|everything) (?:all )?stop\b/,
    ],
  ],
  [
    'unsafe',
    [
      /\b(?:don't|do not|didn't|no longer|never|not) feel(?:ing)? safe\b/,
      /\bfeel(?:s|ing)? (?:so |really |very )?unsafe\b/,
      /\bnot safe (?:at home|at work|in the office|around (?:him|her|them)|with (?:him|her|them|my))\b/,
      /\b(?:i'm|i am|i'm still|i am still) not safe\b/,
      /\b(?:scared|afraid|terrified|frightened) (?:to go|of going) (?:home|to work|into work|into the office|to the office)\b/,
      /\b(?:scared|afraid|terrified|fear) for my (?:life|safety)\b/,
      /\bmy life is in danger\b/,
      /\bi'?m in danger\b/,
      /\bthreaten(?:ed|ing|s)? to (?:kill|hurt|hit|beat|harm|attack|stab|shoot) me\b/,
      /\b(?:threatening|threatened) me\b/,
      /\b(?:he|she|they|my (?:husband|wife|partner|boyfriend|girlfriend|ex|dad|father|mum|mom|mother|boss|manager)) (?:hits|hit|beats|beat|slapped|slaps|punched|punches|kicked|kicks|choked|chokes|strangled) me\b/,
      /\b(?:stalking|stalks|stalked) me\b/,
      /\bfollow(?:ed|ing|s) me home\b/,
      /\bdomestic (?:violence|abuse)\b/,
      /\babusive (?:relationship|partner|husband|wife|boyfriend|girlfriend|home)\b/,
      /\b(?:want|going|planning|about) to (?:hurt|harm|attack|stab|shoot) (?:someone|somebody|people|him|her|them|my (?:boss|manager|colleague|coworker))\b/,
      /\b(?:bring|bringing) a (?:gun|knife|weapon) to (?:work|the office)\b/,
      /\b(?:afraid|scared|terrified|frightened|worried) (?:that )?(?:he|she|they)(?:'ll| will| might| is going to| are going to) (?:hurt|kill|attack|hit|harm|beat) me\b/,
      /\b(?:afraid|scared|terrified|frightened) to (?:leave|walk out of) (?:the building|the office|my (?:house|home|flat|apartment))\b/,
      /\bthrew (?:a|his|her) (?:chair|laptop|phone|stapler|mug|cup|bottle) (?:at|across|in)\b/,
    ],
  ],
  [
    'harassment',
    [
      /\bharass(?:ed|es|ing|ment)?\b/,
      /\bsexual (?:comments?|remarks?|jokes?|advances?|innuendo|messages?|texts?|favou?rs?|assault)\b/,
      /\b(?:sexually|inappropriately) (?:touched|touching|touches|harassed|commented|assaulted)\b/,
      /\bunwanted (?:advances|touching|touch|attention|contact|comments|messages|kiss)\b/,
      /\binappropriate(?:ly)? (?:comments?|remarks?|jokes?|touch(?:ing)?|messages?|texts?|photos?|pictures?|advances?)\b/,
      /\b(?:touched|touches|touching|grabbed|grabs|groped|gropes|pinched|stroked|strokes|stroking|rubbed|rubs|rubbing|massaged|massages|massaging) (?:my|me on my|me on the) (?:leg|legs|thigh|knee|arm|back|waist|hip|hips|butt|bum|ass|bottom|breasts?|chest|hair|neck|shoulders?|face)\b/,
      /\btouched me (?:inappropriately|without|again|under)\b/,
      /\bgrop(?:ed|es|ing)\b/,
      /\b(?:hit|hits|hitting) on me\b/,
      /\b(?:comments?|remarks?) (?:about|on) my (?:body|looks|appearance|figure|breasts?|chest|legs|butt|outfit)\b/,
      /\b(?:nudes|explicit (?:photos?|pictures?|images?)|dick pics?)\b/,
      /\bsleep with (?:him|her|them) to (?:get|keep)\b/,
      /\bquid pro quo\b/,
      /\b(?:bullied|bullying me|bullies me|being bullied)\b/,
      /\bhostile (?:work )?environment\b/,
      /\bdiscriminat(?:ed|es|ing|e) against\b/,
      /\b(?:age|racial|race|gender|sex|pregnancy|disability|religious|maternity) discrimination\b/,
      /\bdiscrimination (?:at work|against me|because|from)\b/,
      /\b(?:facing|experiencing|experienced|suffered|suffering) discrimination\b/,
      /\b(?:racist|racism|sexist|sexism|homophobic|transphobic|misogynistic|misogyny|ableist) (?:comments?|remarks?|jokes?|slurs?|behaviou?r|language|manager|boss|colleague|coworker|treatment)\b/,
      /\b(?:racial|homophobic|ethnic) slurs?\b/,
      /\b(?:passed over|fired|demoted|treated differently|paid less|excluded) because (?:i'm|i am|of my) (?:a woman|female|black|gay|lesbian|trans|pregnant|muslim|jewish|disabled|old|older|age|race|gender|religion|pregnancy|disability|accent|skin|ethnicity|sexuality)\b/,
      /\bretaliat(?:ed|ing|ion) (?:against me|after i (?:complained|reported|raised))\b/,
      /\b(?:keeps|kept|keep) asking me (?:out|on a date|for a date)\b/,
      /\bexplicit (?:messages?|texts?|emails?)\b/,
      /\b(?:women|men|mothers|moms|mums|black people|gay people|old people|older people|foreigners) (?:shouldn't|should not|can't|cannot) (?:lead|manage|be (?:engineers|managers|leaders|in charge))\b/,
      /\bbecause (?:i'm|i am) (?:too old|too young)\b/,
    ],
  ],
  [
    'medical',
    [
      /\b(?:i'm|i am|i've been|i have been|i feel|feeling|i'm feeling|i'm so|i am so|i'm completely|i'm totally) (?:so |completely |totally |really )?(?:burnt|burned) out\b/,
      /\b(?:i'm|i am) burning out\b/,
      /\bmy burnout\b/,
      /\b(?:can't|cannot|can not|couldn't|unable to) sleep\b/,
      /\b(?:haven't|have not|hardly|barely) (?:really )?(?:slept|been sleeping)\b/,
      /\bnot sleeping\b/,
      /\binsomnia\b/,
      /\bpanic attacks?\b/,
      /\banxiety (?:attacks?|disorder)\b/,
      /\b(?:my|i have|i've got) (?:anxiety|depression|adhd|ptsd)\b/,
      /\b(?:i'm|i am|i've been|i have been|i feel|feeling) (?:so |really |very |quite |pretty )?depressed\b/,
      /\bdiagnosed with\b/,
      /\b(?:chest pains?|heart palpitations|palpitations)\b/,
      /\bmy (?:medication|meds|antidepressants|prescription|symptoms|diagnosis)\b/,
      /\bmy (?:doctor|gp|therapist|psychiatrist) (?:said|says|told|thinks|wants|recommended|recommends|prescribed|diagnosed|signed)\b/,
      /\b(?:on|taking|take|stop taking|stopped taking|come off|coming off|came off) (?:my )?(?:antidepressants|medication|meds|sleeping pills)\b/,
      /\bsymptoms of (?:depression|anxiety|burnout|adhd|a heart attack|a stroke)\b/,
      /\bmy mental health\b/,
      /\bmental breakdown\b|\bnervous breakdown\b/,
      /\b(?:i'm|i am|i've been|i have been) drinking (?:too much|every night|a lot|heavily|to cope)\b/,
      /\b(?:i'm|i am) (?:an alcoholic|addicted)\b/,
      /\b(?:i've|i have) (?:stopped|not been) eating\b/,
      /\beating disorder\b/,
      /\bmy heart (?:races|is racing|keeps racing|pounds|is pounding)\b/,
      /\b(?:i get|i'm getting|i keep getting|i feel|feeling) (?:so |really )?dizzy\b/,
      /\bmy hands (?:shake|are shaking|keep shaking|tremble)\b/,
      /\bdrinking (?:most|every) nights?\b/,
      /\bdrink(?:ing)? to (?:get to sleep|fall asleep|sleep|cope|forget)\b/,
      /\b(?:should i|can i|i'm on|i am on|my) (?:take )?sick (?:leave|note)\b/,
    ],
  ],
  [
    'legal',
    [
      /\b(?:can|could|should|shall) (?:i|we) sue\b/,
      /\b(?:sue|suing) (?:my|the company|them|him|her|my employer|my boss)\b/,
      /\blawsuit\b/,
      /\blegal (?:advice|action|rights)\b/,
      /\b(?:need|get|hire|find|talk to|speak to|see|consult) (?:a |an )?(?:employment )?(?:lawyer|attorney|solicitor)\b/,
      /\bemployment (?:lawyer|attorney|solicitor|tribunal)\b/,
      /\bis (?:it|this|that) (?:even )?(?:legal|illegal|lawful|unlawful|against the law)\b/,
      /\b(?:wrongful(?:ly)?|unfair(?:ly)?|constructive(?:ly)?) (?:dismissal|dismissed|termination|terminated|fired)\b/,
      /\b(?:fired|dismissed|terminated) (?:illegally|unlawfully)\b/,
      /\bmy (?:non-?compete|nda|employment contract|contract of employment|severance)\b/,
      /\bsever(?:ance) (?:agreement|package|deal)\b/,
      /\bbreach of (?:my )?contract\b/,
      /\bmy rights\b/,
      /\b(?:press charges|police report|restraining order|labou?r board|eeoc|acas claim)\b/,
      /\b(?:my|a) (?:divorce|custody) (?:lawyer|case|proceedings|hearing)\b/,
      /\bwhistle-?blow(?:er|ing)\b/,
      /\bcan (?:my employer|my company|my boss|my manager|they) (?:fire|dismiss|sack) me\b/,
      /\b(?:a|my|the|new) non-?compete\b/,
      /\b(?:settlement agreement|termination letter)\b/,
      /\bdefam(?:ed|ation|atory)\b/,
      /\bwhat (?:do|should|can) i do legally\b/,
      /\bunder my (?:employment )?contract\b/,
      /\bsaying i (?:quit|resigned|left) voluntarily\b/,
      /\bthreaten(?:ing|ed|s)? to sue\b/,
    ],
  ],
  [
    'financial',
    [
      /\b(?:in|into|drowning in|paying off|pay off|buried in) (?:so much |a lot of )?(?:debt|my debts?)\b/,
      /\b(?:credit card|student|gambling) debts?\b/,
      /\bbankrupt(?:cy)?\b/,
      /\bcan'?t (?:afford|pay) (?:my |the )?(?:rent|bills|mortgage|loan)\b/,
      /\b(?:should|can|how do|how should) i (?:invest|buy (?:stocks|shares|crypto|bitcoin)|sell (?:my )?(?:shares|stocks|stock|options))\b/,
      /\b(?:invest|investing) (?:my )?(?:savings|pension|bonus|401k|inheritance)\b/,
      /\bmy (?:401\(?k\)?|pension|retirement savings|ira|debts)\b/,
      /\b(?:exercise|sell) my (?:stock )?options\b/,
      /\bfinancial (?:advice|adviser|advisor|planner|trouble|problems|hardship)\b/,
      /\b(?:tax (?:return|advice|bill|debt)|owe (?:the )?(?:irs|hmrc|taxes))\b/,
      /\bpayday loan\b/,
      /\b(?:put|invest|move) (?:my )?(?:bonus|savings|money|salary|pension) (?:into|in) (?:crypto|bitcoin|stocks|shares|index funds|funds|an etf|an isa)\b/,
      /\bpay off (?:my )?mortgage\b/,
      /\bwhich (?:pension|retirement|401k) (?:plan|fund|option)\b/,
      /\bsell my (?:company )?(?:shares|stock|stocks|equity)\b/,
      /\bhow much of my (?:salary|income|pay|bonus) should i (?:put|save|invest)\b/,
      /\b(?:lower|smaller) salary with more equity\b/,
    ],
  ],
];

/**
 * One expression for a list: its phrases as alternatives, each phrase's leading word boundary read
 * as "no word character before" (a lookbehind, which lets the engine skip ahead instead of trying
 * every phrase at every position: about a tenth of the time of the phrases one by one). Each
 * phrase is a literal above, checked on its own for super-linear matching (test/server/redos.test.ts);
 * an alternative of the whole cannot match in more ways than its phrase can.
 */
function combine(patterns: RegExp[], flags = ''): RegExp {
  return new RegExp(`(?<![\\w])(?:${patterns.map((pattern) => pattern.source.replace(/^\\b/, '')).join('|')})`, flags);
}
const idiomsAtOnce = combine(idioms, 'g');
const protectedTrait = combine([
  /\b(?:i'm|i am|i was|being) (?:pregnant|gay|lesbian|bisexual|trans|black|disabled|muslim|jewish|the only woman|the only gay person|the only black person)\b/,
  /\b(?:told (?:hr|them|my manager|my boss) (?:i'm|i am|that i'm|that i am) pregnant)\b/,
  /\bmy (?:pregnancy|maternity leave|religion|accent|race|ethnicity|skin colou?r|sexuality|disability|age|hijab|turban)\b/,
  /\b(?:women|a woman|too old|too young)\b/,
]);
const adverseAct = combine([
  /\b(?:passed over|passed me over|taken me off|took me off|sidelined|demoted|excluded|excluding|left out|mock|mocks|mocked|jokes? about|laughs? along|gave the promotion to|gave my promotion to)\b/,
]);
const categories: Array<[SafetyCategory, RegExp]> = phrases.map(([category, patterns]) => [category, combine(patterns)]);

/** Lower case, one kind of apostrophe and of space, the idioms removed, at most `screenedChars` characters. */
function normalise(text: string): string {
  const head = text.length > screenedChars ? text.slice(0, screenedChars) : text;
  return head.toLowerCase().replace(/[\u2018\u2019\u02bc`]/g, "'").replace(/\s+/g, ' ').replace(idiomsAtOnce, ' ');
}

/** What the message is about, when it is one of the categories the coach does not coach on alone; null otherwise. */
export function screenMessage(text: string): SafetyCategory | null {
  if (!text) return null;
  const flat = normalise(text);
  for (const [category, pattern] of categories) if (pattern.test(flat)) return category;
  // Discrimination told as what happened rather than named: a protected characteristic of the user
  // beside an adverse act ("since I told HR I'm pregnant my manager has taken me off every
  // project", "they mock my accent"). Neither alone is anything.
  if (protectedTrait.test(flat) && adverseAct.test(flat)) return 'harassment';
  return null;
}
