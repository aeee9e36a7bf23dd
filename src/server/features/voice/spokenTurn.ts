import type { EntityManager } from '@mikro-orm/core';
import { TRPCError } from '@trpc/server';
import { voiceTexts } from '../../../shared/texts/index.js';
import { Chat } from '../../db/entities/Chat.js';
import { Message } from '../../db/entities/Message.js';
import type { User } from '../../db/entities/User.js';
import type { AppDeps } from '../../deps.js';
import { takeModelTurn, takeUnknownCallerTurn, type ModelTurn } from '../ai/index.js';
import { loadChatRehearsal, loadTurnHistory, runCoachTurn, spokenHistory, spokenTurn, type PreparedTurn, type TurnOutcome } from '../coach/index.js';
import { coachUserOf, turnActivity } from '../coach/index.js';
import { countryOfPhone, loadUserCountry } from '../coach/index.js';
import { consumeChatMessage } from '../limits/index.js';
import { newChatIsTemporary } from '../privacy/index.js';
import { modelRegionOf } from '../../db/organisationPolicy.js';

// The one spoken-turn engine (architecture rule 11): a transcript in, the coach's reply
// streamed out token by token, interruption, the turn saved in the call's chat following the
// user's storeChatHistory, the budgets of a turn, and whose data the speaker may hear. The browser
// call (voice.rest.ts) and the phone (telephony/conversationRelay.ts) are two front ends of it.

/**
 * Who speaks: a signed-in user, whose coach knows them, or an unknown phone caller, who gets the
 * generic coach with nothing of any user in its context.
 */
export type Speaker =
  | { kind: 'user'; user: User; clientIp: string }
  /** `callerNumber`: the number a phone caller calls from, when known (it names their country's crisis line, never who they are). */
  | { kind: 'unknown'; budgetKey: string; callerNumber?: string };

/**
 * Takes the budgets of one turn before anything reaches the model: a user's per-minute chat limit
 * and daily model quota (shared with their chats), an unknown caller's chat limit by number.
 * Throws RateLimitError (429 with Retry-After) when a budget refuses.
 */
export async function takeTurnBudget(deps: Pick<AppDeps, 'config' | 'log' | 'rateLimits'>, speaker: Speaker): Promise<ModelTurn> {
  if (speaker.kind === 'unknown') {
    await deps.rateLimits.chat.consume(speaker.budgetKey);
    return takeUnknownCallerTurn(deps, speaker.budgetKey);
  }
  const ctx = { deps, user: speaker.user, clientIp: speaker.clientIp };
  await consumeChatMessage(ctx);
  return takeModelTurn(ctx);
}

export type SpokenTurnInput = {
  speaker: Speaker;
  /** The call's chat (the speaker's own), null until the first turn creates it. */
  chat: Chat | null;
  /** What the speaker said (the transcript). */
  text: string;
  /** The budget takeTurnBudget took for this turn: given back when the coach fails before a word. */
  budget: ModelTurn;
  /** Aborting stops the model's stream at once (an interruption or a hang-up). */
  signal: AbortSignal;
  /** Each token of the reply as the model writes it. */
  onToken: (token: string) => void;
  /**
   * What the speaker heard of the reply when they interrupted it; read once the stream has ended.
   * Null: all of what was written.
   */
  heard?: () => string | null;
  /** The title of a chat the first turn creates. */
  chatTitle?: (stamp: string) => string;
  /** Which front end the turn came from, for the model-turn metrics (the browser or the phone). */
  path: 'voice' | 'phone';
  /**
   * A speculative turn (the browser's, started at a short pause): nothing is saved here. Aborted,
   * it is discarded; finished, it is held for saveSpokenTurn once the speaker's turn has ended.
   */
  provisional?: boolean;
  /** The turn's preparation, when it was started before the transcript was known. */
  prepared?: PreparedTurn;
};

export type SpokenTurnResult =
  /** The turn was saved; `reply` is what is stored (what was heard when interrupted). */
  | { outcome: 'answered'; chat: Chat | null; messageId: number | null; reply: string; interrupted: boolean }
  /** The model failed before writing anything; the budget was given back and nothing was saved. */
  | { outcome: 'failed' }
  /** A provisional turn given up (the speaker went on speaking): nothing saved; its budget given back if no token was written. */
  | { outcome: 'discarded' }
  /** A provisional turn answered: not saved yet; `cut` when the model broke off. */
  | { outcome: 'held'; reply: string; cut: boolean };

export type { PreparedTurn } from '../coach/index.js';

/**
 * Loads what a turn needs before its transcript is known, so a front end that has the recording
 * can do it while the recording is transcribed (POST /api/voice/turn with audio).
 */
export async function prepareSpokenTurn(deps: Pick<AppDeps, 'replies'>, em: EntityManager, speaker: Speaker, chat: Chat | null): Promise<PreparedTurn> {
  // A rehearsal chat's rehearsal is read once: for the history (its reports left out) and the facts.
  const rehearsal = chat?.isRehearsal ? await loadChatRehearsal(em, chat.id) : null;
  const history = await loadTurnHistory(em, chat?.id ?? null, spokenHistory, undefined, rehearsal);
  const user = speaker.kind === 'user' ? coachUserOf(speaker.user) : { fullName: 'the caller', jobTitle: null, company: null };
  // An unknown caller gets the coach's role only: no name, goals, knowledge base or mail of anyone.
  // A rehearsal chat held by voice: the other person answers, as in its written chat.
  const facts = speaker.kind === 'user' ? await deps.replies.facts(em, speaker.user.id, chat?.isRehearsal ? chat.id : undefined, undefined, rehearsal) : null;
  // The country of the safety line's crisis resources, read only if a turn needs them.
  const country = speaker.kind === 'user' ? () => loadUserCountry(em, speaker.user.id) : async () => countryOfPhone(speaker.callerNumber);
  const region = speaker.kind === 'user' ? await modelRegionOf(em, speaker.user.id) : null;
  return { history, user, facts, country, region };
}

