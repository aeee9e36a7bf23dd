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
export type ControlEvent =
  | { type: 'stop'; chatId: number; messageId: number }
  // Sessions that ended (logout, sign-out elsewhere, expiry): every instance forgets them.
  | { type: 'sessions.ended'; sessionIds: string[] }
  // This instance's event connection dropped and is back: events of other instances may have
  // been missed, so what depends on them re-reads the database.
  | { type: 'bus.reconnected' };

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

export function createLocalChatBus(): ChatBus & {
  deliver: (chatId: number, event: ChatEvent | ControlEvent) => void;
  subscribedChats: () => number[];
} {
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
    subscribedChats: () => [...listeners.keys()],
    publish: deliver,
    subscribe(chatId, listener) {
      let set = listeners.get(chatId);
      if (!set) {
        set = new Set();
        listeners.set(chatId, set);
      }
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
// NOTIFY; each instance delivers what the others sent. Events published in the same tick travel
// together (a payload holds a list), so a busy instance sends a few NOTIFYs a tick rather than one
// per token. One connection keeps the order of one instance's events.
type Shared = BusEnvelope | { chatId: number; reloadMessage: number; completed: boolean; error?: string };

export async function createPostgresChatBus(
  databaseUrl: string,
  log: Logger,
  reload: {
    message: (id: number) => Promise<MessageDto | null>;
    /** A chat's messages created since `since`, plus those of `ids` (replies that were streaming). */
    messagesSince: (chatId: number, since: Date, ids: number[]) => Promise<MessageDto[]>;
  },
  options: { reconnectDelayMs?: number } = {},
): Promise<ChatBus> {
  const local = createLocalChatBus();
  const instanceId = crypto.randomBytes(8).toString('hex');
  let closed = false;
  let client: pg.Client | undefined;
  // Remote events are applied one after another, even when one needs a database read.
  let remoteQueue: Promise<void> = Promise.resolve();
  let outbox: string[] = [];
  let flushScheduled = false;
  // Notifications go out one after another, each after the previous one's answer: the order of this
  // instance's events never rests on the driver's internal queue (which pg 9 drops).
  let sending: Promise<unknown> = Promise.resolve();

  async function apply(item: Shared) {
    if ('reloadMessage' in item) {
      const message = await reload.message(item.reloadMessage);
      if (!message) return;
      local.deliver(item.chatId, item.completed
        ? { type: 'message.completed', message, ...(item.error ? { error: item.error } : {}) }
        : { type: 'message.created', message });
    } else {
      local.deliver(item.chatId, item.event);
    }
  }

  async function connect(): Promise<void> {
    const next = new pg.Client({ connectionString: databaseUrl, application_name: 'ai-coach-events' });
    next.on('error', (error) => {
      log.warn({ err: error }, 'chat event connection lost; reconnecting');
      void reconnect(next);
    });
    next.on('notification', (notification) => {
      if (notification.channel !== channel || !notification.payload) return;
      const separator = notification.payload.indexOf('|');
      if (notification.payload.slice(0, separator) === instanceId) return;
      const items = JSON.parse(notification.payload.slice(separator + 1)) as Shared[];
      remoteQueue = remoteQueue
        .then(async () => {
          for (const item of items) await apply(item);
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
    const lostAt = new Date(Date.now() - 1000); // a margin for clocks and in-flight events
    await broken.end().catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, options.reconnectDelayMs ?? 100));
    for (let attempt = 1; !closed; attempt++) {
      try {
        await connect();
        flush(); // what this instance published meanwhile was kept, in order
        await replayMissed(lostAt);
        return;
      } catch (error) {
        log.warn({ err: error, attempt }, 'chat event connection failed');
        await new Promise((resolve) => setTimeout(resolve, Math.min(5000, 200 * attempt)));
      }
    }
  }

  // Events of other instances sent while the connection was down never arrive: the subscribers
  // here get them from the database instead (messages created since, and the end of every reply
  // that was streaming), in the order of their ids. Subscribers drop what they already have.
  async function replayMissed(since: Date) {
    local.deliver(0, { type: 'bus.reconnected' });
    for (const chatId of local.subscribedChats()) {
      if (chatId === 0) continue;
      try {
        const live = local.liveRepliesOf(chatId).map((reply) => reply.messageId);
        const messages = await reload.messagesSince(chatId, since, live);
        for (const message of messages.sort((a, b) => a.id - b.id)) {
          local.deliver(chatId, { type: 'message.created', message });
          if (message.status !== 'streaming') local.deliver(chatId, { type: 'message.completed', message });
        }
      } catch (error) {
        log.error({ err: error, chatId }, 'could not replay missed chat events');
      }
    }
  }

  // Packs the tick's events into as few payloads as fit under the NOTIFY limit, in order.
  function flush() {
    flushScheduled = false;
    // Without a connection (reconnecting) the events wait for it, in order.
    if (!client) return;
    const items = outbox;
    outbox = [];
    const prefix = `${instanceId}|`;
    let batch: string[] = [];
    let size = prefix.length + 2;
    const target = client;
    const send = () => {
      if (!batch.length) return;
      const payload = `${prefix}[${batch.join(',')}]`;
      sending = sending
        .then(() => target.query('select pg_notify($1, $2)', [channel, payload]))
        .catch((error) => {
          log.warn({ err: error }, 'could not share chat events with other instances');
        });
      batch = [];
      size = prefix.length + 2;
    };
    for (const item of items) {
      const bytes = Buffer.byteLength(item) + 1;
      if (size + bytes > maxNotifyBytes) send();
      batch.push(item);
      size += bytes;
    }
    send();
  }

  function share(chatId: number, event: ChatEvent | ControlEvent) {
    let item = JSON.stringify({ chatId, event } satisfies BusEnvelope);
    if (Buffer.byteLength(item) + instanceId.length + 3 > maxNotifyBytes) {
      if (event.type !== 'message.created' && event.type !== 'message.completed') {
        log.warn({ type: event.type }, 'chat event too large to share between instances');
        return;
      }
      // Too large for NOTIFY: the others read the message from the database instead.
      const hint: Shared = { chatId, reloadMessage: event.message.id, completed: event.type === 'message.completed', ...(event.type === 'message.completed' && event.error ? { error: event.error } : {}) };
      item = JSON.stringify(hint);
    }
    outbox.push(item);
    if (!flushScheduled && client) {
      flushScheduled = true;
      setImmediate(flush);
    }
  }

  await connect();

  return {
    ...local,
    publish(chatId, event) {
      local.deliver(chatId, event);
      share(chatId, event);
    },
    async close() {
      closed = true;
      if (flushScheduled) flush();
      await local.close();
      await client?.end().catch(() => {});
    },
  };
}
