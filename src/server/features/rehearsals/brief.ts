import { contentWords } from '../../../shared/rehearsalReport.js';
import type { RehearsalDifficulty } from '../../../shared/schemas/rehearsals.js';
import type { CounterpartBrief } from '../../providers/ai/contract.js';

// The other person's private brief: what they want, fear and believe, and one thing the user may
// not know. Made from the set-up alone, deterministically, so that the person is the same in every
// turn of a rehearsal, in its retries, offline and with a model; the user never sees it (a person
// with a mind of their own, not an echo of how the user framed the situation).

/** The situation's subject in a few of its own words: 'the launch, vendor and date question'. */
export function topicOf(situation: string, name: string): string {
  const words = contentWords(situation, 3, [name]).map((w) => w.toLowerCase());
  if (!words.length) return 'this';
  if (words.length === 1) return `the ${words[0]}`;
  return `the ${words.slice(0, -1).join(', ')} and ${words.at(-1)} question`;
}

// In the person's own voice: the model is given these lines as they are, and the offline
// counterpart says them when the conversation calls for them.
const wants: Record<RehearsalDifficulty, (topic: string) => string> = {
  supportive: (topic) => `I want to sort out ${topic} and keep working well with you.`,
  realistic: (topic) => `I need a way through ${topic} that does not break what I have already promised others.`,
  tough: (topic) => `I need ${topic} not to land on my plate, and I will not commit to anything I cannot control.`,
};
const fears: Record<RehearsalDifficulty, (topic: string) => string> = {
  supportive: (topic) => `I worry that ${topic} means I let you down without noticing.`,
  realistic: (topic) => `I do not want to be blamed for ${topic} in front of others, or to take on more than I can deliver.`,
  tough: (topic) => `I am not going to be the one blamed for ${topic}, or be told what to do without a say in it.`,
};
const believes: Record<RehearsalDifficulty, (topic: string) => string> = {
  supportive: () => 'I think we both want the same outcome, and a clear plan would fix most of it.',
  realistic: (topic) => `From where I sit, ${topic} is more complicated than it looks from your side.`,
  tough: () => 'I have done my part; the real problem lies somewhere else.',
};
// One of these, chosen by the situation's text so that it stays the same for the same set-up.
const unknowns: Array<(topic: string) => string> = [
  (topic) => `My own manager is pressing me hard on ${topic} this month.`,
  (topic) => `I raised ${topic} once before, and I felt nobody listened.`,
  () => 'I have a deadline of my own next week that this would put at risk.',
  () => 'I was not told about part of this until very late myself.',
];

function stableIndex(text: string, size: number): number {
  let hash = 0;
  for (const ch of text) hash = (hash * 31 + (ch.codePointAt(0) ?? 0)) % 1_000_003;
  return hash % size;
}

/** The brief of the person in this set-up. */
export function counterpartBrief(setUp: { counterpartName: string; situation: string; difficulty: RehearsalDifficulty }): CounterpartBrief {
  const topic = topicOf(setUp.situation, setUp.counterpartName);
  return {
    wants: wants[setUp.difficulty](topic),
    fears: fears[setUp.difficulty](topic),
    believes: believes[setUp.difficulty](topic),
    unknown: unknowns[stableIndex(setUp.situation, unknowns.length)]!(topic),
  };
}
