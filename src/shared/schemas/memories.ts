import { z } from 'zod';
import { searchLimits } from '../limits.js';
import { memoryTexts } from '../texts/memories.js';

// Memories. The same schemas validate tRPC, REST (/api/memories...) and the Memory page.
export const memoryKinds = ['fact', 'preference', 'person', 'commitment'] as const;
export type MemoryKind = (typeof memoryKinds)[number];
export const memoryLimits = {
  maxText: 500,
  /** Memories a user may keep. */
  maxPerUser: 500,
  /** New memories picked from one exchange. */
  maxPerExchange: 3,
  /** Up to this many, every memory goes into the coach's context; above it, the most relevant. */
  contextAll: 20,
  contextBest: 20,
} as const;

export { searchLimits };

const id = z.coerce
  .number({ message: memoryTexts.notFound })
  .int(memoryTexts.notFound)
  .positive(memoryTexts.notFound)
  .max(2_147_483_647, memoryTexts.notFound);
const text = z
  .string({ message: memoryTexts.textRequired })
  .trim()
  .min(1, memoryTexts.textRequired)
  .max(memoryLimits.maxText, memoryTexts.textTooLong);
const kind = z.enum(memoryKinds, { message: memoryTexts.unknownKind });
const dueAt = z.iso.datetime({ offset: true, message: memoryTexts.dueAtInvalid });

export const createMemorySchema = z.object({ text, kind: kind.default('fact'), dueAt: dueAt.nullish() });
export type CreateMemoryInput = z.input<typeof createMemorySchema>;

export const updateMemorySchema = z.object({
  memoryId: id,
  text: text.optional(),
  kind: kind.optional(),
  dueAt: dueAt.nullish(),
  /** Commitments: kept (true) or open again (false). */
  done: z.boolean({ message: memoryTexts.doneInvalid }).optional(),
});
export type UpdateMemoryInput = z.input<typeof updateMemorySchema>;

export const memoryRefSchema = z.object({ memoryId: id });
/** The Undo of 'Memory deleted': the token the delete answered. */
export const restoreMemorySchema = z.object({ restoreToken: z.string({ message: memoryTexts.restoreExpired }).min(1, memoryTexts.restoreExpired).max(8000, memoryTexts.restoreExpired) });
export const memorySettingsSchema = z.object({ enabled: z.boolean({ message: memoryTexts.enabledInvalid }) });
/** Undo of the 'Memory updated' note: the memories a reply stored. */
export const undoMemorySchema = z.object({ messageId: id });
export const chatMemoriesSchema = z.object({ chatId: id });

export const searchSchema = z.object({
  q: z
    .string({ message: memoryTexts.searchTooShort })
    .trim()
    .min(searchLimits.minQuery, memoryTexts.searchTooShort)
    .max(searchLimits.maxQuery, memoryTexts.searchTooLong),
});

/** A memory as every client sees it (REST and tRPC). */
export type MemoryView = {
  id: number;
  text: string;
  kind: MemoryKind;
  dueAt: string | null;
  doneAt: string | null;
  sourceChatId: number | null;
  /**
   * It touches a sensitive topic (health, emotions, family, beliefs, pay, discrimination, legal
   * matters, identity, other people's personal details): kept because the user asked, and never
   * sent by email, push or a call.
   */
  sensitive: boolean;
  /** Demo sample data (the demo's template, or a visitor's copy of it). */
  sample: boolean;
  createdAt: string;
  updatedAt: string;
};

/** A search hit: snippet is plain text with the matched words between <mark> and </mark> (the rest escaped). */
export type SearchResult = { chatId: number; chatTitle: string; messageId: number; snippet: string; createdAt: string };
