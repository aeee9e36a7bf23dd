import type { MikroORM } from '@mikro-orm/core';
import type { Logger } from 'pino';
import { chatLimits } from '../../../shared/constants.js';
import { chatTexts } from '../../../shared/texts/index.js';
import { Message, type MessageDto, type MessageStatus } from '../../db/entities/Message.js';
import type { User } from '../../db/entities/User.js';
import type { ChatTurn, CoachModel, CoachUser } from '../../providers/ai/types.js';
import { buildCoachContext } from '../coach/coachContext.js';
import type { ChatBus } from './chatBus.js';
import { createReplyStore } from './replyStore.js';

type ActiveReply = { chatId: number; messageId: number; message: MessageDto; controller: AbortController; done: Promise<void> };

export type ReplyRunner = ReturnType<typeof createReplyRunner>;

// Runs the coach's replies in the background: streams the model's text to the chat bus as
// deltas and writes the message once, when it completes, is stopped or fails.
export function createReplyRunner(deps: { orm: MikroORM; chatBus: ChatBus; coach: CoachModel; log: Logger }) {
  const active = new Map<number, ActiveReply>();
  const store = createReplyStore(deps.orm);

  async function run(reply: ActiveReply, user: CoachUser) {
    const { chatId, messageId, controller } = reply;
    const em = deps.orm.em.fork();
    let text = '';
    let seq = 0;
    let status: MessageStatus = 'complete';
    let error: string | undefined;
    try {
      const history = await loadHistory(em, chatId, messageId);
      const latest = [...history].reverse().find((turn) => turn.role === 'user')?.content ?? '';
      const context = await buildCoachContext({ user, history, latestUserMessage: latest, mail: null });
      for await (const delta of deps.coach.stream({ messages: [...context, ...history], user, signal: controller.signal })) {
        if (controller.signal.aborted) break;
        if (!delta) continue;
        text += delta;
        seq += 1;
        deps.chatBus.publish(chatId, { type: 'message.delta', chatId, messageId, seq, text: delta });
      }
      if (controller.signal.aborted) status = 'stopped';
      else if (!text.trim()) text = chatTexts.fallbackReply;
    } catch (cause) {
      if (controller.signal.aborted) {
        status = 'stopped';
      } else {
        status = 'failed';
        error = chatTexts.replyFailed;
        deps.log.warn({ err: cause, chatId, messageId }, 'coach reply failed');
      }
    }
    await finish(em, reply.message, text, status, error);
  }

  // Written without loading the message; replies ending together share one statement (replyStore).
  async function finish(
    em: ReturnType<MikroORM['em']['fork']>,
    reply: MessageDto,
    text: string,
    status: MessageStatus,
    error: string | undefined,
  ) {
    try {
      // Nothing arrived from a failed model: the reply is not kept; the user's message stays.
      const dropped = status === 'failed' && !text;
      const changed = dropped ? await em.nativeDelete(Message, { id: reply.id }) : await store.save(reply.id, text, status);
      if (!changed) return; // the chat was deleted meanwhile
      const message: MessageDto = { ...reply, content: dropped ? '' : text, status };
      deps.chatBus.publish(reply.chatId, { type: 'message.completed', message, ...(error ? { error } : {}) });
    } catch (cause) {
      deps.log.error({ err: cause, chatId: reply.chatId, messageId: reply.id }, 'could not store the coach reply');
    }
  }

  return {
    start(params: { reply: MessageDto; user: User }) {
      const { reply: message } = params;
      const controller = new AbortController();
      const reply: ActiveReply = { chatId: message.chatId, messageId: message.id, message, controller, done: Promise.resolve() };
      const coachUser: CoachUser = { fullName: params.user.fullName, jobTitle: params.user.jobTitle ?? null, company: params.user.company ?? null };
      // A stop asked on another instance reaches the one that runs the reply through the bus.
      const unsubscribe = deps.chatBus.subscribe(reply.chatId, (event) => {
        if (event.type === 'stop' && event.messageId === reply.messageId) controller.abort();
      });
      active.set(reply.chatId, reply);
      reply.done = run(reply, coachUser).finally(() => {
        unsubscribe();
        if (active.get(reply.chatId) === reply) active.delete(reply.chatId);
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
    /** On shutdown: stop every reply and wait until each is stored as stopped. */
    async drain() {
      const replies = [...active.values()];
      for (const reply of replies) reply.controller.abort();
      await Promise.allSettled(replies.map((reply) => reply.done));
      await store.drain();
    },
  };
}

// The conversation for the model: the latest turns, newest kept first within the budget.
async function loadHistory(em: ReturnType<MikroORM['em']['fork']>, chatId: number, replyId: number): Promise<ChatTurn[]> {
  const rows = await em.find(
    Message,
    { chat: chatId, id: { $lt: replyId }, status: { $in: ['complete', 'stopped'] } },
    { orderBy: { id: 'desc' }, limit: chatLimits.historyTurns },
  );
  const turns: ChatTurn[] = [];
  let budget = chatLimits.historyChars;
  for (const row of rows) {
    if (!row.content || row.content.length > budget) break;
    budget -= row.content.length;
    turns.unshift({ role: row.role, content: row.content });
  }
  return turns;
}

// Replies left 'streaming' by a server that stopped abruptly can never finish, and their text was
// never stored: remove them so that the chat accepts messages again (the user's message stays).
export async function settleAbandonedReplies(orm: MikroORM, olderThan: Date): Promise<number> {
  return orm.em.fork().nativeDelete(Message, { status: 'streaming', createdAt: { $lt: olderThan } });
}
