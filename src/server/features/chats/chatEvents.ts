import { tracked } from '@trpc/server';
import { Message, type MessageDto } from '../../db/entities/Message.js';
import type { AuthedContext } from '../../trpc/context.js';
import type { ChatEvent, LiveReply } from './chatBus.js';
import { findOwnedChat } from './ownedChat.js';

// Event ids are '<messageId>:<seq>' for a reply's progress and '<messageId>:done' once a message is
// final. A client resuming with lastEventId gets what it missed, once: messages after that point
// from the database, a snapshot of a reply still streaming, then live events.
type Position = { messageId: number; done: boolean; seq: number };

function parsePosition(id: string | null | undefined): Position | null {
  const match = /^(\d+):(done|\d+)$/.exec(id ?? '');
  if (!match) return null;
  return { messageId: Number(match[1]), done: match[2] === 'done', seq: match[2] === 'done' ? Infinity : Number(match[2]) };
}

function snapshotOf(live: LiveReply, stored?: MessageDto): MessageDto {
  return {
    id: live.messageId,
    chatId: live.chatId,
    role: 'assistant',
    content: live.text,
    status: 'streaming',
    createdAt: stored?.createdAt ?? new Date().toISOString(),
  };
}

export async function* chatEvents(
  ctx: AuthedContext,
  input: { chatId: number; lastEventId?: string | null },
  signal: AbortSignal | undefined,
) {
  const { chatBus } = ctx.deps;
  const chat = await findOwnedChat(ctx.em, ctx.user.id, input.chatId);

  // Subscribe first, then read the backlog: nothing can fall between the two.
  const queue: ChatEvent[] = [];
  let wake: (() => void) | undefined;
  const unsubscribe = chatBus.subscribe(chat.id, (event) => {
    if (event.type === 'stop' || event.type === 'sessions.ended' || event.type === 'bus.reconnected') return;
    queue.push(event);
    wake?.();
  });
  const seen = new Map<number, number>(); // messageId -> highest seq delivered (Infinity once final)
  let lastId = input.lastEventId ?? '0:done';
  const emit = (id: string, event: ChatEvent) => {
    lastId = id;
    return tracked(id, event);
  };

  // One listener for the whole subscription (not one per wait): ending it wakes the loop.
  const onAbort = () => wake?.();
  signal?.addEventListener('abort', onAbort, { once: true });

  try {
    const from = parsePosition(input.lastEventId);
    if (from) {
      if (from.done) seen.set(from.messageId, Infinity);
      const backlog = await ctx.em.fork().find(
        Message,
        { chat: chat.id, id: { $gte: from.messageId } },
        { orderBy: { id: 'asc' }, limit: 500 },
      );
      for (const row of backlog) {
        const message = row.toDto();
        if (seen.get(message.id) === Infinity) continue;
        const live = message.status === 'streaming' ? chatBus.liveReply(message.id) : undefined;
        if (message.status === 'streaming') {
          const seq = live?.seq ?? 0;
          seen.set(message.id, seq);
          yield emit(`${message.id}:${seq}`, { type: 'message.snapshot', message: live ? snapshotOf(live, message) : message, seq });
        } else {
          seen.set(message.id, Infinity);
          yield emit(`${message.id}:done`, { type: 'message.completed', message });
        }
      }
    } else {
      // A fresh subscriber sees replies already under way continue.
      for (const live of chatBus.liveRepliesOf(chat.id)) {
        seen.set(live.messageId, live.seq);
        yield emit(`${live.messageId}:${live.seq}`, { type: 'message.snapshot', message: snapshotOf(live), seq: live.seq });
      }
    }

    while (!signal?.aborted) {
      while (queue.length) {
        const event = queue.shift()!;
        switch (event.type) {
          case 'message.created': {
            if (seen.has(event.message.id)) break;
            seen.set(event.message.id, event.message.status === 'streaming' ? 0 : Infinity);
            yield emit(`${event.message.id}:${event.message.status === 'streaming' ? 0 : 'done'}`, event);
            break;
          }
          case 'message.delta': {
            const have = seen.get(event.messageId) ?? 0;
            if (event.seq <= have) break;
            seen.set(event.messageId, event.seq);
            yield emit(`${event.messageId}:${event.seq}`, event);
            break;
          }
          case 'message.completed': {
            if (seen.get(event.message.id) === Infinity) break;
            seen.set(event.message.id, Infinity);
            yield emit(`${event.message.id}:done`, event);
            break;
          }
          case 'chat.deleted':
            yield emit(lastId, event);
            return;
          default:
            yield emit(lastId, event);
        }
      }
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    unsubscribe();
  }
}