/** Runs one turn (the one coach turn, spoken): streams the reply through onToken and saves it; never throws for a model failure. */
export async function runSpokenTurn(deps: Pick<AppDeps, 'replies' | 'coach' | 'safety' | 'chatBus' | 'log' | 'config'>, em: EntityManager, input: SpokenTurnInput): Promise<SpokenTurnResult> {
  const prepared = input.prepared ?? (await prepareSpokenTurn(deps, em, input.speaker, input.chat));
  return runCoachTurn(deps, {
    kind: spokenTurn(input.path),
    prepared,
    latest: input.text,
    signal: input.signal,
    stallTimeoutMs: deps.config.modelStallTimeoutMs,
    onToken: input.onToken,
    save: (outcome) => settleSpokenTurn(deps, em, input, outcome),
    // A held turn (the browser's, kept once the speaker's turn ends) counts in the call's chat.
    activity:
      input.speaker.kind === 'user'
        ? turnActivity<SpokenTurnResult>(deps, em, input.speaker.user.id, input.path, (saved) =>
            saved.outcome === 'answered' ? (saved.chat?.id ?? null) : saved.outcome === 'held' ? (input.chat?.id ?? null) : null,
          )
        : null,
  });
}

// How a spoken turn is saved: both sides at once, after the turn (or held, for a speculative one).
async function settleSpokenTurn(deps: Pick<AppDeps, 'log' | 'chatBus'>, em: EntityManager, input: SpokenTurnInput, outcome: TurnOutcome): Promise<SpokenTurnResult> {
  const { speaker, chat } = input;
  const reply = outcome.text;
  // A stalled provider broke off like a failing one: what was said is kept, marked cut short.
  const failed = outcome.ended === 'failed' || outcome.ended === 'stalled';
  if (failed) deps.log.warn({ err: outcome.error, ended: outcome.ended }, 'the coach failed on a spoken turn');
  const interrupted = outcome.ended === 'stopped';
  if (input.provisional && interrupted) {
    // The reply nobody asked for after all: the model's request is aborted and nothing is kept.
    // The day's turn comes back only when no token was written (a client cannot take replies
    // for free by leaving after them).
    if (!reply) await input.budget.refund();
    return { outcome: 'discarded' };
  }
  if (failed && !reply.trim()) {
    await input.budget.refund();
    return { outcome: 'failed' };
  }
  if (input.provisional) return { outcome: 'held', reply: reply.trim(), cut: failed };
  const heard = interrupted ? (input.heard?.() ?? reply) : reply;
  if (speaker.kind === 'unknown') return { outcome: 'answered', chat: null, messageId: null, reply: heard.trim(), interrupted };
  const saved = await saveSpokenTurn(deps, em, speaker.user, chat, input.text, heard.trim(), interrupted || failed, input.chatTitle ?? voiceTexts.chatTitle);
  return { outcome: 'answered', chat: saved.chat, messageId: saved.messageId, reply: heard.trim(), interrupted };
}

/** Both sides of a turn in the call's chat (created by the first turn, temporary while storeChatHistory is off). */
export async function saveSpokenTurn(deps: Pick<AppDeps, 'chatBus'>, em: EntityManager, user: User, chat: Chat | null, said: string, reply: string, cut: boolean, title: (stamp: string) => string) {
  const isTemporary = chat === null && (await newChatIsTemporary(em, user.id));
  const saved = await em.transactional(async (tx) => {
    const owned = chat ? tx.merge(chat) : tx.create(Chat, { owner: user.id, title: title(callStamp()), isPinned: false, isTemporary });
    owned.updatedAt = new Date();
    const userMessage = tx.create(Message, { chat: owned, role: 'user', content: said, status: 'complete' });
    // A reply cut short (interrupted, or the model broke off) keeps the words that were said, marked stopped.
    const coachMessage = reply ? tx.create(Message, { chat: owned, role: 'assistant', content: reply, status: cut ? 'stopped' : 'complete' }) : null;
    await tx.flush();
    return { chat: owned, userMessage, coachMessage };
  });
  deps.chatBus.publish(saved.chat.id, { type: 'message.created', message: saved.userMessage.toDto() });
  if (saved.coachMessage) deps.chatBus.publish(saved.chat.id, { type: 'message.created', message: saved.coachMessage.toDto() });
  return { chat: saved.chat, messageId: saved.coachMessage?.id ?? null };
}

/**
 * The speaker interrupted a reply already saved (the model had finished; its speech had not): the
 * stored reply becomes what was heard. Only the owner's coach message, and only a beginning of it
 * (spacing aside): nothing else can be written through this.
 */
export async function recordHeard(deps: Pick<AppDeps, 'chatBus'>, em: EntityManager, userId: number, messageId: number, heard: string): Promise<boolean> {
  const message = await em.findOne(Message, { id: messageId, role: 'assistant', chat: { owner: userId } });
  if (!message) throw new TRPCError({ code: 'NOT_FOUND', message: voiceTexts.turnNotFound });
  const said = heard.replace(/\s+/g, ' ').trim();
  const full = message.content.replace(/\s+/g, ' ').trim();
  if (!full.startsWith(said)) return false;
  if (said === full) return true;
  message.content = said;
  message.status = 'stopped';
  await em.flush();
  deps.chatBus.publish(message.chat.id, { type: 'message.completed', message: message.toDto() });
  return true;
}

function callStamp(): string {
  return `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
