import { hedgesIn, readMove, requestsIn, bestRequest, type UserMove } from '../../../../shared/rehearsalMoves.js';
import { contentWords } from '../../../../shared/rehearsalReport.js';
import { rehearsalTexts } from '../../../../shared/texts/rehearsals.js';
import type { CoachCounterpart, ChatTurn } from '../contract.js';
import type { CoachScope } from './types.js';

// The offline coach playing the other person of a rehearsal (no model): deterministic, in the
// person's own voice and with the situation's own words. It answers what the user just did
// (acknowledged, asked, requested, blamed, hedged: src/shared/rehearsalMoves.ts), not the turn
// number, from the person's private brief (features/rehearsals/brief.ts), and how far the
// conversation has eased or hardened: acknowledgement eases, blame and vagueness harden. Firm, never
// abusive. 'pause' or mild distress steps out of the role for one reply. Never the coach's fallback.

/** The situation's own words that carry its subject: up to three, in the order written. */
export function situationWords(situation: string, name: string): string[] {
  return contentWords(situation, 3, [name]);
}

function topicOf(counterpart: CoachCounterpart): string {
  const words = situationWords(counterpart.situation, counterpart.name).map((w) => w.toLowerCase());
  if (!words.length) return 'this';
  if (words.length === 1) return `the ${words[0]}`;
  return `the ${words.slice(0, -1).join(', ')} and ${words.at(-1)} question`;
}

/** How hard the person is at the start (0 open, 3 dug in), and what each move of the user does to it. */
const startTension = { supportive: 0, realistic: 1, tough: 2 } as const;
const moveEffect: Record<UserMove, number> = { acknowledged: -1, asked: 0, requested: 0, stated: 0, blamed: 1, hedged: 1, paused: 0, distressed: 0 };
const clamp = (n: number) => Math.max(0, Math.min(3, n));

const capital = (text: string) => (text ? text[0]!.toUpperCase() + text.slice(1) : text);

type Scene = { c: CoachCounterpart; topic: string; tension: number; revealed: boolean; times: number; latest: string };

/** The same move met again gets the next line, not the same one. */
const pick = (lines: string[], times: number) => lines[times % lines.length]!;

function acknowledged(s: Scene): string {
  const { brief } = s.c;
  if (!s.revealed) return `${s.tension >= 2 ? 'All right. I appreciate you saying that.' : 'Thank you, that helps.'} I'll be honest with you: ${brief.unknown} ${brief.wants} What do you suggest?`;
  if (s.tension >= 2) return pick([`All right, I hear that. ${brief.believes} So what exactly are you asking me for?`, `Fine, that is fair. ${brief.fears} What would you need from me, and by when?`], s.times);
  return pick([`Thanks. That makes this easier. ${brief.wants} What would you like us to do?`, `I appreciate that. I can work with you on ${s.topic}. What is the first step you have in mind?`], s.times);
}

function asked(s: Scene): string {
  const { brief } = s.c;
  if (!s.revealed) return `${s.tension >= 3 ? 'You really want to know?' : 'Since you ask:'} ${brief.unknown} ${brief.fears}`;
  if (s.tension >= 2) return pick([`${brief.believes} That is my answer. What are you proposing?`, `${brief.fears} So I need to know exactly what you are asking for.`], s.times);
  return pick([`${brief.believes} ${brief.wants}`, `Honestly? ${brief.fears} If we can avoid that, I am open to it.`], s.times);
}

function requested(s: Scene): string {
  const request = bestRequest(requestsIn(s.latest));
  const date = request?.date ?? null;
  if (!request?.owner) return `Who would do that, exactly: you or me?${date ? '' : ' And by when?'}`;
  if (!date) return s.tension >= 2 ? "By when? I am not agreeing to something open-ended." : 'I could do that. By when do you need it?';
  if (s.tension <= 1) return pick([`All right, ${date} works. I can commit to that. Let's write it down so we both remember.`, `Yes, I can agree to that by ${date}. Thank you for being clear about it.`], s.times);
  if (s.tension === 2) return `${capital(date)}? Maybe, but only if you back me up when other work gets in the way. ${s.c.brief.fears}`;
  return `That is a lot to ask. ${s.c.brief.believes} Show me a plan for ${s.topic} first, and then we can talk about ${date}.`;
}

