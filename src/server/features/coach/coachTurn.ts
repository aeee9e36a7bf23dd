import type { EntityManager } from '@mikro-orm/core';
import { chatLimits } from '../../../shared/constants.js';
import { Message } from '../../db/entities/Message.js';
import { Rehearsal } from '../../db/entities/Rehearsal.js';
import type { ChatTurn, CoachModel, CoachRequest, CoachUser, CoachFacts } from '../../providers/ai/contract.js';
import { streamModel, type ModelStream } from './modelStream.js';
import { assembleCoachContext } from './coachContext.js';
import { defaultSafetyLine, type SafetyCategory, type SafetyLine } from './safety/index.js';
import type { TurnActivity } from './coachingActivity.js';

// One coach turn, whoever asks: the chat's reply runner, the browser's voice call and the phone
// (and the turns to come: rehearsal, nudges). A turn loads the conversation so far, builds the
// coach's context from the facts it is handed, streams the reply, watches for a stalled provider
// and hands the outcome to the caller's save. What differs between callers is stated once, in a
// TurnKind; how a turn is saved is the caller's `save`.

/** How much of the conversation the coach hears again: the latest turns within a character budget. */
export type HistoryWindow = { turns: number; chars: number };

/** What differs between kinds of turn, stated once per kind. */
export type TurnKind = {
  /** Where the turn comes from, for the model-turn metrics. */
  path: NonNullable<CoachRequest['path']>;
  /** A spoken reply: 2 to 3 short sentences without formatting. */
  spoken: boolean;
  history: HistoryWindow;
};

/** A reply in the chat: the longest memory of the conversation. */
export const chatTurn: TurnKind = { path: 'chat', spoken: false, history: { turns: chatLimits.historyTurns, chars: chatLimits.historyChars } };

/**
 * A spoken reply (browser call or phone): half the chat's turns, so the model starts speaking
 * sooner; the same character budget.
 */
export const spokenHistory: HistoryWindow = { turns: 20, chars: chatLimits.historyChars };
export const spokenTurn = (path: 'voice' | 'phone'): TurnKind => ({ path, spoken: true, history: spokenHistory });

/**
 * The rehearsal held in the chat (null for any other chat), read once for a turn: its history
 * leaves out its reports (loadTurnHistory) and its counterpart answers (the facts).
 */
export function loadChatRehearsal(em: EntityManager, chatId: number | null): Promise<Rehearsal | null> {
  return chatId === null ? Promise.resolve(null) : em.findOne(Rehearsal, { chat: chatId });
}

/**
 * The conversation for the model: the latest turns of the chat before `beforeId` (all when
 * absent), newest kept first within the window. `rehearsal`: the chat's rehearsal when the caller
 * has read it already (loadChatRehearsal; null: the chat holds none), else it is read here. Only what the coach and the user really said:
 * complete and stopped messages with text; a failed reply (an error, not an answer) and a reply
 * still being written are left out, and an empty turn is skipped, not the end of the history.
 */
export async function loadTurnHistory(
  em: EntityManager,
  chatId: number | null,
  window: HistoryWindow,
  beforeId?: number,
  rehearsal?: Pick<Rehearsal, 'reportMessageIds'> | null,
): Promise<ChatTurn[]> {
  if (chatId === null) return [];
  // In a rehearsal chat the other person answers: the reports posted into the chat as the coach's
  // messages are not part of the conversation they had, and they never hear them (a rehearsal
  // continued after its report would otherwise play on with the coach's verdict in its history).
  const held = rehearsal !== undefined ? rehearsal : await em.findOne(Rehearsal, { chat: chatId }, { fields: ['reportMessageIds'] });
  const leaveOut = held?.reportMessageIds ?? [];
  const ids = { ...(beforeId !== undefined ? { $lt: beforeId } : {}), ...(leaveOut.length ? { $nin: leaveOut } : {}) };
  const rows = await em.find(
    Message,
    { chat: chatId, ...(Object.keys(ids).length ? { id: ids } : {}), status: { $in: ['complete', 'stopped'] }, content: { $ne: '' } },
    { orderBy: { id: 'desc' }, limit: window.turns },
  );
  const turns: ChatTurn[] = [];
  let budget = window.chars;
  for (const row of rows) {
    if (row.role === 'system' || !row.content.trim()) continue;
    if (row.content.length > budget) break;
    budget -= row.content.length;
    turns.unshift({ role: row.role, content: row.content });
  }
  return turns;
}

