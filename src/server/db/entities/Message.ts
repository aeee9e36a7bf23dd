import { defineEntity, p } from '@mikro-orm/core';
import { Chat } from './Chat.js';

export const messageRoles = ['system', 'user', 'assistant'] as const;
export type MessageRole = (typeof messageRoles)[number];
// streaming: the coach is still writing; stopped: the user ended it early (partial text kept);
// failed: the provider failed (whatever arrived is kept).
export const messageStatuses = ['streaming', 'complete', 'stopped', 'failed'] as const;
export type MessageStatus = (typeof messageStatuses)[number];

export const MessageSchema = defineEntity({
  name: 'Message',
  tableName: 'message',
  indexes: [
    // Pages of a chat's messages are read newest first by id.
    { name: 'message_chat_page_idx', properties: ['chat', 'id'] },
    // The few replies under way: a chat's one (send, stop) and the orphan sweep (orphanedReplies.ts).
    { name: 'message_streaming_idx', properties: ['chat'], where: `"status" = 'streaming'` },
  ],
  properties: {
    id: p.integer().primary().autoincrement(),
    chat: () => p.manyToOne(Chat).deleteRule('cascade'),
    role: p.enum(messageRoles),
    content: p.text().default(''),
    status: p.enum(messageStatuses).default('complete'),
    createdAt: p.datetime().onCreate(() => new Date()),
    // Last written, by the database's clock: a reply under way is written at least every
    // checkpoint, so one not written for a while is orphaned (features/chats/orphanedReplies.ts).
    updatedAt: p.datetime().defaultRaw('current_timestamp'),
    // The text's lexemes for search's ranking, written only by the database's trigger (see
    // Migration20261126170000_message_search_vector.ts); mapped so the schema tools know the
    // column, never selected or written by the app.
    searchVector: p.string().columnType('tsvector').nullable().lazy().hidden(),
  },
});

export class Message extends MessageSchema.class {
  toDto() {
    return {
      id: this.id,
      chatId: typeof this.chat === 'object' ? this.chat.id : (this.chat as number),
      role: this.role,
      content: this.content,
      status: this.status,
      createdAt: this.createdAt.toISOString(),
    };
  }
}
MessageSchema.setClass(Message);

export type MessageDto = ReturnType<Message['toDto']>;