function hedged(s: Scene): string {
  const hedge = hedgesIn(s.latest)[0];
  switch (s.c.difficulty) {
    case 'supportive':
      return pick(["I'm not sure what you're asking me for. What exactly would you like me to do?", "I want to help, but I can't tell what you need from me. Can you say it plainly?"], s.times);
    case 'realistic':
      return pick([`You sound unsure${hedge ? ` ("${hedge}")` : ''}. If you are not sure, I cannot say yes to it. What exactly do you need from me, and by when?`, "I still don't know what you're asking. Give me something specific and I'll give you a straight answer."], s.times);
    case 'tough':
      return pick([`${hedge ? `"${capital(hedge)}"? ` : ''}If you don't know what you want, I'm not signing up for anything. Say it plainly.`, 'That is vague. Come back to me with what you actually want, or we are done here.'], s.times);
  }
}

function blamed(s: Scene): string {
  const { brief } = s.c;
  switch (s.c.difficulty) {
    case 'supportive':
      return pick([`That feels unfair. I want to fix ${s.topic} too, but not if this is about whose fault it is. What happened, exactly?`, "I'd rather we talk about what happened than about me. What did you see?"], s.times);
    case 'realistic':
      return pick([`Hang on, that's not fair. ${brief.believes} Tell me what you actually saw.`, `I don't accept that. ${brief.fears} Give me a specific example.`], s.times);
    case 'tough':
      return pick([`No. I'm not going to take the blame for ${s.topic}. ${brief.believes} If you have a specific example, give it to me.`, "If this is about blaming me, I'm done. Tell me what you want to change, not what you think of me."], s.times);
  }
}

function stated(s: Scene): string {
  const { brief } = s.c;
  if (s.tension === 0) return pick([`Thanks for bringing up ${s.topic} with me. That sounds fair. What would you like us to do about it?`, `I see. ${brief.wants} What do you have in mind?`], s.times);
  if (s.tension === 1) return pick([`I hear you on ${s.topic}, but I am not sure it is that simple. ${brief.believes} What are you asking me for?`, `Maybe, but what happens to what we already committed to if we go ahead with ${s.topic}?`], s.times);
  return pick([`Hold on, let me stop you there. I don't see why ${s.topic} is a problem at all.`, `I have heard that about ${s.topic} before and nothing changed. Why would it be different this time?`, `${brief.believes} What exactly do you want from me?`], s.times);
}

const stepsOut = (text: string) => text.startsWith(rehearsalTexts.stepOutMarker);

/**
 * The counterpart's next line: what the user's latest turn did, read against the person's brief and
 * how the conversation has gone so far. `stepOut` (from the context: 'pause' or distress) leaves
 * the role for this one reply.
 */
export function counterpartReply(counterpart: CoachCounterpart, messages: ChatTurn[], scope: CoachScope, stepOut = false): string {
  const conversation = messages.filter((turn) => turn.role !== 'system');
  const userTurns = conversation.filter((turn) => turn.role === 'user').map((turn) => turn.content.trim());
  const topic = topicOf(counterpart);
  const latest = userTurns.at(-1) ?? '';
  if (!latest) {
    const you = scope.firstName ? `, ${scope.firstName}` : '';
    return `Hi${you}. You wanted to talk about ${topic}?`;
  }
  const move = readMove(latest);
  if (stepOut || move === 'paused' || move === 'distressed') {
    return move === 'distressed' ? rehearsalTexts.stepOutDistress(counterpart.name) : rehearsalTexts.stepOutPause(counterpart.name);
  }
  // Earlier moves set where the person stands now; the latest move is answered from there.
  const earlier = userTurns.slice(0, -1).map(readMove);
  const tension = [...earlier, move].reduce<number>((t, m) => clamp(t + moveEffect[m]), startTension[counterpart.difficulty]);
  const replies = conversation.filter((turn) => turn.role === 'assistant' && !stepsOut(turn.content)).map((turn) => turn.content);
  const revealed = replies.some((reply) => reply.includes(counterpart.brief.unknown));
  const scene: Scene = { c: counterpart, topic, tension, revealed, times: earlier.filter((m) => m === move).length, latest };
  switch (move) {
    case 'acknowledged':
      return acknowledged(scene);
    case 'asked':
      return asked(scene);
    case 'requested':
      return requested(scene);
    case 'hedged':
      return hedged(scene);
    case 'blamed':
      return blamed(scene);
    default:
      return stated(scene);
  }
}
