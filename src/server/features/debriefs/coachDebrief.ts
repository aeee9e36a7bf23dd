import { asksQuestion, findFillers } from '../../../shared/rehearsalReport.js';
import { pushesBack } from '../../../shared/rehearsalChecks.js';
import { acknowledges, bestRequest, requestsIn } from '../../../shared/rehearsalMoves.js';
import { maxDebriefItems, type DebriefCoach, type DebriefMoment, type DebriefReport } from '../../../shared/schemas/debriefs.js';
import { debriefTexts } from '../../../shared/texts/debriefs.js';
import type { Turn } from './computeDebrief.js';
import { clockOf } from './transcript.js';

// The offline coach's reading of a debrief, from the same facts a model would get: up to three
// strengths and three moments to do differently, each an observation of the user's own words at
// their time in the meeting (situation, behaviour, impact), and for a moment, what to try instead.
// Other people are named only as who was speaking; their words are never quoted.

/** Over this, a single turn is a monologue. */
export const longTurnSeconds = 90;
/** Under this, a turn that makes a point counts as concise. */
const conciseSeconds = 20;
const maxQuote = 160;

const quoteOf = (text: string) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > maxQuote ? `${flat.slice(0, maxQuote - 1)}…` : flat;
};
const sentencesOf = (text: string) => text.split(/(?<=[.!?])\s+/).map((s) => s.trim()).filter(Boolean);
const firstSentence = (text: string) => sentencesOf(text)[0] ?? text;
const firstName = (name: string) => name.trim().split(/\s+/)[0] ?? name;

/** A sentence with its filler words taken out, as the user might say it. */
export function withoutFillers(sentence: string): string {
  let better = sentence;
  for (const filler of [...findFillers(sentence)].reverse()) better = better.slice(0, filler.start) + better.slice(filler.end);
  better = better.replace(/\s+/g, ' ').replace(/ ([,.!?])/g, '$1').replace(/^[ ,]+/, '').replace(/,\s*,/g, ',').replace(/,\s*([.!?])/g, '$1').trim();
  return better ? better[0]!.toUpperCase() + better.slice(1) : better;
}

function at(turn: Turn, quote: string, kind: DebriefMoment['kind'], note: string, instead?: string): DebriefMoment {
  return { kind, seconds: Math.floor(turn.start), at: clockOf(turn.start), quote, note, ...(instead ? { instead } : {}) };
}

