import { defineEntity, p } from '@mikro-orm/core';
import { User } from './User.js';

export const defaultChatTitle = 'New Chat';

export const ChatSchema = defineEntity({
  name: 'Chat',
  tableName: 'chat',
  // The sidebar lists a user's chats pinned first, then most recently active.
  indexes: [{ name: 'chat_owner_list_idx', properties: ['owner', 'isPinned', 'updatedAt'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    owner: () => p.manyToOne(User).deleteRule('cascade'),
    title: p.string().length(200).default(defaultChatTitle),
    isPinned: p.boolean().default(false),
    // Started while the owner's storeChatHistory was off: removed once they leave it.
    isTemporary: p.boolean().default(false),
    // A demo guest's copy of a sample chat: the template chat's id, which keeps answering for it.
    sampleOf: p.integer().nullable(),
    // A rehearsal's chat: the model plays the other person; the chat list marks it.
    isRehearsal: p.boolean().default(false),
    createdAt: p.datetime().onCreate(() => new Date()),
    // Last activity: set when a message is sent, not by renaming or pinning.
    updatedAt: p.datetime().onCreate(() => new Date()),
  },
});

export class Chat extends ChatSchema.class {
  toDto() {
    return {
      // A demo guest's copy of a sample answers to the sample's id (guestAccount.ts): the id the
      // visitor's screens held before their first write keeps naming the same conversation.
      id: this.sampleOf ?? this.id,
      title: this.title,
      isPinned: this.isPinned,
      isTemporary: this.isTemporary,
      isRehearsal: this.isRehearsal,
      createdAt: this.createdAt.toISOString(),
      updatedAt: this.updatedAt.toISOString(),
    };
  }
}
ChatSchema.setClass(Chat);

export type ChatDto = ReturnType<Chat['toDto']>;
