import type { ChatTurn } from '../contract.js';
import { frameworkList } from './frameworks/index.js';
import type { Framework, FrameworkId } from './types.js';

// The conversation is all that is stored, so the state of a running framework is read back from
// it. Every question the coach asks inside a framework carries a visible step marker, e.g.
// "**GROW · Step 2 of 4 · Reality**"; the marker of the last reply says where we are, and the
// user's replies after each marked question are the answers given so far.

export function stepMarker(framework: Framework, stepIndex: number): string {
  const step = framework.steps[stepIndex]!;
  return `**${framework.label} · Step ${stepIndex + 1} of ${framework.steps.length} · ${step.title}**`;
}

const markerPattern = /\*\*([^*\n]{1,200}?) · Step (\d{1,3}) of (\d{1,3}) · [^*\n]{1,200}\*\*/g;

/** The last step marker in a reply: which framework, and which step (0-based). */
export function markerIn(text: string): { framework: FrameworkId; stepIndex: number } | null {
  const last = [...text.matchAll(markerPattern)].at(-1);
  if (!last) return null;
  const framework = frameworkList.find((f) => f.label === last[1]);
  const stepIndex = Number(last[2]) - 1;
  if (!framework || stepIndex < 0 || stepIndex >= framework.steps.length || Number(last[3]) !== framework.steps.length) return null;
  return { framework: framework.id, stepIndex };
}

export type Session = {
  framework: FrameworkId;
  /** The step the latest message answers. */
  stepIndex: number;
  /** For each step, the user's earlier replies to its question(s), oldest first. */
  replies: string[][];
  /** The user's message that started the session (it may already answer some questions). */
  opening: string;
};

/**
 * The running framework session, read from the turns before the latest user message, or null.
 * Going back from the last reply, the session's marked questions have non-increasing step
 * numbers; the walk stops at an unmarked reply, another framework, or a jump up (a restart).
 */
export function readSession(earlierTurns: ChatTurn[]): Session | null {
  const turns = earlierTurns.filter((t) => t.role !== 'system');
  const lastAssistant = turns.findLastIndex((t) => t.role === 'assistant');
  if (lastAssistant < 0) return null;
  const current = markerIn(turns[lastAssistant]!.content);
  if (!current) return null;

  const framework = frameworkList.find((f) => f.id === current.framework)!;
  const replies: string[][] = framework.steps.map(() => []);
  let lowest = current.stepIndex;
  let nextAssistant = turns.length;
  for (let i = lastAssistant; i >= 0; i--) {
    const turn = turns[i]!;
    if (turn.role !== 'assistant') continue;
    const marker = markerIn(turn.content);
    if (!marker || marker.framework !== current.framework || marker.stepIndex > lowest) break;
    lowest = marker.stepIndex;
    // The reply to this question: the user's last message before the coach spoke again.
    const reply = turns.slice(i + 1, nextAssistant).findLast((t) => t.role === 'user');
    if (reply && i !== lastAssistant) replies[marker.stepIndex]!.unshift(reply.content);
    nextAssistant = i;
  }
  const opening = turns.slice(0, nextAssistant).findLast((t) => t.role === 'user')?.content ?? '';
  return { framework: current.framework, stepIndex: current.stepIndex, replies, opening };
}