export function offlineDebriefCoach(turns: Turn[], report: DebriefReport): DebriefCoach {
  const t = debriefTexts;
  const strengths: DebriefMoment[] = [];
  const moments: DebriefMoment[] = [];
  const userTurns = turns.filter((turn) => turn.isUser);
  const indexOf = new Map(turns.map((turn, i) => [turn, i]));
  const nextOther = (turn: Turn) => {
    for (let i = indexOf.get(turn)! + 1; i < turns.length; i++) if (!turns[i]!.isUser) return turns[i]!;
    return null;
  };
  // Turns alternate speakers, so the turn before a user's turn is someone else's.
  const previousOther = (turn: Turn) => turns[indexOf.get(turn)! - 1] ?? null;

  // Strengths: an acknowledged pushback, a request for a commitment, an open question, a concise point.
  const acknowledged = userTurns.find((turn) => {
    const before = previousOther(turn);
    return before && !before.isUser && pushesBack(before.text) && acknowledges(turn.text);
  });
  if (acknowledged) {
    const quote = quoteOf(acknowledged.text);
    strengths.push(at(acknowledged, quote, 'acknowledged', t.strength.acknowledged(clockOf(acknowledged.start), quote, firstName(previousOther(acknowledged)!.speaker))));
  }
  // Each strength quotes a turn of its own: a turn that both acknowledged and asked is named once.
  const committed = userTurns.filter((turn) => turn !== acknowledged).map((turn) => ({ turn, request: bestRequest(requestsIn(turn.text)) })).find((x) => x.request?.owner && x.request.date);
  if (committed) {
    const quote = quoteOf(committed.request!.sentence);
    strengths.push(at(committed.turn, quote, 'commitment', t.strength.commitment(clockOf(committed.turn.start), quote)));
  }
  const questions = userTurns.filter((turn) => asksQuestion(turn.text));
  const quoted = (turn: Turn) => turn === acknowledged || turn === committed?.turn;
  // An open question: a sentence asking what, how or why (sentence by sentence, so the test stays linear).
  const asksOpen = (text: string) => sentencesOf(text).some((sentence) => sentence.includes('?') && /\b(?:what|how|why)\b/i.test(sentence));
  const open = questions.filter((turn) => !quoted(turn)).find((turn) => asksOpen(turn.text)) ?? questions.find((turn) => !quoted(turn));
  if (open) {
    const sentence = sentencesOf(open.text).find((s) => s.includes('?')) ?? firstSentence(open.text);
    const quote = quoteOf(sentence);
    const next = nextOther(open);
    strengths.push(at(open, quote, 'question', t.strength.question(clockOf(open.start), quote, next ? firstName(next.speaker) : null)));
  }
  const concise = userTurns.find((turn) => turn.end - turn.start <= conciseSeconds && turn !== open && turn !== committed?.turn && turn !== acknowledged && turn.text.split(/\s+/).length >= 8 && !findFillers(turn.text).length);
  if (concise && strengths.length < maxDebriefItems) {
    const quote = quoteOf(concise.text);
    strengths.push(at(concise, quote, 'concise', t.strength.concise(clockOf(concise.start), quote, concise.end - concise.start)));
  }

  // Moments to do differently, the weightiest first: cutting in, a monologue, fillers, an outsized share.
  let othersRunUntil = Number.NEGATIVE_INFINITY;
  let speaking: Turn | null = null;
  for (const turn of turns) {
    if (turn.isUser && speaking && othersRunUntil > turn.start) {
      const quote = quoteOf(firstSentence(turn.text));
      const who = firstName(speaking.speaker);
      moments.push(at(turn, quote, 'interruption', t.moment.interruption(clockOf(turn.start), quote, who), t.moment.interruptionInstead(who)));
      break;
    }
    if (!turn.isUser && turn.end > othersRunUntil) {
      othersRunUntil = turn.end;
      speaking = turn;
    }
  }
  const longest = [...userTurns].sort((a, b) => b.end - b.start - (a.end - a.start))[0];
  if (longest && longest.end - longest.start > longTurnSeconds) {
    const quote = quoteOf(firstSentence(longest.text));
    moments.push(at(longest, quote, 'longTurn', t.moment.longTurn(clockOf(longest.start), quote, longest.end - longest.start), t.moment.longTurnInstead));
  }
  const filled = userTurns.flatMap((turn) => sentencesOf(turn.text).map((sentence) => ({ turn, sentence, fillers: findFillers(sentence) }))).filter((x) => x.fillers.length);
  filled.sort((a, b) => b.fillers.length - a.fillers.length || a.turn.start - b.turn.start);
  const worst = filled[0];
  if (worst) {
    const quote = quoteOf(worst.sentence);
    const better = withoutFillers(worst.sentence);
    moments.push(at(worst.turn, quote, 'fillers', t.moment.fillers(clockOf(worst.turn.start), quote, [...new Set(worst.fillers.map((f) => f.text.toLowerCase()))]), t.moment.fillersInstead(better)));
  }
  const fair = 1 / (report.speakers.length + 1);
  if (longest && report.speakers.length && report.you.talkShare > Math.min(0.9, fair * 1.5) && !moments.some((m) => m.kind === 'longTurn')) {
    const quote = quoteOf(firstSentence(longest.text));
    moments.push(at(longest, quote, 'talkShare', t.moment.talkShare(clockOf(longest.start), quote, report.you.talkShare, fair), t.moment.talkShareInstead));
  }
  return { by: 'offline', strengths: strengths.slice(0, maxDebriefItems), moments: moments.slice(0, maxDebriefItems) };
}

/** The debrief as the coach's message in the meeting's chat. */
export function debriefMessage(subject: string, report: DebriefReport, coach: DebriefCoach): string {
  const t = debriefTexts;
  const lines = [t.messageHeading(subject), '', t.messageNumbers(report.you)];
  if (coach.strengths.length) lines.push('', `**${t.strengthsHeading}**`, ...coach.strengths.map((s) => `- ${s.note}`));
  if (coach.moments.length) lines.push('', `**${t.momentsHeading}**`, ...coach.moments.map((m) => `- ${m.note} ${m.instead ?? ''}`.trimEnd()));
  lines.push('', t.messageClose, '', `_${t.privateNote}_`);
  return lines.join('\n');
}
