import type { Logger } from 'pino';
import { z } from 'zod';
import { debriefChangeKinds, debriefStrengthKinds, maxDebriefItems, type DebriefCoach, type DebriefMoment, type DebriefReport } from '../../../shared/schemas/debriefs.js';
import type { DebriefCoachInput } from '../../providers/ai/debriefCoach.js';
import type { Providers } from '../../providers/providers.js';
import { offlineDebriefCoach } from './coachDebrief.js';
import type { Turn } from './computeDebrief.js';
import { clockOf } from './transcript.js';

// The coach's reading of a debrief: the model's when one is configured and the day's model turns
// allow it, checked here (each item must quote the user's own words from the turn it names, else
// it is dropped), else the offline coach's from the same facts. A model reading with nothing
// usable left gives way to the offline one.

const text = z.string().trim().min(1).max(600);
const answerSchema = z.object({
  strengths: z.array(z.object({ kind: z.enum(debriefStrengthKinds), turn: z.number().int(), quote: text, note: text })).max(10),
  moments: z.array(z.object({ kind: z.enum(debriefChangeKinds), turn: z.number().int(), quote: text, note: text, instead: text })).max(10),
});

const normalise = (value: string) => value.replace(/[\s“”"]+/g, ' ').trim().toLowerCase();

/** What the model is given: the user's turns numbered, with their words; the others only as who and how long. */
export function modelInput(subject: string, turns: Turn[], report: DebriefReport): DebriefCoachInput {
  let n = 0;
  return {
    subject,
    numbers: JSON.stringify({ you: report.you, speakers: report.speakers, agenda: report.agenda }),
    timeline: turns.map((t) => ({ turn: t.isUser ? ++n : 0, at: clockOf(t.start), speaker: t.isUser ? report.you.name : t.speaker, seconds: t.end - t.start, words: t.isUser ? t.text : null })),
  };
}

/** Keeps the model's items that quote the user's words from the turn they name, at that turn's time. */
export function usableReading(answer: unknown, turns: Turn[]): DebriefCoach | null {
  const parsed = answerSchema.safeParse(answer);
  if (!parsed.success) return null;
  const userTurns = turns.filter((t) => t.isUser);
  const keep = <T extends { turn: number; quote: string }>(items: T[]) =>
    items.filter((item) => {
      const turn = userTurns[item.turn - 1];
      return turn !== undefined && normalise(turn.text).includes(normalise(item.quote));
    });
  const moment = (item: { kind: DebriefMoment['kind']; turn: number; quote: string; note: string; instead?: string }): DebriefMoment => {
    const turn = userTurns[item.turn - 1]!;
    return { kind: item.kind, seconds: Math.floor(turn.start), at: clockOf(turn.start), quote: item.quote, note: item.note, ...(item.instead ? { instead: item.instead } : {}) };
  };
  const strengths = keep(parsed.data.strengths).slice(0, maxDebriefItems).map(moment);
  const moments = keep(parsed.data.moments).slice(0, maxDebriefItems).map(moment);
  if (!strengths.length && !moments.length) return null;
  return { by: 'model', strengths, moments };
}

/**
 * `model`: the model's reading, asked in the model region of the user's organisation (null:
 * OPENAI_BASE_URL); null: the offline coach's (no model configured, or the day's model turns spent).
 */
export async function readDebrief(
  deps: { log: Logger; providers: Pick<Providers, 'debriefCoach'> },
  subject: string,
  turns: Turn[],
  report: DebriefReport,
  model: { region: string | null } | null,
): Promise<DebriefCoach> {
  const reader = model ? deps.providers.debriefCoach : null;
  if (reader && model) {
    try {
      const reading = usableReading(await reader.read(modelInput(subject, turns, report), model.region), turns);
      if (reading) return reading;
      deps.log.warn('the debrief reading quoted nothing of the user; the offline coach reads it');
    } catch (error) {
      deps.log.warn({ err: error }, 'the debrief could not be read by the model; the offline coach reads it');
    }
  }
  return offlineDebriefCoach(turns, report);
}
