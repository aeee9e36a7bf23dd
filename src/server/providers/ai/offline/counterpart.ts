import { contentWords } from '../../../../shared/rehearsalReport.js';
import type { CoachCounterpart } from '../../../features/coach/facts.js';
import type { ChatTurn } from '../types.js';
import type { CoachScope } from './types.js';

// The offline coach playing the other person of a rehearsal (no model): deterministic replies by
// difficulty, in the counterpart's name and with the situation's own words, so the user can
// practise the shape of the conversation without a model. Never the coach's fallback line.

/** The situation's own words that carry its subject: up to three, in the order written. */
export function situationWords(situation: string, name: string): string[] {
  return contentWords(situation, 3, [name]);
}

function topicOf(counterpart: CoachCounterpart): string {
  const words = situationWords(counterpart.situation, counterpart.name);
  if (!words.length) return 'this';
  if (words.length === 1) return `the ${words[0]}`;
  return `the ${words.slice(0, -1).join(', ')} and ${words.at(-1)} question`;
}

const asksQuestion = (text: string) => text.includes('?');

const lines = {
  supportive: [
    (t: string) => `Thanks for bringing up ${t} with me. That sounds fair. What would you like us to do about it?`,
    (t: string) => `That is a good point about ${t}. I can work with that. What is the first step you have in mind?`,
    () => `I agree, let's do it that way. Shall we put a date on it?`,
    () => `Sounds good to me. Thanks for being straight with me.`,
  ],
  realistic: [
    (t: string) => `I hear you on ${t}, but I am not sure it is that simple. What changed since we last talked about it?`,
    (t: string) => `Maybe, but what happens to what we already committed to if we go ahead with ${t}?`,
    () => `I can see the reasoning. I would still need to see how this works in practice before I say yes.`,
    () => `All right, that answers my concern. Let's agree on the next step and check in next week.`,
  ],
  tough: [
    (t: string) => `Hold on, let me stop you there. I don't see why ${t} is a problem at all.`,
    (t: string) => `No. I have heard that about ${t} before and nothing changed. Why would it be different this time?`,
    () => `Fine. If you can show me it works, I will consider it. That is all I am committing to.`,
    () => `We'll see. Send it to me in writing.`,
  ],
} as const;

/** The counterpart's next line: by the user's turn count, the difficulty and what they just said. */
export function counterpartReply(counterpart: CoachCounterpart, messages: ChatTurn[], scope: CoachScope): string {
  const conversation = messages.filter((turn) => turn.role !== 'system');
  const userTurns = conversation.filter((turn) => turn.role === 'user');
  const topic = topicOf(counterpart);
  const speaker = counterpart.name;
  const latest = userTurns.at(-1)?.content.trim() ?? '';
  if (!latest) {
    const you = scope.firstName ? `, ${scope.firstName}` : '';
    return `${speaker}: Hi${you}. You wanted to talk about ${topic}?`;
  }
  const script = lines[counterpart.difficulty];
  const index = Math.min(userTurns.length - 1, script.length - 1);
  let reply: string = script[index]!(topic);
  // A question gets an answer before the scripted move; a tough counterpart does not volunteer one.
  if (asksQuestion(latest) && counterpart.difficulty !== 'tough' && index < script.length - 1) {
    reply = `${counterpart.difficulty === 'supportive' ? 'Good question.' : 'Fair question, and I do not have a full answer yet.'} ${reply}`;
  }
  return `${speaker}: ${reply}`;
}
