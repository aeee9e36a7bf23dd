import { defineEntity, p } from '@mikro-orm/core';
import { memoryKinds } from '../../../shared/schemas/memories.js';
import { isSensitive } from '../../../shared/memoryPolicy.js';
import { Chat } from './Chat.js';
import { User } from './User.js';

// What the coach remembers of a user: said to it ('Remember that …'), picked from a
// conversation after a reply, or written on the Memory page. The text is searched with full-text
// search (an expression index on to_tsvector('english', text), see the migration).
export const MemorySchema = defineEntity({
  name: 'Memory',
  tableName: 'memory',
  indexes: [
    { name: 'memory_owner_idx', properties: ['owner', 'updatedAt'] },
    { name: 'memory_source_message_idx', properties: ['sourceMessageId'] },
  ],
  properties: {
    id: p.integer().primary().autoincrement(),
    owner: () => p.manyToOne(User).deleteRule('cascade'),
    text: p.string().length(500),
    kind: p.enum(memoryKinds).default('fact'),
    dueAt: p.datetime().nullable(),
    sourceChat: () => p.manyToOne(Chat).nullable().deleteRule('set null'),
    // The coach's reply that stored it (its 'Memory updated' note and Undo); a plain id, so a
    // message removed by retention leaves the memory alone.
    sourceMessageId: p.integer().nullable(),
    // A commitment past its due date is asked about once, in the chat named here; an answer there
    // can close it (doneAt).
    askedAt: p.datetime().nullable(),
    askedChat: () => p.manyToOne(Chat).nullable().deleteRule('set null'),
    doneAt: p.datetime().nullable(),
    // It touches a sensitive topic (src/shared/memoryPolicy.ts): kept only because the user
    // asked, and never written into what leaves the app. Decided from the text on every write;
    // null only for a memory kept before the mark, until the server decides it at start.
    sensitive: p
      .boolean()
      .nullable()
      .onCreate((memory: { text: string }) => isSensitive(memory.text))
      .onUpdate((memory: { text: string }) => isSensitive(memory.text)),
    /** A demo sample (the demo template's, or a visitor's copy of one). */
    isSample: p.boolean().default(false),
    /** A visitor's copy of a template sample: the template row's id, which keeps naming the copy (trpc/sampleCopies.ts). */
    sampleOf: p.integer().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});
export class Memory extends MemorySchema.class {
  toView(): MemoryView {
    return {
      id: this.id,
      text: this.text,
      kind: this.kind,
      dueAt: this.dueAt ? this.dueAt.toISOString() : null,
      doneAt: this.doneAt ? this.doneAt.toISOString() : null,
      sourceChatId: this.sourceChat ? (this.sourceChat as { id: number }).id : null,
      // Not decided yet: treated as sensitive.
      sensitive: this.sensitive !== false,
      sample: this.isSample,
      createdAt: this.createdAt.toISOString(),
      updatedAt: this.updatedAt.toISOString(),
    };
  }
}
MemorySchema.setClass(Memory);

// Whether the coach may remember and use memories; a user without a row has memory on.
export const MemorySettingSchema = defineEntity({
  name: 'MemorySetting',
  tableName: 'memory_setting',
  properties: {
    user: () => p.oneToOne(User).owner().primary().deleteRule('cascade'),
    enabled: p.boolean().default(true),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});
export class MemorySetting extends MemorySettingSchema.class {}
MemorySettingSchema.setClass(MemorySetting);

export type MemoryView = import('../../../shared/schemas/memories.js').MemoryView;