/** What a turn needs besides the latest message; loadable before it is known (a recording being transcribed). */
export type PreparedTurn = {
  history: ChatTurn[];
  /** Who the coach speaks to (the offline coach's personal touch); null: nobody known. */
  user: CoachUser;
  /** What the features hand the coach; null for a speaker nobody knows (the generic coach). */
  facts: CoachFacts | null;
  /**
   * The user's country for the safety line's crisis resources, read only when an answer needs it
   * (safety/country.ts); absent or null: the operator's default country.
   */
  country?: () => Promise<string | null>;
  /** The model region of the user's organisation (OPENAI_REGIONS' name); absent or null: OPENAI_BASE_URL. */
  region?: string | null;
};

const noCountry = async () => null;

/** What the coach said just before the user's latest message, if anything. */
export function previousReply(messages: ChatTurn[]): string | undefined {
  const before = messages[messages.findLastIndex((turn) => turn.role === 'user') - 1];
  return before?.role === 'assistant' ? before.content : undefined;
}

/**
 * How a turn ended. 'stopped': the caller aborted it (stop button, interruption, hang-up);
 * 'stalled': the provider sent nothing for the stall timeout; 'failed': the provider failed.
 * `text` is what arrived before the end.
 */
export type TurnOutcome = { ended: 'complete' | 'stopped' | 'stalled' | 'failed'; text: string; error?: unknown };

export type CoachTurnInput<Saved> = {
  kind: TurnKind;
  prepared: PreparedTurn;
  /**
   * The user's latest message. Absent when it is already the last turn of the history (the chat
   * stores it before the reply starts); given for a spoken turn, saved with the reply.
   */
  latest?: string;
  /** Aborting stops the model's request at once. */
  signal: AbortSignal;
  /** A provider that sends nothing for this long is stopped (the outcome says 'stalled'). */
  stallTimeoutMs: number;
  /** Each piece of the reply as the model writes it. */
  onToken(delta: string): void;
  /** Stores the outcome as the caller stores turns; its result is the turn's result. */
  save(outcome: TurnOutcome): Promise<Saved>;
  /**
   * Counts the turn for the organisation's analytics once saved (coachingActivity.ts: its session
   * and the coach's topic labels, never its words); null: a turn of nobody's (an unknown caller).
   */
  activity: TurnActivity<Saved> | null;
};

/**
 * Runs one turn: the safety line, context, stream, stall watch, save. A provider failure is an
 * outcome, never a throw. The safety line screens the latest message before anything else: a
 * crisis is answered by the app alone (no context is read, no model asked); a referral comes
 * before the model's reply (safety/safetyLine.ts). `deps.safety` is the configured line; without
 * one the built-in table answers: no turn goes unscreened.
 */
export async function runCoachTurn<Saved>(deps: { coach: CoachModel; safety?: SafetyLine }, input: CoachTurnInput<Saved>): Promise<Saved> {
  const { kind, prepared, signal, stallTimeoutMs } = input;
  const messages: ChatTurn[] = input.latest === undefined ? prepared.history : [...prepared.history, { role: 'user', content: input.latest }];
  const latest = input.latest ?? prepared.history.findLast((turn) => turn.role === 'user')?.content ?? '';
  let text = '';
  let outcome: TurnOutcome;
  let answeredBySafety = false;
  // The model's stream, with the stall watch (modelStream.ts), once the safety line asks for it.
  let model: ModelStream | undefined;
  // The model's side of the turn, started only when the safety line asks for it: the context is
  // assembled then, and the stall watch runs from then on.
  async function* askModel(safety: SafetyCategory | undefined): AsyncIterable<string> {
    const context = await assembleCoachContext({
      user: prepared.facts ? prepared.user : null,
      history: messages,
      latestUserMessage: latest,
      facts: prepared.facts,
      spoken: kind.spoken,
    });
    model = streamModel(deps.coach, { context, messages, user: prepared.user, signal, path: kind.path, region: prepared.region ?? null, ...(safety ? { safety } : {}) }, stallTimeoutMs);
    yield* model;
  }
  const stalled = () => model?.stalled === true;
  try {
    const reply = (deps.safety ?? defaultSafetyLine).reply(
      { latest, previous: previousReply(messages), role: prepared.facts?.rehearsal ? 'counterpart' : 'coach', spoken: kind.spoken, country: prepared.country ?? noCountry, modelKind: deps.coach.kind },
      askModel,
    );
    answeredBySafety = reply.category !== null;
    for await (const delta of reply.deltas) {
      if (signal.aborted || stalled()) break;
      if (!delta) continue;
      text += delta;
      input.onToken(delta);
    }
    outcome = { ended: signal.aborted ? 'stopped' : stalled() ? 'stalled' : 'complete', text };
  } catch (error) {
    // A stall is its own outcome (what arrived is kept), not a failure.
    outcome = signal.aborted ? { ended: 'stopped', text, error } : stalled() ? { ended: 'stalled', text } : { ended: 'failed', text, error };
  }
  const saved = await input.save(outcome);
  await input.activity?.record(latest, answeredBySafety, saved);
  return saved;
}
