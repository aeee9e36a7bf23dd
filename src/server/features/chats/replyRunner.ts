import type { EntityManager, MikroORM } from '@mikro-orm/core';
import type { Logger } from 'pino';
import { chatTexts } from '../../../shared/texts/index.js';
import { Message, type MessageDto, type MessageStatus } from '../../db/entities/Message.js';
import type { User } from '../../db/entities/User.js';
import type { Rehearsal } from '../../db/entities/Rehearsal.js';
import type { CoachModel, CoachUser, CoachFacts, FactSources } from '../../providers/ai/contract.js';
import { chatTurn, loadChatRehearsal, loadTurnHistory, runCoachTurn, turnActivity, type PreparedTurn, type TurnOutcome } from '../coach/index.js';
import { loadUserCountry, type SafetyLine } from '../coach/index.js';
import type { ChatBus } from './chatBus.js';
import { createReplyStore } from './replyStore.js';
import { modelRegionOf } from '../../db/organisationPolicy.js';

// While a reply runs, its text so far is written every interval (status still 'streaming'), even
// when no text came: a server killed mid-reply loses at most this much, and the write is the
// reply's heartbeat. One not written for a while is orphaned and settled (orphanedReplies.ts).
export const replyCheckpointMs = 1_000;
// The heartbeat looks this often for replies due a checkpoint. Each reply is due one interval after
// its own last write, so replies that started at different moments are written at different
// moments: 200 replies are 20 small statements a second, not one 200-row statement whose burst of
// database work delays every stream's tokens (bench/results/chat-stream.md).
const heartbeatTickMs = replyCheckpointMs / 10;

type ActiveReply = {
  chatId: number;
  messageId: number;
  message: MessageDto;
  controller: AbortController;
  done: Promise<void>;
  text: string;
  /** When the reply was last written (created, or its latest checkpoint began), performance.now(). */
  writtenAt: number;
  /** The checkpoint being written, if any. */
  checkpoint?: Promise<unknown>;
  /** Set once the reply is being finished: no checkpoint may follow its final write. */
  finishing: boolean;
};
type EntityManagerFork = ReturnType<MikroORM['em']['fork']>;
/** Work after a reply completed (memory extraction): in the background, never delaying the reply. */
export type AfterReply = (done: { userId: number; chatId: number; replyId: number }) => Promise<unknown>;
/** What the coach may know of the user beyond their name (loadCoachFacts in src/server/coachFacts.ts). */
/** `rehearsal`: the chat's rehearsal when the turn has read it already (null: the chat holds none). */
export type FactsFor = (em: EntityManager, userId: number, chatId?: number, sources?: FactSources, rehearsal?: Rehearsal | null) => Promise<CoachFacts>;

export type ReplyRunner = ReturnType<typeof createReplyRunner>;

