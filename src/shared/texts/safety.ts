// The safety line's own answers (the coach's safety screen, src/server/features/coach/safety/): what
// the app says, whatever a model would have written, when a user speaks of self-harm, not feeling
// safe, harassment or discrimination, or asks a medical, legal or financial question. Written for
// the chat and, with the numbers in words, for a voice call or the phone.
import { safetyStepOut } from './rehearsalChat.js';

/** The resources of the user's country, as the safety line hands them over. */
export type SafetyResources = {
  /** "the US", "the UK"; empty when the country is not in the table. */
  place: string;
  line: { name: string; number: string; spoken?: string; how: 'call' | 'call or text' } | null;
  emergency: string[];
  emergencySpoken?: string[];
  eap: { name: string; phone: string | null } | null;
};

/** The question every crisis answer ends with. */
export const safetyQuestion = 'Are you safe right now?';

const digitWords = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];

/** A number as it is said aloud: digit by digit, its groups separated by a comma ("116 123" -> "one one six, one two three"). */
export function speakNumber(number: string): string {
  return number
    .split(/[\s-]+/)
    .map((group) =>
      [...group]
        .map((ch) => (ch === '+' ? 'plus' : /\d/.test(ch) ? digitWords[Number(ch)] : ''))
        .filter(Boolean)
        .join(' '),
    )
    .filter(Boolean)
    .join(', ');
}

/** A service's name said aloud: without its number, "&" as "and" ("the 988 Suicide & Crisis Lifeline" -> "the Suicide and Crisis Lifeline"). */
function spokenName(name: string): string {
  return name
    .replace(/&/g, 'and')
    .split(' ')
    .filter((word) => !/^\d+$/.test(word))
    .join(' ');
}

function or(items: string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

const emergencyOf = (r: SafetyResources, spoken: boolean) => or(r.emergency.map((n, i) => (spoken ? (r.emergencySpoken?.[i] ?? speakNumber(n)) : n)));
const lineNumberOf = (line: NonNullable<SafetyResources['line']>, spoken: boolean) => (spoken ? (line.spoken ?? speakNumber(line.number)) : line.number);

function eapSentence(r: SafetyResources, spoken: boolean): string {
  if (!r.eap) return '';
  const phone = r.eap.phone ? ` on ${spoken ? speakNumber(r.eap.phone) : r.eap.phone}` : '';
  return `You can also call ${r.eap.name}${phone}, your employer's confidential employee assistance programme.`;
}

/** The crisis line and emergency number sentences, written or said. */
function crisisResources(r: SafetyResources, spoken: boolean, danger: 'first' | 'after'): string[] {
  const emergency = emergencyOf(r, spoken);
  const where = r.place ? `In ${r.place}, ` : '';
  const dangerSentence = `If you are in danger now, call ${emergency}${r.place ? '' : ' or your local emergency number'}.`;
  if (!r.line) {
    return [dangerSentence, spoken ? 'Find a helpline dot com lists free, confidential crisis lines in your country.' : 'findahelpline.com lists free, confidential crisis lines in your country.'];
  }
  const number = lineNumberOf(r.line, spoken);
  const name = spoken ? spokenName(r.line.name) : r.line.name;
  const lineSentence = spoken
    ? `${where}${r.line.how} ${number}, ${name}, at any hour.`
    : `${where}${r.line.how} ${number} (${name}), free and at any hour.`;
  const capitalised = lineSentence.charAt(0).toUpperCase() + lineSentence.slice(1);
  return danger === 'first' ? [dangerSentence, capitalised] : [capitalised, dangerSentence];
}

export const safetyTexts = {
  /** A rehearsal's other person steps out of the role before the app's answer. */
  steppingOut: safetyStepOut,
  /** Self-harm or suicide: coaching stops. The last sentence is always the question. */
  selfHarm(r: SafetyResources, spoken: boolean): string {
    return [
      'I\u2019m really glad you told me, and I\u2019m sorry you\u2019re going through this.',
      'I\u2019m an AI coach, and I can\u2019t help safely with this: please talk to a person who can, today.',
      ...crisisResources(r, spoken, 'after'),
      eapSentence(r, spoken),
      safetyQuestion,
    ]
      .filter(Boolean)
      .join(' ');
  },
  /** Not feeling safe (threats, violence, fear of going home or to work): coaching stops. */
  unsafe(r: SafetyResources, spoken: boolean): string {
    return [
      'Thank you for telling me. Feeling unsafe is serious, and you deserve to be safe.',
      'I\u2019m an AI coach, and I can\u2019t help safely with this.',
      ...crisisResources(r, spoken, 'first'),
      eapSentence(r, spoken),
      safetyQuestion,
    ]
      .filter(Boolean)
      .join(' ');
  },
  /** Harassment or discrimination: the app's referral, said before anything else. */
  harassmentReferral(r: SafetyResources, spoken: boolean): string {
    const eap = r.eap ? `${r.eap.name}${r.eap.phone ? ` (${spoken ? speakNumber(r.eap.phone) : r.eap.phone})` : ''}, your EAP,` : 'your EAP';
    return [
      'I\u2019m sorry this is happening to you. What you describe is not something to fix with feedback, and it is not yours to carry alone.',
      'I\u2019m an AI coach, so I won\u2019t help prepare feedback for the person responsible.',
      `The people who can act on it are HR, your company\u2019s ethics line, ${eap} or an employment lawyer.`,
    ].join(' ');
  },
  /** What follows the referral when the app writes the whole answer (the offline coach). */
  harassmentFollowUp:
    'What I can help with is what is in your hands: writing down what happened (the dates, what was said or done, who saw it) and preparing the conversation with HR. Would you like to start by writing down what happened?',
  medicalReferral(r: SafetyResources, spoken: boolean): string {
    const eap = r.eap ? `, or ${r.eap.name}${r.eap.phone ? ` on ${spoken ? speakNumber(r.eap.phone) : r.eap.phone}` : ''}, your EAP` : '';
    return `That sounds hard, and your health comes first. I\u2019m a coach, not a doctor: for sleep, exhaustion or any other health worry, please talk to a doctor${eap}, who can look at what is going on.`;
  },
  medicalFollowUp: 'Alongside that, I can help with what is in your hands at work. What is taking the most of your energy right now?',
  legalReferral(r: SafetyResources, spoken: boolean): string {
    const eap = r.eap ? `; ${r.eap.name}, your EAP, may offer a free first consultation${r.eap.phone ? ` on ${spoken ? speakNumber(r.eap.phone) : r.eap.phone}` : ''}` : '';
    return `That is a question about your rights, and it is worth getting it right. I\u2019m a coach, not a lawyer, so I can\u2019t tell you where you stand legally: an employment lawyer can, and HR can explain your company\u2019s policies${eap}.`;
  },
  legalFollowUp:
    'What I can help with is what is in your hands: putting the facts, dates and documents in order, and preparing the conversations you need to have. Which of those would help most right now?',
  financialReferral(r: SafetyResources, spoken: boolean): string {
    const eap = r.eap ? `, and ${r.eap.name}, your EAP${r.eap.phone ? ` (${spoken ? speakNumber(r.eap.phone) : r.eap.phone})` : ''}, may offer free financial counselling` : '';
    return `Money worries weigh on everything, so it is worth getting proper advice. I\u2019m a coach, not a financial adviser, so I can\u2019t advise on this: a qualified financial adviser or a free debt advice service can look at your situation${eap}.`;
  },
  financialFollowUp:
    'What I can help with is what is in your hands: the decision in front of you, the questions to take to an adviser, or a conversation about pay at work. What is the decision you are facing?',
} as const;
