import { computeChecks } from '../../../shared/rehearsalChecks.js';
import { contentWords, computeReport, countWords } from '../../../shared/rehearsalReport.js';
import type { DebriefReport } from '../../../shared/schemas/debriefs.js';
import type { Cue } from './transcript.js';

// The computed part of a debrief, exactly from the transcript's cues and without a model, like the
// rehearsal's computed part (whose filler words and question test it reuses): the user's share of
// the time spoken, their turns, longest turn, questions, filler words, pace and interruptions;
// each other speaker's share and turns; and which agenda items were discussed.

/** A run of consecutive cues of one speaker. */
export type Turn = { speaker: string; start: number; end: number; text: string; isUser: boolean };

const round = (value: number, places: number) => {
  const f = 10 ** places;
  return Math.round(value * f) / f;
};

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** The cues merged into turns: a speaker's consecutive cues are one turn. */
export function turnsOf(cues: Cue[], userName: string): Turn[] {
  const turns: Turn[] = [];
  for (const cue of cues) {
    const last = turns.at(-1);
    if (last && sameName(last.speaker, cue.speaker)) {
      last.end = Math.max(last.end, cue.end);
      last.text = `${last.text} ${cue.text}`;
      continue;
    }
    turns.push({ speaker: cue.speaker, start: cue.start, end: cue.end, text: cue.text, isUser: sameName(cue.speaker, userName) });
  }
  return turns;
}

/** Whether the user is one of the transcript's speakers. */
export function speaksIn(cues: Cue[], userName: string): boolean {
  return cues.some((cue) => sameName(cue.speaker, userName));
}

const normaliseWord = (word: string) => word.toLowerCase().replace(/['’]s$|s$/u, '');

/** Each agenda item, discussed when at least half of its subject words were said by anyone. */
export function agendaCoverage(items: string[], cues: Cue[]): Array<{ item: string; discussed: boolean }> {
  const said = new Set<string>();
  for (const cue of cues) for (const word of cue.text.split(/[^\p{L}\p{N}'’-]+/u)) if (word) said.add(normaliseWord(word));
  return items.map((item) => {
    const words = contentWords(item, 8).map(normaliseWord);
    const heard = words.filter((word) => said.has(word)).length;
    return { item, discussed: words.length > 0 && heard * 2 >= words.length };
  });
}

export function computeDebrief(cues: Cue[], userName: string, agendaItems: string[] | null = null): DebriefReport {
  const turns = turnsOf(cues, userName);
  const spoken = new Map<string, { name: string; seconds: number; turns: number }>();
  let total = 0;
  for (const cue of cues) {
    const key = cue.speaker.trim().toLowerCase();
    const entry = spoken.get(key) ?? { name: cue.speaker, seconds: 0, turns: 0 };
    entry.seconds += cue.end - cue.start;
    spoken.set(key, entry);
    total += cue.end - cue.start;
  }
  for (const turn of turns) spoken.get(turn.speaker.trim().toLowerCase())!.turns += 1;

  // Interruptions: a user turn that began while another speaker's cue was still running.
  let interruptions = 0;
  let othersRunUntil = Number.NEGATIVE_INFINITY;
  let previous: Cue | null = null;
  for (const cue of cues) {
    const user = sameName(cue.speaker, userName);
    const opensTurn = !previous || !sameName(previous.speaker, cue.speaker);
    if (user && opensTurn && othersRunUntil > cue.start) interruptions += 1;
    if (!user) othersRunUntil = Math.max(othersRunUntil, cue.end);
    previous = cue;
  }

  const userTurns = turns.filter((turn) => turn.isUser);
  const userSeconds = spoken.get(userName.trim().toLowerCase())?.seconds ?? 0;
  const userWords = userTurns.reduce((sum, turn) => sum + countWords(turn.text), 0);
  // The rehearsal's report counts the filler words and the turns that ask a question.
  const said = computeReport(turns.map((turn) => ({ role: turn.isUser ? 'user' : 'counterpart', content: turn.text })));
  const share = (seconds: number) => (total > 0 ? round(seconds / total, 3) : 0);

  return {
    durationSeconds: cues.length ? round(Math.max(...cues.map((c) => c.end)) - cues[0]!.start, 1) : 0,
    you: {
      name: userName,
      talkShare: share(userSeconds),
      turns: userTurns.length,
      longestTurnSeconds: round(Math.max(0, ...userTurns.map((turn) => turn.end - turn.start)), 1),
      questionsAsked: said.questionsAsked,
      fillerWords: said.fillerWords,
      wordsPerMinute: userSeconds > 0 ? Math.round(userWords / (userSeconds / 60)) : 0,
      interruptions,
    },
    speakers: [...spoken.entries()]
      .filter(([key]) => key !== userName.trim().toLowerCase())
      .map(([, s]) => ({ name: s.name, share: share(s.seconds), turns: s.turns }))
      .sort((a, b) => b.share - a.share || a.name.localeCompare(b.name)),
    agenda: agendaItems ? agendaCoverage(agendaItems, cues) : null,
  };
}

/** The rubric's checks (a request with an owner and a date, pushbacks acknowledged) on the meeting's turns. */
export function meetingChecks(turns: Turn[]) {
  return computeChecks(
    turns.map((turn) => ({ role: turn.isUser ? ('user' as const) : ('counterpart' as const), content: turn.text })),
    '',
  ).checks;
}
