import crypto from 'node:crypto';
import pg from 'pg';
import type { Logger } from 'pino';
import type { ChatDto } from '../../db/entities/Chat.js';
import type { MessageDto } from '../../db/entities/Message.js';

// What subscribers of a chat receive. Deltas carry a per-message sequence number so that a
// resuming client can drop what it already has and never miss a piece.
export type ChatEvent =
  | { type: 'message.created'; message: MessageDto }
  | { type: 'message.snapshot'; message: MessageDto; seq: number }
  | { type: 'message.delta'; chatId: number; messageId: number; seq: number; text: string }
  | { type: 'message.completed'; message: MessageDto; error?: string }
  | { type: 'chat.updated'; chat: ChatDto }
  | { type: 'chat.deleted'; chatId: number };

// Requests between instances (not shown to clients): stop a reply that streams elsewhere.
export type ControlEvent = { type: 'stop'; chatId: number; messageId: number };

type BusEnvelope = { chatId: number; event: ChatEvent | ControlEvent };
type Listener = (event: ChatEvent | ControlEvent) => void;

// The text of every reply that is still streaming, as far as this instance has seen it, so that a
// client that (re)subscribes mid-stream gets a snapshot and then the deltas that follow it.
export type LiveReply = { chatId: number; messageId: number; seq: number; text: string };

const channel = 'ai_coach_chat_events';
// PostgreSQL's NOTIFY payload limit is 8000 bytes; larger events travel as a hint to reload.
const maxNotifyBytes = 7500;

export interface ChatBus {
  publish(chatId: number, event: ChatEvent | ControlEvent): void;
  subscribe(chatId: number, listener: Listener): () => void;
  liveReply(messageId: number): LiveReply | undefined;
  liveRepliesOf(chatId: number): LiveReply[];
  close(): Promise<void>;
}

export function createLocalChatBus(): ChatBus & { deliver: (chatId: number, event: ChatEvent | ControlEvent) => void } {
  const listeners = new Map<number, Set<Listener>>();
  const live = new Map<number, LiveReply>();

  function track(chatId: number, event: ChatEvent | ControlEvent) {
    if (event.type === 'message.created' && event.message.status === 'streaming') {
      live.set(event.message.id, { chatId, messageId: event.message.id, seq: 0, text: event.message.content });
    } else if (event.type === 'message.delta') {
      const reply = live.get(event.messageId);
      if (reply && event.seq === reply.seq + 1) {
        reply.seq = event.seq;
        reply.text += event.text;
      }
    } else if (event.type === 'message.completed') {
      live.delete(event.message.id);
    }
  }

  function deliver(chatId: number, event: ChatEvent | ControlEvent) {
    track(chatId, event);
    const set = listeners.get(chatId);
    if (!set) return;
    for (const listener of [...set]) listener(event);
  }

  return {
    deliver,
    publish: deliver,
    subscribe(chatId, listener) {
      let set = listeners.get(chatId);
      if (!set) listeners.set(chatId, (set = new Set()));
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0) listeners.delete(chatId);
      };
    },
    liveReply: (messageId) => live.get(messageId),
    liveRepliesOf: (chatId) => [...live.values()].filter((reply) => reply.chatId === chatId),
    close: async () => {
      listeners.clear();
      live.clear();
    },
  };
}

// Several instances on one PostgreSQL: events are delivered locally at once and also sent with
// NOTIFY; each instance delivers what the others sent. One connection keeps the order of one
// instance's events (a reply's deltas arrive in order).
export async function createPostgresChatBus(
  databaseUrl: string,
  log: Logger,
  reload: { message: (id: number) => Promise<MessageDto | null> },
): Promise<ChatBus> {
  const local = createLocalChatBus();
  const instanceId = crypto.randomBytes(8).toString('hex');
  let closed = false;
  let client: pg.Client | undefined;
  // Remote events are applied one after another, even when one needs a database read.
  let remoteQueue: Promise<void> = Promise.resolve();

  async function connect(): Promise<void> {
    const next = new pg.Client({ connectionString: databaseUrl });
    next.on('error', (error) => {
      log.warn({ err: error }, 'chat event connection lost; reconnecting');
      void reconnect(next);
    });
    next.on('notification', (notification) => {
      if (notification.channel !== channel || !notification.payload) return;
      const separator = notification.payload.indexOf('|');
      if (notification.payload.slice(0, separator) === instanceId) return;
      const envelope = JSON.parse(notification.payload.slice(separator + 1)) as BusEnvelope | { chatId: number; reloadMessage: number; completed: boolean; error?: string };
      remoteQueue = remoteQueue
        .then(async () => {
          if ('reloadMessage' in envelope) {
            const message = await reload.message(envelope.reloadMessage);
            if (!message) return;
            local.deliver(envelope.chatId, envelope.completed
              ? { type: 'message.completed', message, ...(envelope.error ? { error: envelope.error } : {}) }
              : { type: 'message.created', message });
          } else {
            local.deliver(envelope.chatId, envelope.event);
          }
        })
        .catch((error) => log.error({ err: error }, 'could not apply a chat event from another instance'));
    });
    await next.connect();
    await next.query(`listen ${channel}`);
    client = next;
  }

  async function reconnect(broken: pg.Client) {
    if (closed || client !== broken) return;
    client = undefined;
    await broken.end().catch(() => {});
    for (let attempt = 1; !closed; attempt++) {
      try {
        await connect();
        return;
      } catch (error) {
        log.warn({ err: error, attempt }, 'chat event connection failed');
        await new Promise((resolve) => setTimeout(resolve, Math.min(5000, 200 * attempt)));
      }
    }
  }

  await connect();

  return {
    ...local,
    publish(chatId, event) {
      local.deliver(chatId, event);
      let payload = `${instanceId}|${JSON.stringify({ chatId, event } satisfies BusEnvelope)}`;
      if (Buffer.byteLength(payload) > maxNotifyBytes) {
        if (event.type !== 'message.created' && event.type !== 'message.completed') {
          log.warn({ type: event.type }, 'chat event too large to share between instances');
          return;
        }
        const hint = { chatId, reloadMessage: event.message.id, completed: event.type === 'message.completed', ...(event.type === 'message.completed' && event.error ? { error: event.error } : {}) };
        payload = `${instanceId}|${JSON.stringify(hint)}`;
      }
      client?.query('select pg_notify($1, $2)', [channel, payload]).catch((error) => {
        log.warn({ err: error }, 'could not share a chat event with other instances');
      });
    },
    async close() {
      closed = true;
      await local.close();
      await client?.end().catch(() => {});
    },
  };
}