// Runs the coach's replies in the background: streams the model's text to the chat bus as
// deltas and writes the message once, when it completes, is stopped or fails.
export function createReplyRunner(deps: {
  orm: MikroORM;
  chatBus: ChatBus;
  coach: CoachModel;
  /** The safety line every reply passes (the built-in one when absent). */
  safety?: SafetyLine;
  log: Logger;
  facts: FactsFor;
  afterReply?: AfterReply;
  stallTimeoutMs?: number;
}) {
  // Background work after replies, kept so tests and shutdown can wait for it (settled()).
  const afterWork = new Set<Promise<unknown>>();
  function startAfterReply(done: Parameters<AfterReply>[0]) {
    if (!deps.afterReply) return;
    const work = deps.afterReply(done)
      .catch((cause) => deps.log.warn({ err: cause, chatId: done.chatId, messageId: done.replyId }, 'work after the reply failed'))
      .finally(() => afterWork.delete(work));
    afterWork.add(work);
  }
  const stallTimeoutMs = deps.stallTimeoutMs ?? 60_000;
  const active = new Map<number, ActiveReply>();
  const store = createReplyStore(deps.orm);

  // One timer checkpoints the replies running here that are due; those due in the same tick share
  // one statement (replyStore). No query per token.
  let heartbeat: NodeJS.Timeout | undefined;
  function checkpointDue() {
    const now = performance.now();
    for (const reply of active.values()) {
      if (reply.finishing || reply.checkpoint || now - reply.writtenAt < replyCheckpointMs) continue;
      reply.writtenAt = now;
      reply.checkpoint = store
        .save(reply.messageId, reply.text, 'streaming')
        .then((stored) => {
          // Gone (chat deleted) or settled as orphaned by another instance: not ours to finish.
          if (!stored && !reply.finishing) {
            deps.log.warn({ chatId: reply.chatId, messageId: reply.messageId }, 'coach reply settled elsewhere; stopped here');
            reply.controller.abort();
          }
        })
        .catch((cause) => deps.log.warn({ err: cause, chatId: reply.chatId, messageId: reply.messageId }, 'could not checkpoint the coach reply'))
        .finally(() => {
          reply.checkpoint = undefined;
        });
    }
  }
  function updateHeartbeat() {
    if (active.size && !heartbeat) {
      heartbeat = setInterval(checkpointDue, heartbeatTickMs);
      heartbeat.unref();
    } else if (!active.size && heartbeat) {
      clearInterval(heartbeat);
      heartbeat = undefined;
    }
  }

  async function run(reply: ActiveReply, user: CoachUser, userId: number, sources: FactSources | undefined) {
    const { chatId, messageId, controller } = reply;
    const em = deps.orm.em.fork();
    let prepared: PreparedTurn;
    try {
      // The chat's rehearsal is read once: for the history (its reports left out) and the facts.
      const rehearsal = await loadChatRehearsal(em, chatId);
      const history = await loadTurnHistory(em, chatId, chatTurn.history, messageId, rehearsal);
      prepared = { history, user, facts: await deps.facts(em, userId, chatId, sources, rehearsal), country: () => loadUserCountry(em, userId), region: await modelRegionOf(em, userId) };
    } catch (cause) {
      // What the coach needs could not be read: the reply fails like a failed model (settle logs it).
      return settle(reply, em, userId, { ended: 'failed', text: '', error: cause });
    }
    let seq = 0;
    await runCoachTurn(deps, {
      kind: chatTurn,
      prepared,
      signal: controller.signal,
      // A provider that sends nothing for MODEL_STALL_TIMEOUT_SECONDS is stopped: the text so far
      // is kept and the user told, instead of a reply that streams forever.
      stallTimeoutMs,
      onToken: (delta) => {
        reply.text += delta;
        seq += 1;
        deps.chatBus.publish(chatId, { type: 'message.delta', chatId, messageId, seq, text: delta });
      },
      save: (outcome) => settle(reply, em, userId, outcome),
      activity: turnActivity(deps, em, userId, 'chat', () => chatId),
    });
  }

  // How the chat saves a turn: the reply row written once more with its final text and status.
  async function settle(reply: ActiveReply, em: EntityManagerFork, userId: number, outcome: TurnOutcome) {
    const { chatId, messageId } = reply;
    let status: MessageStatus = 'complete';
    let error: string | undefined;
    if (outcome.ended === 'stopped') status = 'stopped';
    else if (outcome.ended === 'stalled') {
      [status, error] = stalled(reply.text);
      deps.log.warn({ chatId, messageId, stallTimeoutMs }, 'coach reply stalled; stopped');
    } else if (outcome.ended === 'failed') {
      status = 'failed';
      error = chatTexts.replyFailed;
      if (outcome.error) deps.log.warn({ err: outcome.error, chatId, messageId }, 'coach reply failed');
    } else if (!reply.text.trim()) reply.text = chatTexts.fallbackReply;
    // The final write must come after the last checkpoint, never in the same statement.
    reply.finishing = true;
    await reply.checkpoint;
    const stored = await finish(em, reply.message, reply.text, status, error);
    if (stored && status === 'complete') startAfterReply({ userId, chatId, replyId: messageId });
  }

  // A stalled reply keeps what arrived (as stopped); with nothing, it fails like any failure.
  function stalled(text: string): [MessageStatus, string] {
    return text ? ['stopped', chatTexts.replyStalled] : ['failed', chatTexts.replyStalled];
  }

  // Written without loading the message; replies ending together share one statement (replyStore).
  async function finish(
    em: ReturnType<MikroORM['em']['fork']>,
    reply: MessageDto,
    text: string,
    status: MessageStatus,
    error: string | undefined,
  ): Promise<boolean> {
    try {
      // Nothing arrived from a failed model: the reply is not kept; the user's message stays.
      const dropped = status === 'failed' && !text;
      const changed = dropped ? await em.nativeDelete(Message, { id: reply.id }) : await store.save(reply.id, text, status);
      if (!changed) return false; // the chat was deleted meanwhile, or the reply was settled elsewhere
      const message: MessageDto = { ...reply, content: dropped ? '' : text, status };
      deps.chatBus.publish(reply.chatId, { type: 'message.completed', message, ...(error ? { error } : {}) });
      return !dropped;
    } catch (cause) {
      deps.log.error({ err: cause, chatId: reply.chatId, messageId: reply.id }, 'could not store the coach reply');
      return false;
    }
  }

  return {
    /** What the coach may know for a turn: the one loader every channel's turn reads (a chat's reply here, a spoken turn in features/voice). */
    facts: deps.facts,
    /** `sources`: what the coach may read beyond the user's own data (an API key's scopes decide); all when absent. */
    start(params: { reply: MessageDto; user: User; sources?: FactSources }) {
      const { reply: message } = params;
      const controller = new AbortController();
      const reply: ActiveReply = { chatId: message.chatId, messageId: message.id, message, controller, done: Promise.resolve(), text: '', writtenAt: performance.now(), finishing: false };
      const coachUser: CoachUser = { fullName: params.user.fullName, jobTitle: params.user.jobTitle ?? null, company: params.user.company ?? null };
      // A stop asked on another instance reaches the one that runs the reply through the bus.
      const unsubscribe = deps.chatBus.subscribe(reply.chatId, (event) => {
        if (event.type === 'stop' && event.messageId === reply.messageId) controller.abort();
      });
      active.set(reply.chatId, reply);
      updateHeartbeat();
      reply.done = run(reply, coachUser, params.user.id, params.sources).finally(() => {
        unsubscribe();
        if (active.get(reply.chatId) === reply) active.delete(reply.chatId);
        updateHeartbeat();
      });
    },
    /** Stops the reply running in a chat on this instance; false when none runs here. */
    stop(chatId: number): boolean {
      const reply = active.get(chatId);
      if (!reply) return false;
      reply.controller.abort();
      return true;
    },
    running: () => active.size,
    /** Resolves once the replies running now, and the work after them (memories), are done. */
    async settled() {
      await Promise.allSettled([...active.values()].map((reply) => reply.done));
      while (afterWork.size) await Promise.allSettled([...afterWork]);
    },
    /** The ids of the replies running here: never orphaned, whatever their last write. */
    runningIds: () => [...active.values()].map((reply) => reply.messageId),
    /** On shutdown: stop every reply and wait until each is stored as stopped. */
    async drain() {
      const replies = [...active.values()];
      for (const reply of replies) reply.controller.abort();
      await Promise.allSettled(replies.map((reply) => reply.done));
      await Promise.allSettled([...afterWork]);
      clearInterval(heartbeat);
      heartbeat = undefined;
      await store.drain();
    },
  };
}
